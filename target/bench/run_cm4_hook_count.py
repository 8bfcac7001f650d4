#!/usr/bin/env python3
"""Instructions per hook call on a Cortex-M4 model: tband and barectf in QEMU.

Builds cm4/hook_count.cpp for QEMU's mps2-an386 (Cortex-M4) once per tracer
and optimisation level with arm-none-eabi-gcc/g++ (-mcpu=cortex-m4 -mthumb,
-Os as firmware usually is, and -O2), runs each under
`qemu-system-arm -M mps2-an386 -icount shift=0` (one instruction per
nanosecond of virtual time) and reports instructions per call of the five
calls of the benchmark mix and their average over the mix, loop overhead
subtracted (see hook_count.cpp). Tracers, each storing its bytes in RAM as in
run_hook_bench.py: tband streaming into a 64 KiB RAM ring frame by frame
(ring_sink.cpp, newlib's memcpy), tband streaming through its 1 KiB staging
buffer into the same ring, tband's snapshot backend (1 MiB), tband streaming
with link integrity and with compact timestamps into the ring, and barectf's
compact configuration (1-byte event id) with its packets kept. The mix runs
2,000 cycles (the host benchmark: 100,000), so timestamps are shorter: compare
the rows with each other, not with the host's figures.

  target/bench/run_cm4_hook_count.py [--out DIR] [--markdown FILE] [--filters-markdown FILE] [--only-filters]
                                     [--only KEY,...] [--cycles] [--cycles-markdown FILE]

First a table of the run-time filters' cost (config_filters/, filter_mode.hpp).
With --cycles, every image of the main table runs a second time, traced
instruction by instruction, through the Cortex-M4 cycle model of
cm4_cycle_model.py (QEMU has no cycle counter): cycles per call, and the
mix's loads, stores and taken branches. The model's instruction counts must
match the first run's to the tenth, or the script stops.

Needs arm-none-eabi-gcc/g++ with newlib, qemu-system-arm and barectf.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import cm4_cycle_model

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "target" / "bench"
BOARD = ROOT / "target" / "boards" / "mps2_an386"
KINDS = ["isr_enter", "isr_exit", "evtmarker_begin", "evtmarker_end", "valmarker", "mix"]
LABELS = {"evtmarker_begin": 'evtmarker_begin(1, "acq")', "mix": "average over the mix"}
CPU = ["-mcpu=cortex-m4", "-mthumb", "-ffunction-sections", "-fdata-sections"]
CXX = ["arm-none-eabi-g++", "-std=c++17", "-fno-exceptions", "-fno-rtti", *CPU]
CC = ["arm-none-eabi-gcc", "-std=c11", *CPU]
# (key, label, tband config dir or None for barectf, with the RAM-ring sink)
TRACERS = [
    ("stream_ring", "tband, streaming: the stream hook copies each frame into a RAM ring", "config", True),
    ("stream_staged", "tband, streaming through the 1 KiB staging buffer into the same RAM ring", "config_staged",
     True),
    ("snapshot", "tband, snapshot backend", "config_snapshot", False),
    ("stream_link", "tband, streaming with link integrity (sequence number and CRC-16 per frame) into the same RAM ring",
     "config_link", True),
    ("stream_compact", "tband, streaming with compact timestamps into the same RAM ring", "config_compact", True),
    ("barectf", "barectf 3.1, compact (1-byte event id), packets kept", None, False),
]
# Run-time filters (config_filters/, streaming into the RAM ring), by
# BENCH_FILTER_MODE (filter_mode.hpp), next to the same tracer without them
# (config/) in the same run.
FILTER_ROWS = [
    ("stream_ring", "no filters compiled in (tband_configUSE_FILTERS 0)", None),
    ("filters_traced", "filters compiled in, every event traced", 1),
    ("filters_ids_off", "filters: the hook's event id left out (global filter)", 2),
    ("filters_objects_off", "filters: the hook's object left out (local filter)", 3),
]
OPT_LEVELS = ["-Os", "-O2"]


def run(cmd: list[str], cwd: Path = ROOT, timeout: int | None = None) -> str:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}\n{result.stdout}{result.stderr}")
    return result.stdout


def build(out: Path, key: str, config: str | None, ring: bool, opt: str, gen: Path, barectf: Path,
          defines: tuple[str, ...] = ()) -> Path:
    work = out / f"{key}{opt}"
    work.mkdir(parents=True, exist_ok=True)
    includes = [f"-I{ROOT / 'bench'}", f"-I{BOARD}", f"-I{BENCH}"]
    objects = []

    def compile_one(compiler: list[str], source: Path, extra: list[str]) -> None:
        obj = work / f"{source.stem}.o"
        run([*compiler, opt, *extra, *includes, "-c", source, "-o", obj])
        objects.append(obj)

    if config is None:
        extra = [f"-I{barectf}", "-DBENCH_BARECTF", "-DNDEBUG"]
        compile_one(CC, barectf / "barectf.c", extra)
    else:
        extra = [f"-I{ROOT / 'target/include'}", f"-I{BENCH / config}", f"-I{BENCH / 'port'}", f"-I{gen}",
                 "-DBENCH_FREESTANDING", "-DBENCH_SNAPSHOT_BUF_SIZE=1048576u", *defines]
        for source in sorted((ROOT / "target/src").glob("*.cpp")):
            compile_one(CXX, source, extra)
        if ring:
            compile_one(CXX, BENCH / "ring_sink.cpp", extra)
    compile_one(CXX, BENCH / "cm4/hook_count.cpp", extra)
    compile_one(CC, BOARD / "board.c", ["-Os"])
    compile_one(CC, BOARD / "startup.c", ["-Os", "-fno-tree-loop-distribute-patterns"])
    elf = work / "hook_count.elf"
    run([*CXX, "-nostdlib", "-Wl,--gc-sections", "-T", BOARD / "mps2_an386.ld", *objects, "-lc", "-lgcc", "-o", elf])
    return elf


def count(elf: Path) -> dict[str, float]:
    output = run(["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-monitor", "none",
                  "-semihosting-config", "enable=on,target=native", "-icount", "shift=0,align=off,sleep=off",
                  "-serial", "stdio", "-kernel", elf], timeout=300)
    figures = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].isdigit():
            figures[fields[0]] = int(fields[1]) / 1000
    if "done" not in output or "mix" not in figures:
        raise SystemExit(f"{elf}: no complete result:\n{output}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "cm4_hook_count")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--filters-markdown", type=Path, help="also write the run-time filters' table here")
    parser.add_argument("--only-filters", action="store_true", help="measure only the run-time filters' table")
    parser.add_argument("--only", help="comma-separated tracer keys (stream_ring,stream_compact,...): "
                        "measure only these, without the filters' table")
    parser.add_argument("--cycles", action="store_true", help="also model cycles per call (cm4_cycle_model.py)")
    parser.add_argument("--cycles-markdown", type=Path, help="also write the cycle tables here (implies --cycles)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    gen = args.out / "generated"
    run([sys.executable, "-m", "codegen", "--quiet", "--schema-dir", ROOT / "schema", "--out", gen])
    barectf = args.out / "barectf"
    tracers = TRACERS if not args.only else [t for t in TRACERS if t[0] in args.only.split(",")]

    header = " | ".join(LABELS.get(kind, kind) for kind in KINDS)
    rows = [f"| Tracer (bytes stored in RAM) | Build | {header} |", "| --- | --- |" + " --- |" * len(KINDS)]
    calibration = []
    filter_rows = [f"| Tracer | Build | {header} |", "| --- | --- |" + " --- |" * len(KINDS)]
    for opt in OPT_LEVELS if not args.only else []:
        for key, label, mode in FILTER_ROWS:
            config = "config" if mode is None else "config_filters"
            defines = () if mode is None else (f"-DBENCH_FILTER_MODE={mode}",)
            figures = count(build(args.out, key, config, True, opt, gen / "target", barectf, defines))
            cells = " | ".join(f"{figures[kind]:.1f}" for kind in KINDS)
            filter_rows.append(f"| {label} | {opt} | {cells} |")
    filter_table = "\n".join(filter_rows) + "\n"
    print("run-time filters: instructions per call (same method)\n")
    print(filter_table)
    if args.filters_markdown:
        args.filters_markdown.write_text(filter_table)
    if args.only_filters:
        return 0
    barectf.mkdir(exist_ok=True)
    run(["barectf", "gen", f"--code-dir={barectf}", f"--headers-dir={barectf}", f"--metadata-dir={barectf}",
         BENCH / "barectf/config_compact.yaml"])
    cycles = args.cycles or args.cycles_markdown is not None
    cycle_rows = [f"| Tracer (bytes stored in RAM) | Build | {header} |", "| --- | --- |" + " --- |" * len(KINDS)]
    split_rows = ["| Tracer | Build | instructions | loads (words) | stores (words) | taken branches | cycles "
                  "| cycles per instruction |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for opt in OPT_LEVELS:
        for key, label, config, ring in tracers:
            elf = build(args.out, key, config, ring, opt, gen / "target", barectf)
            figures = count(elf)
            calibration.append(figures["calibration_100_nops"])
            cells = " | ".join(f"{figures[kind]:.1f}" for kind in KINDS)
            rows.append(f"| {label} | {opt} | {cells} |")
            if cycles:
                modelled = model_cycles(elf, figures)
                cells = " | ".join(f"{modelled[kind]['cycles']:.1f}" for kind in KINDS)
                cycle_rows.append(f"| {label} | {opt} | {cells} |")
                mix = modelled["mix"]
                split_rows.append(
                    f"| {label} | {opt} | {mix['instructions']:.1f} | {mix['loads']:.1f} | {mix['stores']:.1f} | "
                    f"{mix['taken_branches']:.1f} | {mix['cycles']:.1f} | {mix['cycles'] / mix['instructions']:.2f} |")
    table = "\n".join(rows) + "\n"
    print("instructions per call (qemu-system-arm -M mps2-an386 -icount shift=0, 2,000 cycles of the mix, "
          "loop overhead subtracted)\n")
    print(table)
    print(f"calibration: a loop of 100 NOPs counts {min(calibration):.1f} to {max(calibration):.1f} "
          "instructions per iteration (NOPs, minus the empty loop)")
    if args.markdown:
        args.markdown.write_text(table)
    if cycles:
        cycle_table = "\n".join(cycle_rows) + "\n"
        split_table = "\n".join(split_rows) + "\n"
        print(f"\ncycles per call (cm4_cycle_model.py: Cortex-M4 TRM timings, pipeline refill "
              f"P = {cm4_cycle_model.REFILL_CYCLES})\n")
        print(cycle_table)
        print("\nthe mix, per call\n")
        print(split_table)
        if args.cycles_markdown:
            args.cycles_markdown.write_text(cycle_table + "\n" + split_table)
    return 0


def model_cycles(elf: Path, figures: dict[str, float]) -> dict[str, dict[str, float]]:
    """The cycle model's figures per kind, checked against QEMU's instruction count of the same image."""
    run = cm4_cycle_model.trace(elf)
    modelled = {kind: run.per_call(kind) for kind in KINDS}
    for kind in KINDS:
        if abs(modelled[kind]["instructions"] - figures[kind]) > 0.05:
            raise SystemExit(f"{elf}: the cycle model counted {modelled[kind]['instructions']:.2f} instructions per "
                             f"{kind} call, QEMU {figures[kind]:.2f}: the trace walk is wrong")
    return modelled


if __name__ == "__main__":
    sys.exit(main())
