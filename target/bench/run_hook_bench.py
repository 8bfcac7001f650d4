#!/usr/bin/env python3
"""Instructions per hook call: tband against barectf's generated tracer.

Builds both tracers at -O2 with the same harness (hook_loops.hpp) on the
benchmark mix (bench/benchmark_mix.hpp), runs each under valgrind's callgrind,
and reports instructions per call of isr_enter, isr_exit, evtmarker_begin(1,
"acq"), evtmarker_end and valmarker, and their average over the mix: the
inclusive instruction count of a loop making the calls minus that of the same
loop without them, divided by the number of calls. tband streams into a no-op
sink in another translation unit; barectf writes into its packet buffer and
drops full packets. A second run of each records the trace, for bytes per
event, and checks that tband wrote the stream the reference tracer writes.

Then the FreeRTOS module's hooks, the same way (freertos_hook_bench.cpp,
config_freertos/): instructions per call of every hook the kernel's trace
macros call and of the task-local markers, next to isr_enter in the same run.

  target/bench/run_hook_bench.py [--out DIR] [--cycles N] [--markdown FILE]
                                 [--freertos-markdown FILE]

Needs g++, gcc, valgrind and barectf (Debian: valgrind, python3-barectf).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "target" / "bench"
KINDS = ["isr_enter", "isr_exit", "evtmarker_begin", "evtmarker_end", "valmarker"]
LABELS = {"evtmarker_begin": 'evtmarker_begin(1, "acq")'}
# Measured on this kind of machine for the reference Tonbandgeraet C tracer
# built the same way (issue 3).
REFERENCE = {"isr_enter": 141, "isr_exit": 141, "evtmarker_begin": 193, "evtmarker_end": 141, "valmarker": 183,
             "mix": 161}


def run(cmd: list[str], cwd: Path | None = None) -> str:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}\n{result.stdout}{result.stderr}")
    return result.stdout


def build_tband(out: Path, config: str, main: str, sinks: list[str]) -> list[Path]:
    """The tracer with target/bench/<config>/tband_config.h and the benchmark
    program <main>.cpp, linked once with each sink; one binary per sink."""
    gen = out / "generated"
    run([sys.executable, "-m", "codegen", "--quiet", "--schema-dir", str(ROOT / "schema"), "--out", str(gen)], cwd=ROOT)
    flags = ["-std=c++17", "-O2", "-fno-exceptions", "-fno-rtti", f"-I{ROOT / 'target/include'}",
             f"-I{BENCH / config}", f"-I{BENCH / 'port'}", f"-I{gen / 'target'}", f"-I{ROOT / 'bench'}", f"-I{BENCH}"]
    objects = []
    for source in sorted((ROOT / "target/src").glob("*.cpp")):
        obj = out / f"{config}_{source.stem}.o"
        run(["g++", *flags, "-c", str(source), "-o", str(obj)])
        objects.append(str(obj))
    run(["g++", *flags, "-c", str(BENCH / f"{main}.cpp"), "-o", str(out / f"{main}.o")])
    binaries = []
    for sink in sinks:
        run(["g++", "-std=c++17", "-O2", "-c", str(BENCH / f"{sink}.cpp"), "-o", str(out / f"{sink}.o")])
        binary = out / f"{main}_{sink}"
        run(["g++", *objects, str(out / f"{main}.o"), str(out / f"{sink}.o"), "-o", str(binary)])
        binaries.append(binary)
    return binaries


def build_barectf(out: Path) -> tuple[Path, Path]:
    code = out / "barectf"
    code.mkdir(exist_ok=True)
    run(["barectf", "gen", f"--code-dir={code}", f"--headers-dir={code}", f"--metadata-dir={code}",
         str(BENCH / "barectf/config.yaml")])
    run(["gcc", "-std=c99", "-O2", "-c", str(code / "barectf.c"), "-o", str(out / "barectf.o")])
    binaries = []
    for variant, defines in [("noop", []), ("record", ["-DBENCH_RECORD"])]:
        binary = out / f"barectf_hook_bench_{variant}"
        run(["g++", "-std=c++17", "-O2", *defines, f"-I{code}", f"-I{ROOT / 'bench'}", f"-I{BENCH}",
             str(BENCH / "barectf_hook_bench.cpp"), str(out / "barectf.o"), "-o", str(binary)])
        binaries.append(binary)
    return binaries[0], binaries[1]


def loop_instructions(binary: Path, calls: int, out: Path) -> dict[tuple[str, str], int]:
    """Inclusive instruction counts of the benchmark's bench::run_<kind> and
    bench::baseline_<kind> loops, by ("run" | "baseline", kind)."""
    profile = out / f"{binary.name}.callgrind"
    run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", str(binary), "measure", str(calls)])
    annotated = run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(profile)])
    inclusive = {}
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) .*bench::(run|baseline)_(\w+)\(", line)
        if match:
            inclusive[(match.group(2), match.group(3))] = int(match.group(1).replace(",", ""))
    return inclusive


def per_call(inclusive: dict[tuple[str, str], int], calls: dict[str, int]) -> dict[str, float]:
    return {kind: (inclusive[("run", kind)] - inclusive[("baseline", kind)]) / n for kind, n in calls.items()}


def instructions_per_call(binary: Path, cycles: int, out: Path) -> dict[str, float]:
    calls = {kind: cycles for kind in KINDS} | {"mix": 5 * cycles}
    return per_call(loop_instructions(binary, cycles, out), calls)


# The FreeRTOS module's hooks as freertos_hook_bench.cpp names its loops, by
# group, with what the kernel calls them from; the creation hooks run
# CREATION_CALLS times (once per kernel object), the others --cycles times.
FREERTOS_GROUPS = {
    "creation": ["task_created", "queue_created", "queue_name", "idle_task", "timer_task"],
    "scheduling": ["task_switched_in", "task_to_rdy_state", "task_resumed", "task_resumed_from_isr",
                   "task_suspended", "task_deleted", "curtask_delay", "curtask_delay_until", "task_priority_set",
                   "task_priority_inherit", "task_priority_disinherit", "block_on_queue_send",
                   "block_on_queue_receive", "block_on_queue_peek"],
    "queues": ["queue_send", "queue_overwrite", "queue_send_from_isr", "queue_receive", "queue_receive_from_isr",
               "queue_reset", "queue_cur_length"],
    "notifications": ["task_notify", "task_notify_from_isr", "block_on_notify_take", "notify_take", "notify_wait"],
    "event groups": ["event_group_set_bits", "event_group_clear_bits", "event_group_set_bits_from_isr",
                     "block_on_event_group_wait", "event_group_wait_end"],
    "task-local markers": ["task_evtmarker", "task_evtmarker_begin", "task_evtmarker_end", "task_valmarker"],
}
CREATION_CALLS = 16  # bench::kCreationCalls
FREERTOS_LABELS = {
    "task_created": 'task_created(2, "worker"): id, task_name, task_created, task_priority_set',
    "queue_created": "queue_created: id, queue_created, queue_kind, queue_cur_length",
    "queue_name": 'queue_name(q, "jobs")',
    "queue_overwrite": "queue_send into a full queue (overwrite)",
    "task_evtmarker": 'task_evtmarker(5, "go")',
    "task_evtmarker_begin": 'task_evtmarker_begin(5, "acq")',
}


def freertos_table(out: Path, cycles: int) -> str:
    (binary,) = build_tband(out, "config_freertos", "freertos_hook_bench", ["noop_sink"])
    calls = {"isr_enter": cycles} | {
        hook: CREATION_CALLS if group == "creation" else cycles
        for group, hooks in FREERTOS_GROUPS.items() for hook in hooks}
    figures = per_call(loop_instructions(binary, cycles, out), calls)
    base = figures["isr_enter"]
    rows = ["| Group | Hook | Instructions per call | Ratio to isr_enter |", "| --- | --- | --- | --- |",
            f"| base tracer | isr_enter (same run) | {base:.1f} | 1.00 |"]
    for group, hooks in FREERTOS_GROUPS.items():
        for hook in hooks:
            rows.append(f"| {group} | {FREERTOS_LABELS.get(hook, hook)} | {figures[hook]:.1f} "
                        f"| {figures[hook] / base:.2f} |")
    return "\n".join(rows) + "\n"


def bytes_per_event(binary: Path, cycles: int, out: Path) -> tuple[float, str]:
    line = run([str(binary), "trace", str(out / f"{binary.name}.trace"), str(cycles)]).strip()
    fields = line.split()
    events, size = int(fields[1]), int(fields[3])
    return size / events, line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "hook_bench")
    parser.add_argument("--cycles", type=int, default=100000, help="cycles of the five-call mix")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--freertos-markdown", type=Path, help="also write the FreeRTOS hooks' table here")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    tband_noop, tband_record = build_tband(args.out, "config", "tband_hook_bench", ["noop_sink", "record_sink"])
    barectf_noop, barectf_record = build_barectf(args.out)
    ours = instructions_per_call(tband_noop, args.cycles, args.out)
    theirs = instructions_per_call(barectf_noop, args.cycles, args.out)
    ours_bytes, ours_line = bytes_per_event(tband_record, args.cycles, args.out)
    theirs_bytes, _ = bytes_per_event(barectf_record, args.cycles, args.out)

    rows = ["| Call | tband | barectf | reference tracer (issue 3) |", "| --- | --- | --- | --- |"]
    for kind in KINDS + ["mix"]:
        label = "average over the mix" if kind == "mix" else LABELS.get(kind, kind)
        rows.append(f"| {label} | {ours[kind]:.1f} | {theirs[kind]:.1f} | {REFERENCE[kind]} |")
    rows.append(f"| bytes per event | {ours_bytes:.2f} | {theirs_bytes:.2f} | |")
    table = "\n".join(rows) + "\n"
    print(f"instructions per call (callgrind, -O2, {args.cycles} cycles of the mix, loop overhead subtracted)\n")
    print(table)
    print(f"tband trace: {ours_line}")
    if args.markdown:
        args.markdown.write_text(table)
    freertos = freertos_table(args.out, args.cycles)
    print(f"\nFreeRTOS module: instructions per call (callgrind, -O2, {args.cycles} calls of each hook, "
          f"{CREATION_CALLS} of each creation hook, loop overhead subtracted)\n")
    print(freertos)
    if args.freertos_markdown:
        args.freertos_markdown.write_text(freertos)
    same = "reference_stream same" in ours_line
    if not same:
        print("error: tband did not write the reference tracer's stream", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
