"""`tband record --view` on the demo firmware under QEMU (the UART on a TCP
server chardev, as test_qemu_record): headless Chromium opens the view before
the firmware runs and stays until the recording ends; the page shows the
tick ISR at 1 kHz, the ADC ISR, the marker spans and the value plots, and
every figure it shows equals `tband stats --json` on the finished file. The
recording equals what the firmware sent (the chardev's log of the same run).
The screenshot is kept (docs/live-view.png comes from it: set
TBAND_VIEW_SCREENSHOT to a path to copy it there)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unittest

from tests.cli.recording import Recording, reserve_port
from tests.cli.view_client import (assert_figures_match, chromium, find_chromium, page_figures, view_url,
                                   wait_for_viewers)

from . import qemu
from .support import FirmwareTestCase


class QemuViewTest(FirmwareTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.browser = find_chromium()
        if cls.browser is None:
            raise unittest.SkipTest("QEMU tests skipped: no headless browser (apt-get install chromium) for the view")
        super().setUpClass()

    def test_view_of_the_demo_shows_what_tband_stats_says(self) -> None:
        sent = self.out / "sent.bin"
        port = reserve_port(self)
        live = self.out / "live.bin"
        # tband first: it keeps trying until QEMU listens, and the browsers
        # attach to its view before QEMU starts the firmware.
        recording = Recording([f"tcp:127.0.0.1:{port}", "-o", live, "--mode", "bare-metal", "--connect-timeout",
                               "300s", "--view"], tband=self.cli)
        browsers: list[subprocess.Popen] = []
        emulator = None
        try:
            url = view_url(recording)
            shot_path = self.out / "live-view.png"
            browsers.append(chromium(self.browser, str(self.out / "p1"), url, "--dump-dom"))
            browsers.append(chromium(self.browser, str(self.out / "p2"), url, "--window-size=1280,800",
                                     "--hide-scrollbars", f"--screenshot={shot_path}"))
            wait_for_viewers(url, 2, recording)
            chardev = f"socket,id=uart0,host=127.0.0.1,port={port},server=on,wait=on,logfile={sent},logappend=off"
            emulator = subprocess.Popen(
                [qemu.QEMU, *qemu.BASE_ARGS, "-monitor", "none", "-chardev", chardev, "-serial", "chardev:uart0",
                 "-kernel", str(self.firmware / "demo_streaming.elf")],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            status = recording.finish(timeout=300)  # ends when QEMU exits and closes the connection
            self.assertEqual(emulator.wait(timeout=300), 0, "firmware exit status")
            html = browsers[0].communicate(timeout=300)[0].decode("utf-8", "replace")
            try:
                browsers[1].communicate(timeout=60)
            except subprocess.TimeoutExpired:
                # Debian's Chromium 156.0.8078.108 sometimes does not end
                # its --screenshot run after this stream (seen: 2 runs of 4,
                # not ended in 300 s; cause not found). The figures checked
                # below come from the DOM: only the picture is lost, and the
                # run says so.
                browsers[1].kill()
                browsers[1].communicate()
                print(f"screenshot not taken: {self.browser} did not finish its --screenshot run", file=sys.stderr)
        finally:
            recording.kill()
            for p in browsers:
                if p.poll() is None:
                    p.kill()
                    p.communicate()
            if emulator is not None:
                if emulator.poll() is None:
                    emulator.kill()
                    emulator.wait()
                emulator.stderr.close()
        self.assertEqual(status, 0, recording.stderr())
        self.assertEqual(live.read_bytes(), sent.read_bytes(), "live recording differs from what QEMU sent")

        self.assertIn('data-ended="true"', html)
        figures = page_figures(html)
        stats = json.loads(subprocess.run([str(self.cli), "stats", "--json", "--mode", "bare-metal", str(live)],
                                          capture_output=True, text=True, check=True, timeout=300).stdout)["figures"]
        # The tick at 1 kHz, the ADC ISR, the marker spans, as the page shows them.
        self.assertAlmostEqual(figures["isr.tick 1kHz.rate"], 1000, delta=5)
        self.assertGreater(figures["isr.adc ready.rate"], 100)
        # The last complete window (250 ms of trace time) too: 250 ticks, give or take one.
        window = page_figures(html, "window")
        self.assertAlmostEqual(window["isr.tick 1kHz.rate"], 1000, delta=8)
        self.assertEqual(figures["marker.acquire.count"], stats["marker.acquire.count"])
        self.assertGreater(figures["marker.acquire.count"], 10)
        self.assertIn("marker.filter.count", figures)
        for plot in ("fifo level", "filtered", "sequence"):
            self.assertRegex(html, rf'data-plot="{plot}" data-points="[1-9]')
        self.assertGreater(int(re.search(r'data-slices="(\d+)"', html).group(1)), 100)
        # And every figure on the page is tband stats' own.
        self.assertGreaterEqual(assert_figures_match(self, figures, stats), 10)
        if shot_path.exists():
            self.assertGreater(shot_path.stat().st_size, 10000)
        if shot_path.exists() and os.environ.get("TBAND_VIEW_SCREENSHOT"):
            shutil.copy(shot_path, os.environ["TBAND_VIEW_SCREENSHOT"])


if __name__ == "__main__":
    unittest.main()
