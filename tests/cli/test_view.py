"""`tband record --view`: the live view in headless Chromium while a known
trace is replayed over TCP (the page's figures equal `tband stats --json` on
the finished file, a screenshot is kept), and clients that come late, go
away and come back, or never read, while the file stays equal to the bytes
sent. (The QEMU demo under the view: tests/e2e/test_qemu_view.py.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import unittest
from pathlib import Path

from .recording import Recording, TraceServer
from .support import TBAND, TempDir, make_trace, run
from .test_link import link_trace
from .view_client import (StalledClient, StreamReader, assert_figures_match, chromium, find_chromium, page_figures,
                          view_url, wait_for_viewers, wait_until)


class RecordView(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = TempDir()
        cls.trace_path = cls.tmp / "mix.bin"
        make_trace("mix", 20000, cls.trace_path)  # ISRs, marker spans, a value marker (bare metal)
        cls.trace = cls.trace_path.read_bytes()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def setUp(self) -> None:
        self.cleanup: list = []

    def tearDown(self) -> None:
        for f in reversed(self.cleanup):
            f()

    def start(self, name: str, mode: str = "bare-metal") -> tuple[TraceServer, Recording, Path]:
        server = TraceServer()
        self.cleanup.append(server.close)
        out = self.tmp / name
        rec = Recording([server.source, "-o", out, "--mode", mode, "--status-interval", "1s", "--view"])
        self.cleanup.append(rec.kill)
        return server, rec, out

    def stats(self, path: Path, mode: str = "bare-metal") -> dict:
        result = run(["stats", "--json", "--mode", mode, str(path)])
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)["figures"]

    def test_chromium_shows_the_figures_of_tband_stats(self) -> None:
        browser = find_chromium()
        if browser is None:
            self.skipTest("no headless browser installed (apt-get install chromium): live view not checked")
        server, rec, out = self.start("chromium.bin")
        conn = server.accept(rec)
        url = view_url(rec)
        half = len(self.trace) // 2
        conn.sendall(self.trace[:half])
        dom = chromium(browser, str(self.tmp / "profile1"), url, "--dump-dom")
        shot_path = self.tmp / "live-view.png"
        shot = chromium(browser, str(self.tmp / "profile2"), url, "--window-size=1280,1000",
                        f"--screenshot={shot_path}", "--hide-scrollbars")
        self.cleanup.append(lambda: [p.kill() for p in (dom, shot) if p.poll() is None])
        wait_for_viewers(url, 2, rec)  # both pages are live before the rest arrives
        conn.sendall(self.trace[half:])
        conn.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        html = dom.communicate(timeout=300)[0].decode("utf-8", "replace")
        try:
            shot.communicate(timeout=120)
            shot_taken = True
        except subprocess.TimeoutExpired:
            # As in tests/e2e/test_qemu_view.py: Debian's Chromium sometimes never ends a
            # --screenshot run of a page that streamed (cause not found). The figures come
            # from the DOM run; only the picture is lost, and the run says so.
            shot.kill()
            shot.communicate()
            shot_taken = False
            print(f"screenshot not taken: {browser} did not finish its --screenshot run", file=sys.stderr)
        self.assertEqual(out.read_bytes(), self.trace)

        # The page got updates while recording and the final one.
        self.assertIn('data-ended="true"', html)
        self.assertGreaterEqual(int(re_one(r'data-updates="(\d+)"', html)), 2)
        # ISRs, marker spans, the value plot, the running ISR/task per core.
        figures = page_figures(html)
        self.assertIn("isr.timer.rate", figures)
        self.assertIn("marker.sampling.count", figures)
        self.assertRegex(html, r'data-plot="fifo level" data-points="[1-9]')
        self.assertGreater(int(re_one(r'data-slices="(\d+)"', html)), 10)
        self.assertIn("isr_enter", html)  # the event list
        # Every figure shown equals tband stats on the finished file.
        compared = assert_figures_match(self, figures, self.stats(out))
        self.assertGreaterEqual(compared, 5)
        if not shot_taken:
            return
        self.assertEqual(shot.returncode, 0)
        self.assertGreater(shot_path.stat().st_size, 10000)
        if os.environ.get("TBAND_VIEW_SCREENSHOT"):
            shutil.copy(shot_path, os.environ["TBAND_VIEW_SCREENSHOT"])

    def test_task_load_of_a_freertos_trace(self) -> None:
        browser = find_chromium()
        if browser is None:
            self.skipTest("no headless browser installed (apt-get install chromium): live view not checked")
        trace_path = self.tmp / "freertos.bin"
        make_trace("freertos", trace_path)  # three tasks, a queue, a mutex
        trace = trace_path.read_bytes()
        server, rec, out = self.start("freertos_rec.bin", mode="freertos")
        conn = server.accept(rec)
        url = view_url(rec)
        dom = chromium(browser, str(self.tmp / "profile3"), url, "--dump-dom")
        self.cleanup.append(lambda: dom.kill() if dom.poll() is None else None)
        wait_for_viewers(url, 1, rec)
        conn.sendall(trace)
        conn.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        html = dom.communicate(timeout=300)[0].decode("utf-8", "replace")
        self.assertEqual(out.read_bytes(), trace)
        figures = page_figures(html)
        stats = self.stats(out, "freertos")
        for task in ("IDLE", "sender", "receiver"):
            self.assertIn(f"task.{task}.cpu", figures)
        self.assertAlmostEqual(figures["task.sender.cpu"], 50.0)
        self.assertGreaterEqual(assert_figures_match(self, figures, stats), 6)

    def test_late_gone_and_stalled_clients_do_not_disturb_the_capture(self) -> None:
        server, rec, out = self.start("clients.bin")
        conn = server.accept(rec)
        url = view_url(rec)
        stalled = StalledClient(url)  # sends GET and never reads
        self.cleanup.append(stalled.close)
        first = StreamReader(url, limit=2)  # reads two snapshots and goes away
        wait_for_viewers(url, 1, rec)
        third = len(self.trace) // 3
        conn.sendall(self.trace[:third])
        first.wait()
        self.assertEqual(len(first.snapshots), 2)
        again = StreamReader(url)  # comes back, reads until the end
        conn.sendall(self.trace[third:2 * third])
        late = StreamReader(url)  # connects late
        conn.sendall(self.trace[2 * third:])
        wait_until(lambda: late.snapshots and late.snapshots[-1]["recording"]["bytes"] == len(self.trace),
                   "every byte in the view")
        rec.interrupt()  # SIGINT ends the recording, not the view's threads
        self.assertEqual(rec.finish(), 0, rec.stderr())
        conn.close()
        again.wait()
        late.wait()
        self.assertEqual(out.read_bytes(), self.trace)
        for reader in (again, late):
            final = reader.snapshots[-1]
            self.assertTrue(final["recording"]["ended"])
            self.assertEqual(final["recording"]["bytes"], len(self.trace))
            self.assertIsNone(final["recording"]["link_losses"])  # n/a: the trace has no link integrity
        stats = self.stats(out)
        rows = {r["prefix"]: r["figures"] for r in late.snapshots[-1]["total"]["rows"]}
        self.assertEqual(rows["isr.timer"]["count"], stats["isr.timer.count"])
        self.assertEqual(rows[""]["events"], stats["events"])
        self.assertIn("tband record: recorded", rec.stderr())


    def test_frames_lost_on_the_link_are_shown(self) -> None:
        trace = link_trace()  # link integrity: 3 frames lost, 1 corrupt, 1 sent twice
        server, rec, out = self.start("link.bin")
        conn = server.accept(rec)
        reader = StreamReader(view_url(rec))
        wait_for_viewers(view_url(rec), 1, rec)
        conn.sendall(trace)
        wait_until(lambda: reader.snapshots and reader.snapshots[-1]["recording"]["bytes"] == len(trace),
                   "every byte in the view")
        rec.interrupt()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        conn.close()
        reader.wait()
        self.assertEqual(reader.snapshots[-1]["recording"]["link_losses"], 3)
        self.assertEqual(out.read_bytes(), trace)


class ServeLiveView(unittest.TestCase):
    """`tband serve --live FILE --view`: a file another recorder is still writing."""

    def test_follows_a_growing_file(self) -> None:
        tmp = TempDir()
        self.addCleanup(tmp.cleanup)
        make_trace("mix", 5000, tmp / "mix.bin")
        trace = (tmp / "mix.bin").read_bytes()
        growing = tmp / "growing.bin"
        growing.write_bytes(b"")
        proc = subprocess.Popen([TBAND, "serve", "--live", str(growing), "--view", "--mode", "bare-metal"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.kill() if proc.poll() is None else None)
        line = proc.stderr.readline()
        match = re.search(r"live view at (http://\S+)", line)
        self.assertIsNotNone(match, line)
        url = match.group(1)
        reader = StreamReader(url)
        half = len(trace) // 2
        with open(growing, "ab") as f:
            f.write(trace[:half])
            f.flush()
            wait_until(lambda: reader.snapshots and reader.snapshots[-1]["recording"]["bytes"] == half,
                       "the first half in the view")
            f.write(trace[half:])
            f.flush()
        wait_until(lambda: reader.snapshots[-1]["recording"]["bytes"] == len(trace), "all of it in the view")
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=120)[1]
        self.assertEqual(proc.returncode, 0, err)
        reader.wait()
        final = reader.snapshots[-1]
        self.assertTrue(final["recording"]["ended"])
        self.assertEqual(final["recording"]["mode"], "follow")
        result = run(["stats", "--json", "--mode", "bare-metal", str(growing)])
        stats = json.loads(result.stdout)["figures"]
        rows = {r["prefix"]: r["figures"] for r in final["total"]["rows"]}
        self.assertEqual(rows["isr.timer"]["count"], stats["isr.timer.count"])
        self.assertEqual(rows["marker.sampling"]["count"], stats["marker.sampling.count"])
        self.assertEqual(rows[""]["events"], stats["events"])

    def test_live_and_view_go_together(self) -> None:
        tmp = TempDir()
        self.addCleanup(tmp.cleanup)
        (tmp / "t.bin").write_bytes(b"")
        result = run(["serve", "--live", str(tmp / "t.bin")])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--live and --view go together", result.stderr)


def re_one(pattern: str, text: str) -> str:
    m = re.search(pattern, text)
    if m is None:
        raise AssertionError(f"{pattern} not in the page")
    return m.group(1)


if __name__ == "__main__":
    unittest.main()
