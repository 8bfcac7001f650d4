"""`tband serve`'s page in a real browser, and `tband serve --web`.

The page at "/" fetches the trace from the same server and hands it to the
Perfetto UI with the postMessage handshake (window.open, PING until PONG,
then {perfetto: {buffer, title, fileName}}). ui.perfetto.dev is not
reachable from CI: headless Chromium opens a local stand-in instead
(--ui-url), which answers PING with PONG and posts what it was sent back to
this test's server, where the buffer is compared with the file's bytes."""
import http.server
import os
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.parse
import urllib.request

from tests.cli.support import TBAND, run, served_port
from tests.cli.test_analysis import CHROMIUM_FLAGS, find_chromium
from tests.cli.test_cli import CliTestCase

# The stand-in for ui.perfetto.dev: answers PING as the UI does, and records
# the posted trace (POST /record, the buffer as the body).
STAND_IN = b"""<!DOCTYPE html><html><body><p>Perfetto UI stand-in</p><script>
window.addEventListener('message', (event) => {
  if (event.data === 'PING') { event.source.postMessage('PONG', '*'); return; }
  const posted = event.data && event.data.perfetto;
  if (!posted) return;
  const query = new URLSearchParams({title: posted.title, fileName: posted.fileName, origin: event.origin,
                                     arrayBuffer: String(posted.buffer instanceof ArrayBuffer)});
  fetch('/record?' + query, {method: 'POST', body: posted.buffer});
});
</script></body></html>"""


class StandIn:
    """An HTTP server serving STAND_IN and recording the first POST /record."""

    def __init__(self, test):
        self.posted = None
        self.query = None
        self.received = threading.Event()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(STAND_IN)))
                self.end_headers()
                self.wfile.write(STAND_IN)

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if not stand_in.received.is_set():
                    stand_in.posted = body
                    stand_in.query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                    stand_in.received.set()
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        test.addCleanup(lambda: (self.server.shutdown(), self.server.server_close(), thread.join()))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/ui.html"


class ServePage(CliTestCase):
    def setUp(self):
        super().setUp()
        self.chromium = find_chromium()
        if self.chromium is None:
            self.skipTest("no headless browser installed (apt-get install chromium): serve's page not checked")

    def test_the_page_posts_the_trace_to_the_ui_after_ping_pong(self):
        trace = self.tmp / "demo trace.pftrace"  # a space: the served name becomes demo_trace.pftrace
        self.assertExit(run(["conv", str(self.trace("freertos")), "-o", str(trace)]), 0)
        stand_in = StandIn(self)
        server = subprocess.Popen([TBAND, "serve", str(trace), "--port", "0", "--once",
                                   "--ui-url", stand_in.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=self.tmp.path)
        browser = None
        try:
            line = server.stdout.readline().decode()
            port = served_port(line)
            page = line.strip().split(": ", 1)[1]
            self.assertEqual(page, f"http://127.0.0.1:{port}/")
            # A browser that stays open (the debugging port keeps it running)
            # until the stand-in got the trace; pop-ups allowed, as after a click.
            browser = subprocess.Popen([self.chromium, *CHROMIUM_FLAGS, "--disable-popup-blocking",
                                        "--remote-debugging-port=0", f"--user-data-dir={profile}", page],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       env=dict(os.environ, TMPDIR=os.path.dirname(profile)))
            received = stand_in.received.wait(timeout=120)
            # --once: the server stopped after the page fetched the trace.
            self.assertEqual(server.wait(timeout=30), 0)
        finally:
            if browser is not None:
                browser.kill()
                stderr = browser.communicate(timeout=30)[1].decode(errors="replace")
            if server.poll() is None:
                server.kill()
                server.wait()
            server.stdout.close()
            server.stderr.close()
        self.assertTrue(received, f"the stand-in UI got no trace; Chromium said:\n{stderr[-2000:]}")
        self.assertEqual(stand_in.posted, trace.read_bytes())
        self.assertEqual(stand_in.query["arrayBuffer"], ["true"])
        self.assertEqual(stand_in.query["title"], ["demo_trace.pftrace"])
        self.assertEqual(stand_in.query["fileName"], ["demo_trace.pftrace"])
        self.assertEqual(stand_in.query["origin"], [f"http://127.0.0.1:{port}"])


class ServeWeb(CliTestCase):
    """serve --web DIR: the directory's files with their types, nothing else."""

    def fetch(self, url):
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.headers["Content-Type"], response.read()
        except urllib.error.HTTPError as e:
            return e.code, None, b""

    def test_static_files_with_types_and_no_way_out(self):
        site = self.tmp / "site"
        (site / "js").mkdir(parents=True)
        (site / "index.html").write_text("<!DOCTYPE html><title>web</title>")
        wasm = b"\0asm\x01\0\0\0" + bytes(range(256))
        (site / "tband.wasm").write_bytes(wasm)
        (site / "js" / "worker.js").write_text("postMessage(1);")
        (site / "style.css").write_text("body{}")
        (site / "schema.json").write_text("{}")
        (self.tmp / "secret.txt").write_text("not served")
        (site / "escape.txt").symlink_to(self.tmp / "secret.txt")
        proc = subprocess.Popen([TBAND, "serve", "--web", str(site), "--port", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            line = proc.stdout.readline().decode().strip()
            port = served_port(line)
            self.assertEqual(line, f"Web converter: http://127.0.0.1:{port}/")
            base = f"http://127.0.0.1:{port}"
            self.assertEqual(self.fetch(base + "/"),
                             (200, "text/html; charset=utf-8", (site / "index.html").read_bytes()))
            self.assertEqual(self.fetch(base + "/tband.wasm"), (200, "application/wasm", wasm))
            self.assertEqual(self.fetch(base + "/js/worker.js")[:2], (200, "text/javascript; charset=utf-8"))
            self.assertEqual(self.fetch(base + "/style.css")[:2], (200, "text/css; charset=utf-8"))
            self.assertEqual(self.fetch(base + "/schema.json")[:2], (200, "application/json"))
            for path in ("/missing.html", "/../secret.txt", "/%2e%2e/secret.txt", "/js/%2E%2E/%2e%2e/secret.txt",
                         "/..%2fsecret.txt", "/escape.txt", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd"):
                with self.subTest(path=path):
                    self.assertEqual(self.fetch(base + path)[0], 404)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            proc.stdout.close()
            proc.stderr.close()

    def test_usage_errors(self):
        trace = self.tmp / "t.pftrace"
        trace.write_bytes(b"x")
        proc = run(["serve"])
        self.assertExit(proc, 2)
        self.assertIn("give the trace file to serve (or --web", proc.stderr)
        self.assertExit(run(["serve", "--web", str(self.tmp), str(trace)]), 2)
        self.assertExit(run(["serve", "--web", str(self.tmp), "--once"]), 2)
        proc = run(["serve", "--web", str(self.tmp / "missing"), "--port", "0"])
        self.assertExit(proc, 2)
        self.assertIn("not a directory", proc.stderr)


if __name__ == "__main__":
    unittest.main()
