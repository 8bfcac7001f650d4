#!/usr/bin/env python3
"""Compressed traces (issue 28): what `tband record --compress` gains and
costs, and what reading a .zst costs `tband conv`.

For each trace (the QEMU demo's UART capture, the FreeRTOS sample of
tband_make_trace, the benchmark mix of --events events):
  ratio    - raw size / the size `tband record - --compress` writes (zstd level
             1 in frames of at most 1 MiB, as recorded live);
  speed    - MB/s of trace compressed per second of one core: raw MB / (CPU
             time of `record --compress` - CPU time of the same `record`
             without it); the rest of record (reading, live decoding) is the same
             in both. Also libzstd alone at levels 1 and 3 (`zstd -b`, one thread);
  conv     - `tband conv` of the raw file and of the .zst, run alternately:
             wall and CPU events/s, peak RSS.
Medians of --runs runs. CPU and peak RSS from GNU time (/usr/bin/time).

    python3 bench/compress_bench.py --build build --demo-elf /path/demo_streaming.elf --events 10000000 --runs 5
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_bench import run_once  # noqa: E402  (the same timing as the CLI benchmark)

QEMU_ARGS = ["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-semihosting-config",
             "enable=on,target=native", "-icount", "shift=5,align=off,sleep=off", "-monitor", "none"]


def per_second(events: int, seconds: float) -> str:
    """M events/s, or a dash when the run was too short for GNU time to see."""
    return f"{events / seconds / 1e6:.1f}" if seconds > 0 else "-"


def zstd_lib_speed(path: Path, level: int) -> tuple[float, float]:
    """(ratio, compression MB/s) of libzstd alone, `zstd -b` on one thread."""
    out = subprocess.run(["zstd", f"-b{level}", "-i3", "-T1", str(path)], capture_output=True, text=True,
                         check=True)
    text = (out.stdout + out.stderr).replace("\r", "\n")
    m = re.findall(r"\(x?([\d.]+)\),\s+([\d.]+) MB/s", text)
    return float(m[-1][0]), float(m[-1][1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--demo-elf", help="the demo firmware (demo_streaming.elf), run under QEMU for its trace")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tband = Path(args.build) / "host/cli/tband"
    make_trace = Path(args.build) / "tools/tband_make_trace"
    with tempfile.TemporaryDirectory(prefix="tband_zbench_") as tmp:
        tmp = Path(tmp)
        traces = []
        if args.demo_elf:
            demo = tmp / "demo.bin"
            subprocess.run([*QEMU_ARGS, "-serial", f"file:{demo}", "-kernel", args.demo_elf], check=True,
                           capture_output=True, timeout=300)
            traces.append(("QEMU demo (UART capture)", demo, "bare-metal"))
        subprocess.run([make_trace, "freertos", tmp / "freertos.bin"], check=True)
        traces.append(("FreeRTOS sample (tband_make_trace freertos)", tmp / "freertos.bin", "freertos"))
        subprocess.run([make_trace, "mix", str(args.events), tmp / "mix.bin"], check=True)
        traces.append((f"benchmark mix, {args.events:,} events", tmp / "mix.bin", "bare-metal"))

        print(f"load average at start: {os.getloadavg()[0]:.2f}\n")
        print("| Trace | Raw | .zst (record --compress) | Ratio | record CPU, raw / --compress | "
              "Compression MB/s (one core) | libzstd -1 | libzstd -3 |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for name, path, mode in traces:
            raw_mb = path.stat().st_size / 1e6
            packed = tmp / (path.stem + ".bin.zst")
            plain, comp = [], []
            for _ in range(args.runs):
                plain.append(run_once([tband, "record", "-", "-o", tmp / "plain.bin", "--quiet", "--mode", mode],
                                      stdin_path=path))
                comp.append(run_once([tband, "record", "-", "-o", tmp / (path.stem + ".bin"), "--compress", "--quiet",
                                      "--mode", mode], stdin_path=path))
            cpu_plain = statistics.median(r["cpu_s"] for r in plain)
            cpu_comp = statistics.median(r["cpu_s"] for r in comp)
            extra = cpu_comp - cpu_plain
            speed = f"{raw_mb / extra:.0f}" if extra > 0.02 else "(too small to time)"
            size = packed.stat().st_size
            l1 = zstd_lib_speed(path, 1)
            l3 = zstd_lib_speed(path, 3)
            print(f"| {name} | {path.stat().st_size:,} B | {size:,} B | {path.stat().st_size / size:.2f}x "
                  f"| {cpu_plain:.2f} s / {cpu_comp:.2f} s | {speed} | {l1[0]:.2f}x, {l1[1]:.0f} MB/s "
                  f"| {l3[0]:.2f}x, {l3[1]:.0f} MB/s |")

        name, path, mode = traces[-1]
        packed = tmp / (path.stem + ".bin.zst")
        events = args.events + 4
        conv = {"raw": [], "zst": []}
        for _ in range(args.runs):  # alternately, so that both see the same load
            for kind, src in (("raw", path), ("zst", packed)):
                conv[kind].append(run_once([tband, "conv", src, "-o", tmp / f"{kind}.pftrace", "--no-progress",
                                         "--mode", mode]))
        same = (tmp / "raw.pftrace").read_bytes() == (tmp / "zst.pftrace").read_bytes()
        print(f"\n`tband conv` of the {name}, raw and .zst alternately, {args.runs} runs, medians:\n")
        print("| Input | Wall | M events/s (wall) | CPU | M events/s (CPU) | Peak RSS |")
        print("| --- | --- | --- | --- | --- | --- |")
        for kind, rs in conv.items():
            wall = statistics.median(r["wall_s"] for r in rs)
            cpu = statistics.median(r["cpu_s"] for r in rs)
            print(f"| {kind} ({(path if kind == 'raw' else packed).stat().st_size / 1e6:.1f} MB) | {wall:.2f} s "
                  f"| {events / wall / 1e6:.1f} | {cpu:.2f} s | {per_second(events, cpu)} "
                  f"| {max(r['peak_rss_mb'] for r in rs):.0f} MB |")
        print(f"\nPerfetto output the same from both: {'yes' if same else 'NO'}; "
              f"load average at the end: {os.getloadavg()[0]:.2f}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
