"""The web converter's page in headless Chromium (tests/web/page_driver.js
over the DevTools protocol): a file set on the input converts in the worker,
the summary shows in the DOM, the downloaded .pftrace is the CLI's bytes, bad
files (empty, random bytes, above the size limit, a JSON that is not a
descriptor) give the CLI's messages while the tab keeps answering, and "Open
in Perfetto" does the PING/PONG handshake with a local stand-in for
ui.perfetto.dev, which records the buffer it was posted. One browser start
for all of it (each start costs CI seconds): the jobs run one after the other
in one tab, the good trace last. Screenshots are kept (TBAND_WEB_ARTIFACTS,
default the build's web-artifacts/)."""
import functools
import random
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path

from tests.cli.support import ROOT, TBAND, TempDir, run
from tests.cli.test_analysis import find_chromium
from tests.web.test_web import NODE, WEB_DIR, web_missing

DRIVER = ROOT / "tests/web/page_driver.js"
VECTORS = ROOT / "tests/vectors"
ARTIFACTS = Path(os.environ.get("TBAND_WEB_ARTIFACTS", WEB_DIR.parent / "web-artifacts"))

# The stand-in for ui.perfetto.dev: answers PING with PONG, then sends what it
# was posted back to its server (POST /received), as the test's record.
STAND_IN = b"""<!doctype html><title>Perfetto stand-in</title><script>
window.addEventListener('message', (e) => {
  if (e.data === 'PING') { e.source.postMessage('PONG', e.origin); return; }
  if (e.data && e.data.perfetto) {
    const p = e.data.perfetto;
    fetch('/received?title=' + encodeURIComponent(p.title) + '&file=' + encodeURIComponent(p.fileName),
          {method: 'POST', body: p.buffer});
  }
});
</script>"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    received = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/received-yet":  # polled by the driver before it closes the browser
            self.send_response(200 if type(self).received else 404)
            self.end_headers()
            return
        if self.path.startswith("/perfetto"):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(STAND_IN)
            return
        super().do_GET()

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received = (self.path, body)
        self.send_response(204)
        self.end_headers()


def serve(directory):
    handler = type("Handler", (_Handler,), {})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler


class WebPageInChromium(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = web_missing()
        cls.chromium = find_chromium()
        if missing is None and cls.chromium is None:
            missing = "no headless browser installed (apt-get install chromium)"
        cls.missing = missing
        if missing:
            return
        cls.site, _ = serve(WEB_DIR)
        # The stand-in on another port: another origin, as ui.perfetto.dev is.
        cls.ui, cls.ui_handler = serve(WEB_DIR)
        cls.tmp = TempDir()
        try:
            cls.pages = cls.drive_all()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "missing", "x") is None:
            cls.site.shutdown()
            cls.ui.shutdown()
            cls.tmp.cleanup()

    @classmethod
    def drive_all(cls):
        tmp = cls.tmp
        (tmp / "empty.bin").write_bytes(b"")
        (tmp / "noise.bin").write_bytes(random.Random(27).randbytes(20000))
        with open(tmp / "big.bin", "wb") as f:
            f.truncate(1 << 30)  # 1 GiB, sparse
        (tmp / "package.json").write_text('{"name": "not a descriptor"}')
        shutil.copy(VECTORS / "demo_qemu_uart.bin", tmp / "demo.bin")
        # Recorded after the target started: the reference trace without its 4-byte ts_resolution_ns frame.
        (tmp / "joined_late.bin").write_bytes((VECTORS / "reference_baremetal.bin").read_bytes()[4:])
        shutil.copy(ROOT / "tests/threadx/vectors/linux_le32.trx", tmp / "threadx_clock.trx")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        cls.jobs = {
            "empty": {"files": [tmp / "empty.bin"], "screenshot": "web-empty.png"},
            "noise": {"files": [tmp / "noise.bin"], "screenshot": "web-noise.png"},
            "big": {"files": [tmp / "big.bin"], "screenshot": "web-big.png"},
            "not_a_descriptor": {"files": [tmp / "demo.bin"], "descriptor": tmp / "package.json",
                                 "screenshot": "web-not-a-descriptor.png"},
            "tick_given": {"files": [tmp / "joined_late.bin"], "settings": {"mode": "bare-metal", "tick": "1000"},
                           "screenshot": "web-tick-given.png"},
            "threadx_tick": {"files": [ROOT / "tests/threadx/vectors/linux_le32.trx"], "settings": {"tick": "1000"},
                             "screenshot": "web-threadx-tick.png"},
            "tick_fraction": {"files": [tmp / "joined_late.bin"], "settings": {"mode": "bare-metal", "tick": "1.5"},
                              "screenshot": "web-tick-fraction.png"},
            # Its own name: the threadx_tick job downloaded linux_le32.pftrace already.
            "threadx_clock": {"files": [tmp / "threadx_clock.trx"],
                              "settings": {"threadx-hz": "2000000"}, "screenshot": "web-threadx-clock.png"},
            # Last: the tab that answered the bad files still converts.
            "demo": {"files": [VECTORS / "demo_qemu_uart.bin"], "perfetto": True, "screenshot": "web-converter.png"},
        }
        ui = f"http://127.0.0.1:{cls.ui.server_address[1]}"
        spec = [{"files": list(map(str, job["files"])), "screenshot": str(ARTIFACTS / job["screenshot"]),
                 **({"descriptor": str(job["descriptor"])} if "descriptor" in job else {}),
                 **({"settings": job["settings"]} if "settings" in job else {}),
                 **({"perfetto": True, "perfetto_received_url": f"{ui}/received-yet"} if job.get("perfetto") else {})}
                for job in cls.jobs.values()]
        (tmp / "jobs.json").write_text(json.dumps(spec))
        profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=tmp.path)
        cls.downloads = tmp / "downloads"
        cls.downloads.mkdir()
        url = (f"http://127.0.0.1:{cls.site.server_address[1]}/index.html"
               f"?perfetto=http://127.0.0.1:{cls.ui.server_address[1]}/perfetto")
        try:
            proc = subprocess.run([NODE, "--experimental-websocket", str(DRIVER), cls.chromium, profile, url,
                                   str(cls.downloads), str(tmp / "jobs.json")], capture_output=True, text=True,
                                  timeout=240, env={"TBAND_PAGE_LOG": "1", **os.environ})
        except subprocess.TimeoutExpired as e:
            raise AssertionError(f"page_driver.js did not finish in 240 s: {e.stderr}") from None
        if proc.returncode != 0:
            raise AssertionError(f"page_driver.js failed ({proc.returncode}): {proc.stderr}")
        return dict(zip(cls.jobs, json.loads(proc.stdout)))

    def setUp(self):
        if self.missing:
            self.skipTest(self.missing)

    def page(self, name):
        page = self.pages[name]
        self.assertTrue((ARTIFACTS / self.jobs[name]["screenshot"]).exists())
        # Each answer is a DevTools round trip through node and the browser, which a loaded machine
        # can stall for seconds; a page that stopped answering would hit the driver's 240 s.
        self.assertLess(page["slowest_answer_ms"], 10000, f"the page did not answer while converting {name}")
        return page

    def assertCliError(self, name, *options):
        """The page shows what `tband conv` prints for the same files, run from their folder."""
        job = self.jobs[name]
        native = subprocess.run([TBAND, "conv", *options, *[f.name for f in job["files"]], "-o", "native.pftrace"],
                                cwd=self.tmp.path, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(native.returncode, 0)
        page = self.page(name)
        self.assertEqual(page["state"], "error", page)
        self.assertEqual(page["error"], f"{native.stderr.strip()} (exit code {native.returncode})")
        return page

    def test_convert_download_and_open_in_perfetto(self):
        trace = VECTORS / "demo_qemu_uart.bin"
        native = self.tmp / "native.pftrace"
        proc = run(["conv", str(trace), "-o", str(native)])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        page = self.page("demo")
        self.assertEqual(page["state"], "done", page)
        self.assertEqual(page["summary"]["events"], "4319")
        self.assertEqual(page["summary"]["tracks"], "9")
        self.assertEqual(page["summary"]["duration"], "499.603 ms")
        # localhost is a secure context: the worker stages the input and writes the outputs in the private storage
        self.assertEqual(page["summary"]["outputs-kept-in"], "the browser's private storage")
        self.assertEqual(page["stats_tables"][0], "Trace")
        cli_stats = run(["stats", str(trace)]).stdout.decode()
        for title in page["stats_tables"]:
            self.assertIn(title, cli_stats)  # the tables `tband stats` prints
        self.assertEqual(page["downloads"], ["demo_qemu_uart.pftrace"])
        self.assertEqual((self.downloads / "demo_qemu_uart.pftrace").read_bytes(), native.read_bytes())
        for _ in range(100):
            if self.ui_handler.received:
                break
            time.sleep(0.1)
        self.assertIsNotNone(self.ui_handler.received, "the stand-in got no trace after PING/PONG")
        self.assertTrue(page.get("perfetto_received"), "the driver closed the browser before the stand-in got the trace")
        path, body = self.ui_handler.received
        self.assertIn("file=demo_qemu_uart.pftrace", path)
        self.assertEqual(body, native.read_bytes())

    def test_the_tick_length_given_on_the_page(self):
        # Mode and tick length set on the page reach the converter: the CLI's bytes with the same options.
        native = self.tmp / "tick.pftrace"
        proc = run(["conv", "--mode", "bare-metal", "--ts-resolution-ns", "1000", str(self.tmp / "joined_late.bin"),
                    "-o", str(native)])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("warning", proc.stderr)
        page = self.page("tick_given")
        self.assertEqual(page["state"], "done", page)
        self.assertEqual(page["summary"]["duration"], "0.040 ms")  # 40 ticks of 1 us
        self.assertEqual(page["diagnostic_kinds"], [])
        self.assertEqual((self.downloads / "joined_late.pftrace").read_bytes(), native.read_bytes())

    def test_a_tick_length_for_a_threadx_buffer_is_a_warning(self):
        # A ThreadX buffer's ticks are set with its clock: the page says what the CLI says, in its own terms.
        trx = ROOT / "tests/threadx/vectors/linux_le32.trx"
        proc = subprocess.run([TBAND, "conv", "--ts-resolution-ns", "1000", trx.name], cwd=trx.parent,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        page = self.page("threadx_tick")
        self.assertEqual(page["state"], "done", page)
        self.assertEqual(len([w for w in proc.stderr.splitlines() if w.startswith("tband conv: warning:")]), 1)
        self.assertEqual(page["warnings"], ["warning: the Tick length has no effect on linux_le32.trx, a ThreadX trace "
                                            "buffer: give its timer's rate as the ThreadX clock"])
        self.assertEqual(self.page("demo")["warnings"], [])

    def test_a_tick_length_that_is_no_whole_number_is_an_error_about_the_field(self):
        # The CLI names its flag (--ts-resolution-ns); the page names the field the number was typed into.
        page = self.page("tick_fraction")
        self.assertEqual(page["state"], "error", page)
        self.assertEqual(page["error"], "tband conv: error: the Tick length is 1.5: give a whole number of "
                                        "nanoseconds from 1 to 3600000000000 (exit code 2)")

    def test_the_threadx_clock_given_on_the_page(self):
        # The ThreadX clock field reaches the converter: the CLI's bytes with --threadx-clock-hz.
        native = self.tmp / "native_threadx_clock.pftrace"
        proc = subprocess.run([TBAND, "conv", "--threadx-clock-hz", "2000000", "threadx_clock.trx", "-o", str(native)],
                              cwd=self.tmp.path, capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        page = self.page("threadx_clock")
        self.assertEqual(page["state"], "done", page)
        self.assertEqual(page["summary"]["duration"], "171.115 ms")  # 342.231 ms at the default 1 MHz
        self.assertEqual(page["warnings"], [])
        self.assertEqual(page["downloads"], ["threadx_clock.pftrace"], page)
        self.assertEqual((self.downloads / "threadx_clock.pftrace").read_bytes(), native.read_bytes())

    def test_the_page_took_the_warm_up_message(self):
        # The worker starts with the page and warms the converter up until the first job comes
        # (web/worker.js); the page takes its 'warmed' message aside, not as a job's answer.
        for name in self.jobs:
            self.assertIn(self.pages[name]["warmed"], [str(n) for n in range(21)], name)

    def test_an_empty_file(self):
        page = self.assertCliError("empty")
        self.assertEqual(page["error"], "tband conv: error: empty.bin: empty input, no trace data (exit code 3)")

    def test_random_bytes(self):
        self.assertCliError("noise")

    def test_a_json_that_is_not_a_descriptor(self):
        page = self.assertCliError("not_a_descriptor", "--schema", "package.json")
        self.assertIn("package.json", page["error"])

    def test_a_file_above_the_limit_is_refused_at_once(self):
        page = self.page("big")
        self.assertEqual(page["state"], "", page)  # never started
        self.assertIn("1.0 GiB of input is above this page's limit of 512.0 MiB", page["error"])
