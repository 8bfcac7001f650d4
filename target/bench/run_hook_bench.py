#!/usr/bin/env python3
"""Instructions per hook call: tband against barectf's generated tracer, bytes stored.

Builds the tracers at -O2 with the same harness (hook_loops.hpp) on the
benchmark mix (bench/benchmark_mix.hpp), runs each under valgrind's callgrind,
and reports instructions per call of isr_enter, isr_exit, evtmarker_begin(1,
"acq"), evtmarker_end and valmarker, and their average over the mix: the
inclusive instruction count of a loop making the calls minus that of the same
loop without them, divided by the number of calls.

Every tracer in the main table stores its bytes in RAM, side by side in one run:
  - tband, streaming: the stream hook (ring_sink.cpp, another translation
    unit) copies each frame into a 64 KiB RAM ring;
  - tband, streaming through its staging buffer (config_staged/): frames are
    encoded into the tracer's 1 KiB staging buffer, and the same stream hook
    copies a full buffer into the ring at once;
  - tband, snapshot backend (config_snapshot/, a buffer the run does not fill);
  - tband, streaming with link integrity (config_link/: a sequence number and
    a CRC in every frame), into the same ring;
  - tband, streaming with compact timestamps (config_compact/: deltas from
    the last absolute timestamp), into the same ring;
  - barectf 3, compact configuration (1-byte event type id) and default
    configuration (8-byte id): events written into 4 KiB packets, full packets
    kept (a ring of 16 packet buffers, no copy).
A separate, labelled row gives tband streaming into a sink that throws the
bytes away (noop_sink.cpp): what the tracer alone costs.

A second run of each records the trace, for bytes per event, and checks that
every tband configuration wrote the trace the reference tracer writes.

Then the FreeRTOS module's hooks, the same way (freertos_hook_bench.cpp,
config_freertos/, the discarding sink): instructions per call of every hook the
kernel's trace macros call and of the task-local markers, next to isr_enter in
the same run.

  target/bench/run_hook_bench.py [--out DIR] [--cycles N] [--markdown FILE]
                                 [--freertos-markdown FILE] [--no-freertos]
                                 [--filters-markdown FILE] [--only-filters] [--only-compact]

First, the run-time filters' table: the streaming tracer into the RAM ring
without filters, and with them (config_filters/) with every event traced, with
the mix's event ids left out and with its objects left out (filter_mode.hpp).

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


def run(cmd: list[str], cwd: Path | None = None) -> str:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}\n{result.stdout}{result.stderr}")
    return result.stdout


def build_tband(out: Path, config: str, main: str, sinks: list[str | None], defines: tuple[str, ...] = (),
                tag: str = "") -> list[Path]:
    """The tracer with target/bench/<config>/tband_config.h and the benchmark
    program <main>.cpp (compiled with defines), linked once with each sink
    (None: none, for the snapshot backend); one binary per sink. tag tells
    apart builds of one config with other defines."""
    gen = out / "generated"
    run([sys.executable, "-m", "codegen", "--quiet", "--schema-dir", str(ROOT / "schema"), "--out", str(gen)], cwd=ROOT)
    flags = ["-std=c++17", "-O2", "-fno-exceptions", "-fno-rtti", f"-I{ROOT / 'target/include'}",
             f"-I{BENCH / config}", f"-I{BENCH / 'port'}", f"-I{gen / 'target'}", f"-I{ROOT / 'bench'}", f"-I{BENCH}", *defines]
    config_tag = config + tag
    objects = []
    for source in sorted((ROOT / "target/src").glob("*.cpp")):
        obj = out / f"{config_tag}_{source.stem}.o"
        run(["g++", *flags, "-c", str(source), "-o", str(obj)])
        objects.append(str(obj))
    main_obj = out / f"{config_tag}_{main}.o"
    run(["g++", *flags, "-c", str(BENCH / f"{main}.cpp"), "-o", str(main_obj)])
    binaries = []
    for sink in sinks:
        sink_objs = []
        if sink is not None:
            sink_objs = [str(out / f"{sink}.o")]
            run(["g++", "-std=c++17", "-O2", "-c", str(BENCH / f"{sink}.cpp"), "-o", sink_objs[0]])
        binary = out / f"{config_tag}_{main}_{sink or 'alone'}"
        run(["g++", *objects, str(main_obj), *sink_objs, "-o", str(binary)])
        binaries.append(binary)
    return binaries


def build_barectf(out: Path, config: str) -> tuple[Path, Path]:
    """barectf's tracer for target/bench/barectf/<config>.yaml: the measured
    binary and the recording one."""
    code = out / f"barectf_{config}"
    code.mkdir(exist_ok=True)
    run(["barectf", "gen", f"--code-dir={code}", f"--headers-dir={code}", f"--metadata-dir={code}",
         str(BENCH / f"barectf/{config}.yaml")])
    run(["gcc", "-std=c99", "-O2", "-c", str(code / "barectf.c"), "-o", str(code / "barectf.o")])
    binaries = []
    for variant, defines in [("measure", []), ("record", ["-DBENCH_RECORD"])]:
        binary = out / f"barectf_{config}_hook_bench_{variant}"
        run(["g++", "-std=c++17", "-O2", *defines, f"-I{code}", f"-I{ROOT / 'bench'}", f"-I{BENCH}",
             str(BENCH / "barectf_hook_bench.cpp"), str(code / "barectf.o"), "-o", str(binary)])
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
    "stream buffers": ["stream_buffer_send", "stream_buffer_send_from_isr", "stream_buffer_receive",
                       "stream_buffer_receive_from_isr", "block_on_stream_buffer_receive",
                       "stream_buffer_receive_failed"],
    "timers": ["timer_command_send", "timer_command_received", "timer_expired"],
    "queue sets": ["queue_set_send", "queue_set_select"],
    "task-local markers": ["task_evtmarker", "task_evtmarker_begin", "task_evtmarker_end", "task_valmarker"],
}
CREATION_CALLS = 16  # bench::kCreationCalls
FREERTOS_LABELS = {
    "task_created": 'task_created(2) and task_name(id, "worker"): id, task_created, task_priority_set, task_name',
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


# Run-time filters: the streaming tracer into the RAM ring without them
# (config/) and with them (config_filters/) by BENCH_FILTER_MODE (filter_mode.hpp).
FILTER_ROWS = [
    ("no filters compiled in (tband_configUSE_FILTERS 0)", None),
    ("filters compiled in, every event traced", 1),
    ("filters: the hook's event id left out (global filter)", 2),
    ("filters: the hook's object left out (local filter)", 3),
]


def filters_table(out: Path, cycles: int) -> str:
    header = " | ".join(LABELS.get(kind, kind) for kind in KINDS)
    rows = [f"| Tracer | {header} | average over the mix |", "| --- |" + " --- |" * (len(KINDS) + 1)]
    for label, mode in FILTER_ROWS:
        if mode is None:
            (binary,) = build_tband(out, "config", "tband_hook_bench", ["ring_sink"])
        else:
            (binary,) = build_tband(out, "config_filters", "tband_hook_bench", ["ring_sink"],
                                    (f"-DBENCH_FILTER_MODE={mode}",), f"_mode{mode}")
        figures = instructions_per_call(binary, cycles, out)
        rows.append(f"| {label} | " + " | ".join(f"{figures[kind]:.1f}" for kind in KINDS + ["mix"]) + " |")
    return "\n".join(rows) + "\n"


def bytes_per_event(binary: Path, cycles: int, out: Path, reference: bool = True) -> tuple[float, str]:
    """reference False: a trace that is not the reference tracer's (NOT_REFERENCE)."""
    cmd = [str(binary), "trace", str(out / f"{binary.name}.trace"), str(cycles)]
    if reference:
        line = run(cmd).strip()
    else:
        line = subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
    fields = line.split()
    events, size = int(fields[1]), int(fields[3])
    return size / events, line


# The main table's rows: (label, tracer), tband's from build_tband, barectf's
# from build_barectf; the discarding sink's row comes after, labelled apart.
TBAND_STORED = [
    ("stream_ring", "tband, streaming: the stream hook copies each frame into a RAM ring"),
    ("stream_staged", "tband, streaming through the 1 KiB staging buffer into the same RAM ring"),
    ("snapshot", "tband, snapshot backend"),
    ("stream_link", "tband, streaming with link integrity (sequence number and CRC-16 per frame), same RAM ring"),
    ("stream_compact", "tband, streaming with compact timestamps, same RAM ring"),
]
# Not the reference tracer's bytes: link integrity's trailers, compact timestamps' fields.
NOT_REFERENCE = ("stream_link", "stream_compact")
BARECTF = [
    ("config_compact", "barectf 3.1, compact (1-byte event id), packets kept"),
    ("config", "barectf 3.1, default (8-byte event id), packets kept"),
]
DISCARD_LABEL = "not stored: tband, streaming into a sink that drops the bytes"
MIX_TARGET = 75.0  # instructions per call, mix average (issue 14)
SNAPSHOT_MARGIN = 1.10  # snapshot at most 10 % above streaming (issue 14)


def table_row(label: str, figures: dict[str, float], bytes_per_evt: float) -> str:
    cells = " | ".join(f"{figures[kind]:.1f}" for kind in KINDS + ["mix"])
    return f"| {label} | {cells} | {bytes_per_evt:.2f} |"


def compact_table(out: Path, cycles: int) -> str:
    """tband streaming into the RAM ring (config/) and the same with compact
    timestamps (config_compact/), side by side in one run."""
    header = " | ".join(LABELS.get(kind, kind) for kind in KINDS)
    rows = [f"| Tracer (bytes stored in RAM) | {header} | average over the mix | bytes per event |",
            "| --- |" + " --- |" * (len(KINDS) + 2)]
    for key, config in (("stream_ring", "config"), ("stream_compact", "config_compact")):
        ring, record = build_tband(out, config, "tband_hook_bench", ["ring_sink", "record_sink"])
        figures = instructions_per_call(ring, cycles, out)
        size, line = bytes_per_event(record, cycles, out, reference=key not in NOT_REFERENCE)
        print(f"{key}: {line}")
        rows.append(table_row(dict(TBAND_STORED)[key], figures, size))
    return "\n".join(rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "hook_bench")
    parser.add_argument("--cycles", type=int, default=100000, help="cycles of the five-call mix")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--freertos-markdown", type=Path, help="also write the FreeRTOS hooks' table here")
    parser.add_argument("--no-freertos", action="store_true", help="skip the FreeRTOS hooks' table")
    parser.add_argument("--filters-markdown", type=Path, help="also write the run-time filters' table here")
    parser.add_argument("--only-filters", action="store_true", help="measure only the run-time filters' table")
    parser.add_argument("--only-compact", action="store_true",
                        help="measure only tband streaming into the RAM ring with and without compact timestamps")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only_compact:
        print(compact_table(args.out, args.cycles))
        return 0
    filters = filters_table(args.out, args.cycles)
    print(f"run-time filters: instructions per call (callgrind, -O2, {args.cycles} cycles of the mix, "
          "loop overhead subtracted)\n")
    print(filters)
    if args.filters_markdown:
        args.filters_markdown.write_text(filters)
    if args.only_filters:
        return 0

    # Binaries: (measured, recording) per tracer.
    ring, discard, record = build_tband(args.out, "config", "tband_hook_bench",
                                        ["ring_sink", "noop_sink", "record_sink"])
    staged_ring, staged_record = build_tband(args.out, "config_staged", "tband_hook_bench",
                                             ["ring_sink", "record_sink"])
    (snapshot,) = build_tband(args.out, "config_snapshot", "tband_hook_bench", [None])
    link_ring, link_record = build_tband(args.out, "config_link", "tband_hook_bench", ["ring_sink", "record_sink"])
    compact_ring, compact_record = build_tband(args.out, "config_compact", "tband_hook_bench",
                                              ["ring_sink", "record_sink"])
    tband = {"stream_ring": (ring, record), "stream_staged": (staged_ring, staged_record),
             "snapshot": (snapshot, snapshot), "stream_link": (link_ring, link_record),
             "stream_compact": (compact_ring, compact_record)}
    barectf = {config: build_barectf(args.out, config) for config, _ in BARECTF}

    figures: dict[str, dict[str, float]] = {}
    sizes: dict[str, float] = {}
    same = True
    for key, (measured, recording) in list(tband.items()) + list(barectf.items()):
        figures[key] = instructions_per_call(measured, args.cycles, args.out)
        sizes[key], line = bytes_per_event(recording, args.cycles, args.out, reference=key not in NOT_REFERENCE)
        if key in tband:
            print(f"{key}: {line}")
            if key not in NOT_REFERENCE:
                same = same and "reference_trace same" in line
    figures["discard"] = instructions_per_call(discard, args.cycles, args.out)

    header = " | ".join(LABELS.get(kind, kind) for kind in KINDS)
    rows = [f"| Tracer (bytes stored in RAM) | {header} | average over the mix | bytes per event |",
            "| --- |" + " --- |" * (len(KINDS) + 2)]
    for key, label in TBAND_STORED + BARECTF:
        rows.append(table_row(label, figures[key], sizes[key]))
    rows.append(table_row(DISCARD_LABEL, figures["discard"], sizes["stream_ring"]))
    table = "\n".join(rows) + "\n"
    print(f"\ninstructions per call (callgrind, -O2, {args.cycles} cycles of the mix, loop overhead subtracted)\n")
    print(table)

    # The targets, as measured in this run.
    compact = figures["config_compact"]
    for key, label in TBAND_STORED:
        ours = figures[key]
        beaten = [kind for kind in KINDS if ours[kind] < compact[kind]]
        print(f"{key}: fewer than barectf (compact) on {len(beaten)} of {len(KINDS)} hooks"
              f"{'' if len(beaten) == len(KINDS) else ' (not on ' + ', '.join(k for k in KINDS if k not in beaten) + ')'}"
              f"; mix {ours['mix']:.1f} {'<=' if ours['mix'] <= MIX_TARGET else '>'} {MIX_TARGET:.0f}")
    for stream in ("stream_ring", "stream_staged"):
        ratio = figures["snapshot"]["mix"] / figures[stream]["mix"]
        print(f"snapshot / {stream} (mix): {ratio:.3f} ({'within' if ratio <= SNAPSHOT_MARGIN else 'not within'} 10 %)")
    if args.markdown:
        args.markdown.write_text(table)
    if not args.no_freertos:
        freertos = freertos_table(args.out, args.cycles)
        print(f"\nFreeRTOS module: instructions per call (callgrind, -O2, {args.cycles} calls of each hook, "
              f"{CREATION_CALLS} of each creation hook, loop overhead subtracted)\n")
        print(freertos)
        if args.freertos_markdown:
            args.freertos_markdown.write_text(freertos)
    if not same:
        print("error: tband did not write the reference tracer's trace", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
