#!/usr/bin/env python3
"""The web converter's worker in headless Chromium with no DevTools client
attached: how fast the page converts for a user, which bench/web_bench.py
cannot show (its driver, page_driver.js, keeps a DevTools session on the tab,
and with it the worker's conversion ran about 10x slower here:
bench/RESULTS.md).

A small page next to the web build (served from a temporary folder holding
links to it) fetches the trace, hands it to worker.js as a File, exactly as
the page does after a drop, and POSTs the worker's summary (its convert_ms:
from the job's start, the module loaded, to its outputs ready, the copies in
the browser's private storage included; and job_ms, from posting the job to
its answer, the module's loading included when it was not loaded yet) back to
this script; then the browser is stopped. The outputs are not kept (the
.pftrace bytes are compared in bench/web_bench.py and tests/web).

By default the job is posted at once, before the worker has loaded the
module: its warm-up (host/web/warm_up.cpp) never runs. With --idle-ms N the
page waits for the warm-up to end and N ms more, as a user who picks the
file a while after the page opened.

  bench/web_chromium_plain.py --web build-web/web --trace /tmp/mix10m.bin --runs 3 [--idle-ms 1000]
"""
import argparse
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from web_bench import chromium_path, load_average  # this folder's engine comparison

PAGE = """<!doctype html><title>tband worker timing</title><script>
(async () => {
  const blob = await (await fetch('trace.bin')).blob();
  const worker = new Worker('worker.js');
  let warmed = null;  // the worker's warm-up rounds, when it said
  const warmUp = new Promise((resolve) => { worker.onmessage = (e) => { if (e.data.type === 'warmed') { warmed = e.data.rounds; resolve(); } }; });
  if (IDLE_MS > 0) {  // a user who picks the file a while after the page opened
    await Promise.race([warmUp, new Promise((resolve) => setTimeout(resolve, 10000))]);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  }
  const posted = performance.now();
  worker.onmessage = (e) => {
    if (e.data.type === 'warmed') warmed = e.data.rounds;
    if (e.data.type !== 'done') return;
    const s = e.data.summary;
    fetch('/result', {method: 'POST', body: JSON.stringify({convert_ms: s.convert_ms, job_ms: performance.now() - posted,
                                                            warmed, exit_code: s.exit_code, events: s.events, outputs_in: s.outputs_in})});
  };
  worker.postMessage({inputs: [{file: new File([blob], 'trace.bin'), core: 0}], descriptor: null,
                      mode: 'freertos', format: 'auto', json: false, stats: false});
})();
</script>
"""


def renderer_peak_bytes(profile):
    """The largest peak resident set (VmHWM) among this browser's renderers: the tab with its workers."""
    peak = 0
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            if "--type=renderer" in cmdline and profile in cmdline:
                for line in (entry / "status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
        except (OSError, ValueError):
            continue
    return peak


def one_run(chromium, site, flags, timeout):
    result = {}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, *args):
            pass

        def do_POST(self):
            result.update(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(204)
            self.end_headers()
            threading.Thread(target=server.shutdown).start()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    profile = tempfile.mkdtemp(prefix="chromium_")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}", *flags,
         f"http://127.0.0.1:{server.server_address[1]}/timing.html"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(timeout, server.shutdown)
    timer.start()
    try:
        server.serve_forever()
        result["tab_peak_bytes"] = renderer_peak_bytes(profile)
    finally:
        timer.cancel()
        browser.kill()
        browser.wait()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)
    if not result:
        sys.exit(f"web_chromium_plain: no answer from the page within {timeout} s")
    if result.get("exit_code") != 0:
        sys.exit(f"web_chromium_plain: the conversion failed: {result}")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--web", type=Path, required=True, help="the built page (tband.js, tband.wasm, worker.js)")
    parser.add_argument("--trace", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for one conversion")
    parser.add_argument("--chromium-flags", default="", help="extra browser flags, space-separated")
    parser.add_argument("--idle-ms", type=int, default=0,
                        help="post the job this long after the worker's warm-up ended (0: at once, before the module loaded)")
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        sys.exit("web_chromium_plain: no chromium (apt-get install chromium)")
    for name in ("tband.js", "tband.wasm", "worker.js"):
        if not (args.web / name).is_file():
            sys.exit(f"web_chromium_plain: {args.web / name} is missing (scripts/build_web.sh)")
    site = Path(tempfile.mkdtemp(prefix="tband_web_plain_"))
    try:
        for name in ("tband.js", "tband.wasm", "worker.js", "stager.js"):
            if (args.web / name).is_file():  # stager.js: not in builds before it
                os.symlink((args.web / name).resolve(), site / name)
        os.symlink(args.trace.resolve(), site / "trace.bin")
        (site / "timing.html").write_text(PAGE.replace("IDLE_MS", str(args.idle_ms)))
        times = []
        for run in range(args.runs):
            load = load_average()
            r = one_run(chromium, site, args.chromium_flags.split(), args.timeout)
            times.append(r["convert_ms"] / 1e3)
            print(f"run {run}: conversion {times[-1]:.2f} s (job posted to done {r['job_ms'] / 1e3:.2f} s, "
                  f"warm-up rounds {r['warmed']}), {r['events']} events, outputs in {r.get('outputs_in', 'memory')}, "
                  f"tab peak RSS {r['tab_peak_bytes'] / 2**20:.0f} MiB, load {load:.1f}", flush=True)
        print(f"median {statistics.median(times):.2f} s")
    finally:
        shutil.rmtree(site, ignore_errors=True)


if __name__ == "__main__":
    main()
