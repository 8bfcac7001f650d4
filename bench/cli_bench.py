#!/usr/bin/env python3
"""Benchmark of the tband command on the benchmark mix (bench/benchmark_mix.hpp),
against babeltrace2 decoding the same events as CTF, in the same run; and the
same mix with user events of the lab group (bench/user_mix_encoder.hpp), which
the stock tband decodes and converts from the lab descriptor at run time.

For each command: the median wall time of --runs runs (whole process, file in
the page cache after a warm-up run), events/s, input MB/s and peak RSS (from
wait4). Prints a table and the targets of issue 4; --json writes the figures.

  bench/cli_bench.py --build build --events 10000000

With --baseline BUILD it instead runs the tband of another build (the code
before a change) and this one alternately on the same trace, and reports both
side by side with the load average of every run, on the built-in mix and on
the user-event mix:

  bench/cli_bench.py --build build --baseline /tmp/tband-base/build --events 10000000 --runs 9
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIME = "/usr/bin/time"  # GNU time, Debian package "time"

TARGETS = {
    "conversion_events_per_s": 20e6,
    "conversion_peak_rss_mb": 100,
    "perfetto_bytes_per_event": 30,
    "decode_events_per_s": 40e6,
    "user_decode_events_per_s": 20e6,  # issue 11
    "user_conversion_events_per_s": 10e6,
    "stats_events_per_s": 15e6,  # issue 12
    "stats_peak_rss_mb": 50,
}
SMALLER_IS_BETTER = ("conversion_peak_rss_mb", "perfetto_bytes_per_event", "stats_peak_rss_mb")


def load_average():
    """The 1-minute load average now (the machine is shared: say how busy it was)."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_once(cmd, stdout_path=os.devnull, stdin_path=None):
    """One run: wall seconds, CPU seconds (user + system), peak RSS in MB, and
    the load average just before it. stdin_path, if given, is fed on stdin."""
    load = load_average()
    with (tempfile.NamedTemporaryFile("r") as rss_file, open(stdout_path, "wb") as out,
          open(stdin_path or os.devnull, "rb") as stdin):
        start = time.perf_counter()
        proc = subprocess.run([TIME, "-f", "%U %S %M", "-o", rss_file.name, *map(str, cmd)],
                              stdin=stdin, stdout=out, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr.decode(errors='replace')}")
        user, system, kb = rss_file.read().split()[-3:]
    return {"wall_s": wall, "cpu_s": float(user) + float(system), "peak_rss_mb": int(kb) / 1024, "load": load}


def measure(cmd, runs, stdout_path=os.devnull):
    """Median wall seconds and max peak RSS (MB) over runs, after one warm-up.
    Peak RSS comes from GNU time (a forked Python child would report Python's
    own memory until exec)."""
    results = [run_once(cmd, stdout_path) for _ in range(runs + 1)][1:]  # the first run warms the page cache
    walls = [r["wall_s"] for r in results]
    return (statistics.median(walls), max(r["peak_rss_mb"] for r in results), walls,
            statistics.median(r["cpu_s"] for r in results))


def side_by_side(args):
    """The previous code (--baseline BUILD) and this build, run alternately on
    the same traces (the benchmark mix, and its user-event version read with
    the lab descriptor), each run with the load average next to it:
    wall-clock and CPU-time events/s, peak RSS. Medians per command and binary."""
    new_tband = Path(args.build) / "host/cli/tband"
    base_tband = Path(args.baseline) / "host/cli/tband"
    make_trace = Path(args.build) / "tools/tband_make_trace"
    descriptor = Path(args.build) / "generated_lab/descriptor/tband_schema.json"
    with tempfile.TemporaryDirectory(prefix="tband_bench_") as tmp:
        tmp = Path(tmp)
        trace, user_trace = tmp / "mix.bin", tmp / "user_mix.bin"
        subprocess.run([make_trace, "mix", str(args.events), trace], check=True)
        subprocess.run([make_trace, "user-mix", str(args.events), user_trace], check=True)
        n = args.events + 4  # the mix and its four metadata events
        user_n = args.events + 2  # after schema_id and ts_resolution_ns

        def conv(tband, out, *extra, schema=False, source=trace):
            return [tband, "conv", *(["--schema", descriptor] if schema else []), *extra, source, "-o", out,
                    "--no-progress"]

        # (command, binary, argv, output to compare within its group, events, group)
        commands = [
            ("decode only (dump --stats)", "base", [base_tband, "dump", "--stats", trace], None, n, None),
            ("decode only (dump --stats)", "new", [new_tband, "dump", "--stats", trace], None, n, None),
            ("conversion (conv -o)", "base", conv(base_tband, tmp / "b.pftrace"), tmp / "b.pftrace", n, "mix"),
            ("conversion (conv -o)", "new", conv(new_tband, tmp / "n.pftrace"), tmp / "n.pftrace", n, "mix"),
            ("conversion (conv -o)", "new, --threads 1", conv(new_tband, tmp / "n1.pftrace", "--threads", "1"),
             tmp / "n1.pftrace", n, "mix"),
            ("conversion (conv -o)", "new, --threads 2", conv(new_tband, tmp / "n2.pftrace", "--threads", "2"),
             tmp / "n2.pftrace", n, "mix"),
            ("user events: decode only", "base", [base_tband, "dump", "--stats", "--schema", descriptor, user_trace],
             None, user_n, None),
            ("user events: decode only", "new", [new_tband, "dump", "--stats", "--schema", descriptor, user_trace],
             None, user_n, None),
            ("user events: conversion", "base", conv(base_tband, tmp / "ub.pftrace", schema=True, source=user_trace),
             tmp / "ub.pftrace", user_n, "user"),
            ("user events: conversion", "new", conv(new_tband, tmp / "un.pftrace", schema=True, source=user_trace),
             tmp / "un.pftrace", user_n, "user"),
            ("user events: conversion", "new, --threads 1",
             conv(new_tband, tmp / "un1.pftrace", "--threads", "1", schema=True, source=user_trace),
             tmp / "un1.pftrace", user_n, "user"),
        ]
        for cmd in (c[2] for c in commands):  # warm-up: the traces in the page cache, outputs created
            run_once(cmd)
        same = True
        for group in ("mix", "user"):
            outputs = [c[3] for c in commands if c[5] == group]
            same &= all(out.read_bytes() == outputs[0].read_bytes() for out in outputs[1:])
        runs = {(name, who): [] for name, who, *_ in commands}
        events = {(name, who): count for name, who, _, _, count, _ in commands}
        for _ in range(args.runs):  # alternately, so that both see the same load
            for name, who, cmd, *_ in commands:
                runs[(name, who)].append(run_once(cmd))

    print(f"{args.events:,} events of the benchmark mix ({n:,} with metadata) and of its user-event version "
          f"({user_n:,}); {args.runs} runs of each command, alternating; medians (and range) per command\n")
    print("| Command | Binary | Wall M events/s | CPU M events/s | Wall | CPU (user+sys) | Peak RSS | Load average |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    figures = {"events": n, "user_events": user_n, "identical_output": same, "rows": []}
    for (name, who), rs in runs.items():
        count = events[(name, who)]
        walls = sorted(r["wall_s"] for r in rs)
        cpus = [r["cpu_s"] for r in rs]
        loads = [r["load"] for r in rs]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        cpu_rate = count / cpu if cpu > 0 else float("inf")  # GNU time counts in 10 ms steps
        row = {"command": name, "binary": who, "events": count, "wall_s": wall, "cpu_s": cpu,
               "wall_events_per_s": count / wall, "cpu_events_per_s": cpu_rate,
               "peak_rss_mb": max(r["peak_rss_mb"] for r in rs), "load_min": min(loads), "load_max": max(loads),
               "runs": rs}
        figures["rows"].append(row)
        print(f"| {name} | {who} | {count / wall / 1e6:.1f} ({count / walls[-1] / 1e6:.1f}-{count / walls[0] / 1e6:.1f}) "
              f"| {cpu_rate / 1e6:.1f} | {wall:.3f} s | {cpu:.3f} s | {row['peak_rss_mb']:.1f} MB "
              f"| {min(loads):.2f}-{max(loads):.2f} |")
    print(f"\nPerfetto output byte for byte the same (base and new, each trace): {'yes' if same else 'NO'}")
    print("\nEach run, in order (load average before it):")
    for i in range(args.runs):
        cells = []
        for (name, who), rs in runs.items():
            r = rs[i]
            cells.append(f"{name}/{who}: {events[(name, who)] / r['wall_s'] / 1e6:.1f} M/s @ {r['load']:.2f}")
        print(f"  run {i + 1}: " + "; ".join(cells))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if same else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="CMake build directory")
    ap.add_argument("--events", type=int, default=10_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--babeltrace-runs", type=int, default=3)
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    ap.add_argument("--baseline", metavar="BUILD",
                    help="another build (the previous code): run its tband and this one alternately on the same "
                         "trace, decode only and conversion, with the load average of each run")
    args = ap.parse_args()
    if args.baseline:
        return side_by_side(args)

    build = Path(args.build)
    tband = build / "host/cli/tband"
    make_trace = build / "tools/tband_make_trace"
    descriptor = build / "generated_lab/descriptor/tband_schema.json"
    babeltrace = shutil.which("babeltrace2")
    with tempfile.TemporaryDirectory(prefix="tband_bench_") as tmp:
        tmp = Path(tmp)
        trace, ctf, pftrace = tmp / "mix.bin", tmp / "ctf", tmp / "mix.pftrace"
        user_trace, user_pftrace = tmp / "user_mix.bin", tmp / "user_mix.pftrace"
        subprocess.run([make_trace, "mix", str(args.events), trace], check=True)
        subprocess.run([make_trace, "user-mix", str(args.events), user_trace], check=True)
        subprocess.run([make_trace, "ctf-mix", str(args.events), ctf], check=True)
        n = args.events + 4  # the mix and its four metadata events (resolution, three names)
        in_mb = trace.stat().st_size / 1e6

        rows = {}
        def add(name, cmd, events, runs, stdout_path=os.devnull, input_mb=None):
            wall, rss, walls, cpu = measure(cmd, runs, stdout_path)
            rows[name] = {"command": " ".join(map(str, cmd)), "median_s": wall, "runs_s": walls, "cpu_s": cpu,
                          "events_per_s": events / wall, "peak_rss_mb": rss,
                          "input_mb_per_s": (input_mb / wall) if input_mb else None}

        add("tband dump --stats (decode only)", [tband, "dump", "--stats", trace], n, args.runs, input_mb=in_mb)
        add("tband conv -o (Perfetto)", [tband, "conv", trace, "-o", pftrace, "--no-progress"], n, args.runs,
            input_mb=in_mb)
        out_bytes = pftrace.stat().st_size
        user_n = args.events + 2  # after schema_id and ts_resolution_ns
        user_mb = user_trace.stat().st_size / 1e6
        add("user events: dump --stats --schema", [tband, "dump", "--stats", "--schema", descriptor, user_trace],
            user_n, args.runs, input_mb=user_mb)
        add("user events: conv --schema -o", [tband, "conv", "--schema", descriptor, user_trace, "-o", user_pftrace,
                                             "--no-progress"], user_n, args.runs, input_mb=user_mb)
        user_out_bytes = user_pftrace.stat().st_size
        add("tband stats (statistics)", [tband, "stats", "--no-progress", trace], n, args.runs, input_mb=in_mb)
        add("tband dump (text lines)", [tband, "dump", trace], n, args.runs, input_mb=in_mb)
        if babeltrace:
            ctf_mb = sum(p.stat().st_size for p in ctf.iterdir()) / 1e6
            count = subprocess.run(
                [babeltrace, "run", "--component=src:source.ctf.fs", f"--params=inputs=[\"{ctf}\"]",
                 "--component=sink:sink.utils.counter", "--connect=src:sink"],
                capture_output=True, text=True, check=True).stdout
            if f"{args.events} Event messages" not in " ".join(count.split()):
                sys.exit(f"babeltrace2 does not see {args.events} events in the CTF trace:\n{count}")
            add("babeltrace2 CTF -> dummy sink", [babeltrace, "run", "--component=src:source.ctf.fs",
                f"--params=inputs=[\"{ctf}\"]", "--component=sink:sink.utils.dummy", "--connect=src:sink"],
                args.events, args.babeltrace_runs, input_mb=ctf_mb)
            add("babeltrace2 CTF -> text", [babeltrace, str(ctf)], args.events, args.babeltrace_runs, input_mb=ctf_mb)
        else:
            print("note: babeltrace2 not installed (apt-get install babeltrace2): no comparison", file=sys.stderr)

    print(f"{args.events:,} events of the benchmark mix, {in_mb:.1f} MB ({in_mb * 1e6 / n:.2f} bytes/event); "
          f"medians of {args.runs} runs (babeltrace2: {args.babeltrace_runs})\n")
    print(f"| {'command':34} | {'median':>8} | {'M events/s':>10} | {'input MB/s':>10} | {'peak RSS':>9} "
          f"| {'CPU (user+sys)':>14} |")
    print(f"|{'-' * 36}|{'-' * 10}|{'-' * 12}|{'-' * 12}|{'-' * 11}|{'-' * 16}|")
    for name, r in rows.items():
        mbps = f"{r['input_mb_per_s']:.0f}" if r["input_mb_per_s"] else "-"
        print(f"| {name:34} | {r['median_s']:7.3f}s | {r['events_per_s'] / 1e6:10.2f} | {mbps:>10} | "
              f"{r['peak_rss_mb']:6.1f} MB | {r['cpu_s']:13.2f}s |")
    decode = rows["tband dump --stats (decode only)"]
    conv = rows["tband conv -o (Perfetto)"]
    user_decode = rows["user events: dump --stats --schema"]
    user_conv = rows["user events: conv --schema -o"]
    figures = {
        "events": n,
        "input_bytes_per_event": in_mb * 1e6 / n,
        "decode_events_per_s": decode["events_per_s"],
        "conversion_events_per_s": conv["events_per_s"],
        "conversion_peak_rss_mb": conv["peak_rss_mb"],
        "perfetto_bytes_per_event": out_bytes / n,
        "user_decode_events_per_s": user_decode["events_per_s"],
        "user_conversion_events_per_s": user_conv["events_per_s"],
        "user_input_bytes_per_event": user_mb * 1e6 / user_n,
        "user_perfetto_bytes_per_event": user_out_bytes / user_n,
        "user_vs_builtin_decode": user_decode["events_per_s"] / decode["events_per_s"],
        "user_vs_builtin_conversion": user_conv["events_per_s"] / conv["events_per_s"],
        "stats_events_per_s": rows["tband stats (statistics)"]["events_per_s"],
        "stats_peak_rss_mb": rows["tband stats (statistics)"]["peak_rss_mb"],
        "rows": rows,
    }
    print(f"\nPerfetto output: {out_bytes / 1e6:.1f} MB, {out_bytes / n:.2f} bytes/event")
    print(f"User events (run-time schema): {figures['user_input_bytes_per_event']:.2f} bytes/event in, "
          f"{figures['user_perfetto_bytes_per_event']:.2f} bytes/event of Perfetto; in this run user / built-in = "
          f"{figures['user_vs_builtin_decode']:.2f}x decoding, {figures['user_vs_builtin_conversion']:.2f}x converting")
    bt = rows.get("babeltrace2 CTF -> dummy sink")
    if bt:
        figures["decode_vs_babeltrace2"] = decode["events_per_s"] / bt["events_per_s"]
        figures["conversion_vs_babeltrace2"] = conv["events_per_s"] / bt["events_per_s"]
        text = rows["babeltrace2 CTF -> text"]
        figures["dump_text_vs_babeltrace2_text"] = rows["tband dump (text lines)"]["events_per_s"] / text["events_per_s"]
        print(f"Ratios in this run: tband decode-only / babeltrace2 dummy sink = {figures['decode_vs_babeltrace2']:.1f}x; "
              f"tband conversion / babeltrace2 dummy sink = {figures['conversion_vs_babeltrace2']:.1f}x; "
              f"tband dump text / babeltrace2 text = {figures['dump_text_vs_babeltrace2_text']:.1f}x")
    missed = []
    print("\nTargets:")
    for key, target in TARGETS.items():
        value = figures[key]
        ok = value <= target if key in SMALLER_IS_BETTER else value >= target
        unit = "/s" if key.endswith("per_s") else ""
        shown = f"{value / 1e6:.1f} M{unit}" if key.endswith("per_s") else f"{value:.1f}"
        goal = f"{target / 1e6:.0f} M{unit}" if key.endswith("per_s") else f"{target}"
        print(f"  {key}: {shown} (target {'<=' if 'rss' in key or 'bytes' in key else '>='} {goal}) "
              f"{'met' if ok else 'MISSED'}")
        if not ok:
            missed.append(key)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
