#!/usr/bin/env python3
"""The web converter (issue 27) against the native CLI on the benchmark mix,
in the same run, alternating: `tband conv --threads 1 -o` (native), the
WebAssembly converter under Node (tests/web/tband_node.js --time --no-stats)
and the page in headless Chromium (tests/web/page_driver.js, the worker's
conversion with ?stats=0, so all three write the .pftrace only). Every output
is compared with the native one byte for byte.

In Chromium it also records how the page answers while its worker converts
(the DevTools driver evaluates on the main thread every 50 ms: the slowest
answer) and the tab's peak memory (VmHWM of the renderer process, which holds
the page and its worker).

  bench/web_bench.py --build build --web build-web/web --events 10000000 --runs 3
  bench/web_bench.py --build build --web js-O3=/tmp/a/web --web wasm-O2=/tmp/b/web   # builds side by side
  bench/web_bench.py ... --chromium-flags= --chromium-flags=--js-flags=--no-liftoff  # browser flags side by side

Wall times on a shared machine are noisy: compare the ratios of one run; the
load average is printed with every figure. Not a ctest: a 10 M-event mix
takes minutes in the browser on a busy machine.
"""
import argparse
import filecmp
import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIME = "/usr/bin/time"  # GNU time, Debian package "time"


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def timed(cmd, **kwargs):
    """Runs cmd: (wall s, CPU s, peak RSS MB, load before, stdout)."""
    load = load_average()
    with tempfile.NamedTemporaryFile("r") as rusage:
        start = time.perf_counter()
        proc = subprocess.run([TIME, "-f", "%U %S %M", "-o", rusage.name, *map(str, cmd)], capture_output=True,
                              text=True, **kwargs)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"web_bench: {' '.join(map(str, cmd))} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        user, system, rss = rusage.read().split()[-3:]
    return wall, float(user) + float(system), int(rss) / 1024, load, proc.stdout


def serve(directory):
    handler = functools.partial(type("Quiet", (http.server.SimpleHTTPRequestHandler,),
                                     {"log_message": lambda *a: None}), directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, default=ROOT / "build", help="native build (tband, tband_make_trace)")
    parser.add_argument("--web", action="append", default=[],
                        help="web build folder (tband.js, tband.wasm, the page), NAME=DIR to name it; repeatable")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-chromium", action="store_true", help="Node only")
    parser.add_argument("--chromium-flags", action="append", default=None, metavar="FLAGS",
                        help="run the page once per FLAGS (space-separated browser flags, '' for none), e.g. "
                             "--chromium-flags= --chromium-flags=--js-flags=--no-liftoff")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    webs = {}
    for w in args.web or [str(ROOT / "build-web/web")]:
        name, _, folder = w.rpartition("=")
        webs[name or folder] = Path(folder)
    tband = args.build / "host/cli/tband"
    node = shutil.which("node")
    chromium = None if args.no_chromium else chromium_path()
    if not args.no_chromium and chromium is None:
        sys.exit("web_bench: no chromium (apt-get install chromium), or give --no-chromium")

    tmp = Path(tempfile.mkdtemp(prefix="tband_web_bench_"))
    try:
        trace = tmp / "mix.bin"
        subprocess.run([args.build / "tools/tband_make_trace", "mix", str(args.events), trace], check=True)
        print(f"mix of {args.events} events: {trace.stat().st_size} B; load {load_average():.1f}", flush=True)
        native_out = tmp / "native.pftrace"
        rows = []
        for run in range(args.runs):
            wall, cpu, rss, load, _ = timed([tband, "conv", "--threads", "1", "--no-progress", trace, "-o", native_out])
            rows.append({"run": run, "engine": "native", "build": "", "wall_s": wall, "convert_s": wall, "cpu_s": cpu,
                         "peak_rss_mb": rss, "load": load})
            print(f"run {run} native: {wall:.2f} s (CPU {cpu:.2f} s, {rss:.0f} MB) load {load:.1f}", flush=True)
            for name, web in webs.items():
                out = tmp / "node.pftrace"
                wall, cpu, rss, load, stdout = timed(
                    [node, ROOT / "tests/web/tband_node.js", web, "--time", "--no-stats", "-o", out, trace])
                convert = json.loads(stdout)["convert_ms"] / 1e3
                same = filecmp.cmp(out, native_out, shallow=False)
                rows.append({"run": run, "engine": "node", "build": name, "wall_s": wall, "convert_s": convert,
                             "cpu_s": cpu, "peak_rss_mb": rss, "load": load, "same_bytes": same})
                print(f"run {run} node {name}: conversion {convert:.2f} s (process {wall:.2f} s, CPU {cpu:.2f} s, "
                      f"{rss:.0f} MB) load {load:.1f} same bytes: {same}", flush=True)
                for flags in (args.chromium_flags or [""]) if chromium else []:
                    rows.append(chromium_run(chromium, node, web, trace, native_out, tmp, run, name, flags))
        summary = {}
        for engine, name in {(r["engine"], r["build"]) for r in rows}:
            mine = [r for r in rows if r["engine"] == engine and r["build"] == name]
            summary[f"{engine} {name}".strip()] = statistics.median(r["convert_s"] for r in mine)
        native = summary["native"]
        print("\nmedians of the conversion time (ratio = native / this):")
        for key, seconds in sorted(summary.items()):
            print(f"  {key}: {seconds:.2f} s, {native / seconds:.2f} of native")
        if args.json:
            args.json.write_text(json.dumps({"events": args.events, "rows": rows, "medians_s": summary}, indent=1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def chromium_run(chromium, node, web, trace, native_out, tmp, run, name, flags):
    if flags:
        name = f"{name} {flags}"
    site = serve(web)
    try:
        downloads = tmp / "downloads"
        shutil.rmtree(downloads, ignore_errors=True)
        downloads.mkdir()
        profile = tempfile.mkdtemp(prefix="chromium_", dir=tmp)
        jobs = tmp / "jobs.json"
        jobs.write_text(json.dumps([{"files": [str(trace)], "screenshot": str(tmp / "shot.png")}]))
        load = load_average()
        proc = subprocess.run([node, "--experimental-websocket", ROOT / "tests/web/page_driver.js", chromium, profile,
                               f"http://127.0.0.1:{site.server_address[1]}/index.html?stats=0", downloads, jobs],
                              capture_output=True, text=True, env={**os.environ, "TBAND_PAGE_TIMEOUT_S": "900", "TBAND_CHROMIUM_FLAGS": flags})
        if proc.returncode != 0:
            sys.exit(f"web_bench: page_driver.js failed: {proc.stderr[-2000:]}")
        page = json.loads(proc.stdout)[0]
        if page["state"] != "done":
            sys.exit(f"web_bench: the page did not convert: {page}")
        convert = float(page["summary"]["conversion-time"].split()[0])
        got = downloads / page["downloads"][0]
        same = filecmp.cmp(got, native_out, shallow=False)
        shutil.rmtree(profile, ignore_errors=True)
        print(f"run {run} chromium {name}: conversion {convert:.2f} s (click to summary {page['wait_ms'] / 1e3:.2f} s) "
              f"load {load:.1f}; slowest answer of the page {page['slowest_answer_ms']} ms over {page['probes']} probes; "
              f"tab peak RSS {page['tab_peak_rss_bytes'] / 2**20:.0f} MiB, JS heap {page['heap_bytes'] / 2**20:.0f} MiB; "
              f"same bytes: {same}", flush=True)
        return {"run": run, "engine": "chromium", "build": name, "wall_s": page["wait_ms"] / 1e3, "convert_s": convert,
                "load": load, "slowest_answer_ms": page["slowest_answer_ms"], "probes": page["probes"],
                "tab_peak_rss_mb": page["tab_peak_rss_bytes"] / 2**20, "js_heap_mb": page["heap_bytes"] / 2**20,
                "same_bytes": same}
    finally:
        site.shutdown()


if __name__ == "__main__":
    main()
