"""The web converter's page in headless Chromium (tests/web/page_driver.js
over the DevTools protocol): a file set on the input converts in the worker,
the summary shows in the DOM, the downloaded .pftrace is the CLI's bytes, bad
files give the CLI's messages, and "Open in Perfetto" does the PING/PONG
handshake with a local stand-in for ui.perfetto.dev, which records the buffer
it was posted. A screenshot is kept (TBAND_WEB_ARTIFACTS, default the build's
web-artifacts/)."""
import functools
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

from tests.cli.support import ROOT, TempDir, run
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

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "missing", "x") is None:
            cls.site.shutdown()
            cls.ui.shutdown()

    def setUp(self):
        if self.missing:
            self.skipTest(self.missing)
        self.tmp = TempDir()
        self.addCleanup(self.tmp.cleanup)

    def drive(self, files, perfetto=False, shot="page.png"):
        profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=self.tmp.path)
        downloads = self.tmp / "downloads"
        downloads.mkdir(exist_ok=True)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        url = (f"http://127.0.0.1:{self.site.server_address[1]}/index.html"
               f"?perfetto=http://127.0.0.1:{self.ui.server_address[1]}/perfetto")
        proc = subprocess.run([NODE, "--experimental-websocket", str(DRIVER), self.chromium, profile, url, str(downloads),
                               str(ARTIFACTS / shot), *(["--perfetto"] if perfetto else []), *map(str, files)],
                              capture_output=True, text=True, timeout=240)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue((ARTIFACTS / shot).exists())
        return json.loads(proc.stdout), downloads

    def test_convert_download_and_open_in_perfetto(self):
        trace = VECTORS / "demo_qemu_uart.bin"
        native = self.tmp / "native.pftrace"
        proc = run(["conv", str(trace), "-o", str(native)])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.ui_handler.received = None
        page, downloads = self.drive([trace], perfetto=True, shot="web-converter.png")
        self.assertEqual(page["state"], "done", page)
        self.assertEqual(page["summary"]["events"], "4319")
        self.assertEqual(page["summary"]["tracks"], "9")
        self.assertEqual(page["summary"]["duration"], "499.603 ms")
        self.assertEqual(page["stats_tables"][0], "Trace")
        cli_stats = run(["stats", str(trace)]).stdout.decode()
        for title in page["stats_tables"]:
            self.assertIn(title, cli_stats)  # the tables `tband stats` prints
        self.assertLess(page["slowest_answer_ms"], 2000, "the page did not answer while converting")
        self.assertEqual((downloads / "demo_qemu_uart.pftrace").read_bytes(), native.read_bytes())
        for _ in range(100):
            if self.ui_handler.received:
                break
            time.sleep(0.1)
        self.assertIsNotNone(self.ui_handler.received, "the stand-in got no trace after PING/PONG")
        path, body = self.ui_handler.received
        self.assertIn("file=demo_qemu_uart.pftrace", path)
        self.assertEqual(body, native.read_bytes())

    def test_bad_files_give_the_cli_messages(self):
        (self.tmp / "empty.bin").write_bytes(b"")
        page, _ = self.drive([self.tmp / "empty.bin"], shot="web-empty.png")
        self.assertEqual(page["state"], "error")
        self.assertEqual(page["error"], "tband conv: error: empty.bin: empty input, no trace data (exit code 3)")

    def test_a_file_above_the_limit_is_refused_at_once(self):
        big = self.tmp / "big.bin"
        with open(big, "wb") as f:
            f.truncate(1 << 30)  # 1 GiB, sparse
        page, _ = self.drive([big], shot="web-big.png")
        self.assertEqual(page["state"], "", page)  # never started
        self.assertIn("1.0 GiB of input is above this page's limit of 512.0 MiB", page["error"])
