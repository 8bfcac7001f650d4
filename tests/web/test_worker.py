"""The page's worker (web/worker.js, web/stager.js) in headless Chromium, both
ways it keeps files: through the browser's private storage (the inputs staged
by the stager, the outputs written as files) and in the tab's memory (a job
with `storage: false`, as `?storage=0` or a browser without that storage
does). One tab, one worker, the jobs one after the other, as the page sends
them, the first after the worker's warm-up: each gives the CLI's .pftrace and
JSON bytes; the storage holds no file of a job that is over, and a scratch
file left by a worker that is gone (a closed tab) is removed while other
files stay."""
import functools
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest

from tests.cli.support import ROOT, TempDir, run
from tests.cli.test_analysis import find_chromium
from tests.web.test_web import WEB_DIR, web_missing

VECTORS = ROOT / "tests/vectors"

# Made before the first job: what a closed tab's worker leaves (its lock is
# gone) and a file of the site's own that is not tband's.
PAGE = """<!doctype html><title>tband worker test</title><script>
const post = (path, body) => fetch(path, {method: 'POST', body});
async function names(root) {
  const all = [];
  for await (const name of root.keys()) all.push(name);
  return all.sort();
}
(async () => {
  const root = await navigator.storage.getDirectory();
  for (const name of ['tband-gone1-1-pftrace', 'tband-gone1-1-in0', 'site-data']) {
    const w = await (await root.getFileHandle(name, {create: true})).createWritable();
    await w.write('left over');
    await w.close();
  }
  const trace = new File([await (await fetch('trace.bin')).blob()], 'trace.bin');
  const worker = new Worker('worker.js');
  const report = {jobs: [], before_first_job: []};
  // The warm-up runs while no job has come: the first job comes after it, as a user's file does.
  await new Promise((resolve) => {
    worker.onmessage = (e) => {
      report.before_first_job.push(e.data);
      if (e.data.type === 'warmed') resolve();
    };
  });
  for (const storage of [true, false]) {
    const done = new Promise((resolve) => {
      worker.onmessage = (e) => { if (e.data.type === 'done') resolve(e.data); };
    });
    worker.postMessage({inputs: [{file: trace, core: 0}], descriptor: null, mode: 'freertos', format: 'auto',
                        json: true, stats: false, storage});
    const msg = await done;
    const job = {storage, exit_code: msg.summary.exit_code, outputs_in: msg.summary.outputs_in,
                 staged_inputs: msg.summary.staged_inputs,
                 parts: msg.outputs.pftrace.map((p) => (p instanceof File ? 'File' : 'ArrayBuffer')),
                 names_after: await names(root)};
    for (const name of ['pftrace', 'json']) {
      await post(`/output?storage=${storage}&name=${name}`, await new Blob(msg.outputs[name]).arrayBuffer());
    }
    report.jobs.push(job);
  }
  post('/report', JSON.stringify(report));
})().catch((e) => post('/report', JSON.stringify({error: String(e)})));
</script>
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.posted[self.path] = body
        self.send_response(204)
        self.end_headers()
        if self.path == "/report":
            self.server.finished.set()


class WebWorkerInChromium(unittest.TestCase):
    # Replaces web/stager.js in the site when set (a subclass's broken stager).
    STAGER = None
    STAGED_INPUTS = 1  # of the job through the storage

    @classmethod
    def setUpClass(cls):
        cls.missing = web_missing()
        cls.chromium = find_chromium()
        if cls.missing is None and cls.chromium is None:
            cls.missing = "no headless browser installed (apt-get install chromium)"
        if cls.missing:
            return
        cls.tmp = TempDir()
        site = cls.tmp / "site"
        site.mkdir()
        for name in ("tband.js", "tband.wasm", "worker.js", "stager.js"):
            if name == "stager.js" and cls.STAGER is not None:
                (site / name).write_text(cls.STAGER)
            else:
                (site / name).symlink_to(WEB_DIR / name)
        shutil.copy(VECTORS / "demo_qemu_uart.bin", site / "trace.bin")
        (site / "worker_test.html").write_text(PAGE)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
        server.posted = {}
        server.finished = threading.Event()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=cls.tmp.path)
        browser = subprocess.Popen(
            [cls.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", f"--user-data-dir={profile}",
             f"http://127.0.0.1:{server.server_address[1]}/worker_test.html"],
            # Its singleton socket's folder goes into ours: killed, it leaves that folder behind.
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=str(cls.tmp.path)))
        try:
            finished = server.finished.wait(180)
        finally:
            browser.kill()
            browser.wait()
            server.shutdown()
            server.server_close()
        if not finished:
            raise AssertionError("the worker test page did not report within 180 s")
        cls.posted = server.posted
        cls.report = json.loads(server.posted["/report"])

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "missing", "x") is None:
            cls.tmp.cleanup()

    def setUp(self):
        if self.missing:
            self.skipTest(self.missing)
        self.assertNotIn("error", self.report)

    def cli_outputs(self):
        native = self.tmp / "native.pftrace"
        native_json = self.tmp / "native.json"
        proc = run(["conv", str(VECTORS / "demo_qemu_uart.bin"), "-o", str(native), "--json", str(native_json)])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return native.read_bytes(), native_json.read_bytes()

    def test_the_warm_up_ran_before_the_first_job_and_showed_nothing(self):
        # worker.js converts a built-in trace 20 times while it waits (host/web/warm_up.cpp): every
        # round succeeded, and the page got no progress of them, only the one message that says so.
        self.assertEqual(self.report["before_first_job"], [{"type": "warmed", "rounds": 20}])

    def test_both_ways_give_the_cli_bytes(self):
        pftrace, json_bytes = self.cli_outputs()
        for storage in ("true", "false"):
            with self.subTest(storage=storage):
                self.assertEqual(self.posted[f"/output?storage={storage}&name=pftrace"], pftrace)
                self.assertEqual(self.posted[f"/output?storage={storage}&name=json"], json_bytes)

    def test_each_job_keeps_its_outputs_where_it_says(self):
        stored, in_memory = self.report["jobs"]
        self.assertEqual((stored["exit_code"], stored["outputs_in"], stored["parts"]), (0, "storage", ["File"]))
        self.assertEqual(stored["staged_inputs"], self.STAGED_INPUTS)
        self.assertEqual(in_memory["staged_inputs"], 0)
        self.assertEqual((in_memory["exit_code"], in_memory["outputs_in"]), (0, "memory"))
        self.assertTrue(in_memory["parts"] and set(in_memory["parts"]) == {"ArrayBuffer"})

    def test_the_storage_holds_only_what_a_live_job_needs(self):
        stored, in_memory = self.report["jobs"]
        # After the first job: its two outputs (the page may still download them), the
        # site's own file; not its staged input, not the files of the worker that is gone.
        tband_files = [n for n in stored["names_after"] if n.startswith("tband-")]
        self.assertEqual(sorted(n.rsplit("-", 1)[1] for n in tband_files), ["json", "pftrace"], stored["names_after"])
        self.assertNotIn("tband-gone1-1-pftrace", stored["names_after"])
        self.assertIn("site-data", stored["names_after"])
        # The second job, in memory, removed the first one's files.
        self.assertEqual(in_memory["names_after"], ["site-data"])


class WebWorkerWithAStagerThatNeverStarts(WebWorkerInChromium):
    """A stager that never answers (a browser that does not start the nested
    worker) costs the job a bounded wait, not the job: the worker reads the
    input from the File itself, and every check above still holds."""
    STAGER = "onmessage = () => {};  // never says it started, never copies\n"
    STAGED_INPUTS = 0


if __name__ == "__main__":
    unittest.main()
