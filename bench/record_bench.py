#!/usr/bin/env python3
"""How fast `tband record` takes a trace from a local TCP source, and what it
costs: the CPU time tband spends (user + system, from wait4) per MB recorded.

Two runs per repetition, each a fresh `tband record tcp:127.0.0.1:PORT`:
  flood  - the server sends the trace as fast as the socket takes it: the
           highest rate recording (writing to disk and decoding live) keeps up with;
  paced  - the server sends at --rate MB/s (default 10), as a fast RTT or UART
           link would: CPU % of one core per MB/s at that rate.
The trace is the benchmark mix (tband_make_trace mix), about --mb MB of it,
one continuous trace (repeating a short one would make every repetition's
timestamps go backwards: a diagnostic per event, not what a target sends).

    python3 bench/record_bench.py --build build --mb 200 --runs 5
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def serve(listener: socket.socket, payload: memoryview, rate: float | None, done: list) -> None:
    conn, _ = listener.accept()
    start = time.monotonic()
    block = 256 * 1024
    sent = 0
    with conn:
        while sent < len(payload):
            conn.sendall(payload[sent:sent + block])
            sent += min(block, len(payload) - sent)
            if rate is not None:
                ahead = sent / rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)  # pacing the sender, not synchronising anything
    done.append(time.monotonic() - start)


def one_run(tband: Path, payload: bytes, out: Path, rate: float | None) -> dict:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    done: list = []
    server = threading.Thread(target=serve, args=(listener, memoryview(payload), rate, done))
    server.start()
    start = time.monotonic()
    proc = subprocess.Popen([str(tband), "record", f"tcp:127.0.0.1:{port}", "-o", str(out), "--quiet",
                             "--mode", "bare-metal"], stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode()
    proc.stderr.close()
    server.join()
    listener.close()
    if proc.returncode != 0 or out.stat().st_size != len(payload):
        sys.exit(f"tband record failed ({proc.returncode}, {out.stat().st_size} of {len(payload)} bytes): {stderr}")
    mb = len(payload) / 1e6
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall": wall, "send": done[0], "mb_per_s": mb / wall, "cpu_s": cpu,
            "cpu_pct": 100 * cpu / wall, "cpu_pct_per_mb_s": 100 * cpu / mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", type=Path)
    parser.add_argument("--mb", type=float, default=200, help="MB per flood run (paced runs send --rate x 5 s)")
    parser.add_argument("--rate", type=float, default=10, help="MB/s of the paced runs")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tband = args.build / "host/cli/tband"
    make_trace = args.build / "tools/tband_make_trace"
    with tempfile.TemporaryDirectory(prefix="tband_record_bench_") as tmp:
        tmpdir = Path(tmp)
        events = int(args.mb * 1e6 / 9.92)  # the mix's bytes per event
        subprocess.run([str(make_trace), "mix", str(events), str(tmpdir / "mix.bin")], check=True)
        flood = (tmpdir / "mix.bin").read_bytes()
        paced = flood[:int(args.rate * 5 * 1e6)]
        rows = {"flood": [], "paced": []}
        for _ in range(args.runs):
            rows["flood"].append(one_run(tband, flood, tmpdir / "flood.bin", None))
            rows["paced"].append(one_run(tband, paced, tmpdir / "paced.bin", args.rate * 1e6))
    print(f"| Run | MB | Median MB/s | tband CPU % of a core | CPU % per MB/s |")
    print(f"| --- | --- | --- | --- | --- |")
    for name, payload_mb in (("flood", len(flood) / 1e6), ("paced", len(paced) / 1e6)):
        r = rows[name]
        label = "flood (as fast as possible)" if name == "flood" else f"paced at {args.rate:g} MB/s"
        print(f"| {label} | {payload_mb:.0f} | {statistics.median(x['mb_per_s'] for x in r):.1f} | "
              f"{statistics.median(x['cpu_pct'] for x in r):.1f} | "
              f"{statistics.median(x['cpu_pct_per_mb_s'] for x in r):.2f} |")


if __name__ == "__main__":
    main()
