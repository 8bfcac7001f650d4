#!/usr/bin/env python3
"""What the live view costs `tband record` (issue 29): the same trace sent
over local TCP at --rate MB/s (default 10) to a fresh `tband record` per run,
four ways, interleaved in each repetition so they share the machine's state:
  plain    - no --view;
  view     - --view, nobody watching (the snapshots are still built);
  viewer   - --view with a client reading /events (as a browser does);
  stalled  - --view with a client that sends GET /events and never reads.
For each: the median rate the sender achieved, tband's CPU (user + system from wait4) as % of a
core, and whether the file holds every byte sent (it must).

    python3 bench/view_bench.py --build build --rate 10 --seconds 5 --runs 3
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_bench import serve  # noqa: E402  (the paced sender)


def read_events(url: str, stop: threading.Event, got: list) -> None:
    try:
        with urllib.request.urlopen(url + "events", timeout=60) as r:
            for line in r:
                if line.startswith(b"data: "):
                    got.append(len(line))
                if stop.is_set():
                    return
    except OSError:
        pass  # the recording ended


def one_run(tband: Path, payload: bytes, out: Path, rate: float, how: str) -> dict:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    done: list = []
    args = [str(tband), "record", f"tcp:127.0.0.1:{port}", "-o", str(out), "--quiet", "--mode", "bare-metal"]
    if how != "plain":
        args.append("--view")
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    client = None
    stop = threading.Event()
    got: list = []
    if how != "plain":
        line = proc.stderr.readline()
        url = re.search(r"live view at (http://\S+)", line).group(1)
        if how == "viewer":
            client = threading.Thread(target=read_events, args=(url, stop, got))
            client.start()
        elif how == "stalled":
            host, p = re.match(r"http://([^:/]+):(\d+)/", url).groups()
            client = socket.create_connection((host, int(p)))
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    server = threading.Thread(target=serve, args=(listener, memoryview(payload), rate, done))
    start = time.monotonic()
    server.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    stderr = proc.stderr.read()
    proc.stderr.close()
    server.join()
    listener.close()
    stop.set()
    if isinstance(client, threading.Thread):
        client.join()
    elif client is not None:
        client.close()
    if os.waitstatus_to_exitcode(status) != 0 or out.read_bytes() != payload:
        sys.exit(f"{how}: tband record failed or lost bytes ({out.stat().st_size} of {len(payload)}): {stderr}")
    mb = len(payload) / 1e6
    cpu = usage.ru_utime + usage.ru_stime
    # The sender's rate: a recorder that fell behind would hold it back (TCP's
    # window); the exit comes later with a viewer (it gets the final snapshot,
    # a stalled one delays the exit up to 3 s, the capture not at all).
    return {"mb_per_s": mb / done[0], "cpu_pct": 100 * cpu / wall, "snapshots": len(got),
            "exit_s": wall - done[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", type=Path)
    parser.add_argument("--rate", type=float, default=10, help="MB/s sent")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tband = args.build / "host/cli/tband"
    with tempfile.TemporaryDirectory(prefix="tband_view_bench_") as tmp:
        tmpdir = Path(tmp)
        mb = args.rate * args.seconds
        subprocess.run([str(args.build / "tools/tband_make_trace"), "mix", str(int(mb * 1e6 / 9.92)),
                        str(tmpdir / "mix.bin")], check=True)
        payload = (tmpdir / "mix.bin").read_bytes()
        ways = ("plain", "view", "viewer", "stalled")
        rows: dict[str, list] = {w: [] for w in ways}
        for _ in range(args.runs):
            for w in ways:
                rows[w].append(one_run(tband, payload, tmpdir / f"{w}.bin", args.rate * 1e6, w))
    print(f"{len(payload) / 1e6:.0f} MB at {args.rate:g} MB/s, {args.runs} runs each, medians; every file complete")
    print("| Run | MB/s sent | tband CPU % of a core | snapshots read | end of data to exit (s) |")
    print("| --- | --- | --- | --- | --- |")
    for w in ways:
        r = rows[w]
        print(f"| {w} | {statistics.median(x['mb_per_s'] for x in r):.2f} | "
              f"{statistics.median(x['cpu_pct'] for x in r):.1f} | "
              f"{statistics.median(x['snapshots'] for x in r):.0f} | "
              f"{statistics.median(x['exit_s'] for x in r):.2f} |")


if __name__ == "__main__":
    main()
