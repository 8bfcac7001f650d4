"""Helpers for the live view tests (`tband record --view`): the view's URL
from stderr, headless Chromium on it, clients that read the event stream,
stop reading or never read, and the figures the page shows (its data-figure
attributes) next to `tband stats --json` on the finished file."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.request

from .recording import TIMEOUT, wait_for
from .test_analysis import CHROMIUM_FLAGS, find_chromium  # noqa: F401 (find_chromium: for the view tests)


def view_url(recording) -> str:
    recording.wait_for_message("live view at ")
    return re.search(r"live view at (http://\S+)", recording.stderr()).group(1)


def viewers(url: str) -> int:
    with urllib.request.urlopen(url + "viewers", timeout=TIMEOUT) as r:
        return int(r.read())


def wait_for_viewers(url: str, count: int, recording) -> None:
    wait_for(lambda: viewers(url) >= count, f"{count} viewers of the live view", process=recording)


def chromium(browser: str, profile: str, url: str, *args: str) -> subprocess.Popen:
    """Headless Chromium on the view. With a virtual time budget it waits for
    the event stream to end (the recording's end) before it dumps or shoots,
    so what it shows is the final snapshot, whatever the machine's speed."""
    # TMPDIR beside the profile: the singleton socket's folder a killed browser leaves goes with the test's.
    return subprocess.Popen([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=2000",
                             *args, url], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, TMPDIR=os.path.dirname(profile)))


class StalledClient:
    """Sends GET /events and never reads a byte."""

    def __init__(self, url: str):
        host, port = re.match(r"http://([^:/]+):(\d+)/", url).groups()
        self.sock = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())

    def close(self) -> None:
        self.sock.close()


class StreamReader:
    """Reads /events on a thread, keeping the snapshots; stops after `limit`
    snapshots (a client that goes away) or at the stream's end."""

    def __init__(self, url: str, limit: int | None = None):
        self.snapshots: list[dict] = []
        self.limit = limit
        self.done = threading.Event()
        self.response = urllib.request.urlopen(url + "events", timeout=TIMEOUT)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    self.snapshots.append(json.loads(line[6:]))
                    if self.limit is not None and len(self.snapshots) >= self.limit:
                        break
        finally:
            self.response.close()
            self.done.set()

    def wait(self) -> None:
        if not self.done.wait(TIMEOUT):
            raise AssertionError("the event stream did not end")


def page_figures(html: str, scope: str = "total") -> dict[str, float | None]:
    """data-figure -> data-value of the cells in `scope` ("total", "window")."""
    out: dict[str, float | None] = {}
    for name, value in re.findall(rf'data-scope="{scope}" data-figure="([^"]*)" data-value="([^"]*)"', html):
        out[name.replace("&amp;", "&").replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")] = (
            float(value) if value else None)
    return out


def assert_figures_match(test, shown: dict[str, float | None], stats: dict[str, float | None]) -> int:
    """Every figure shown equals the one tband stats gives (the same code; the
    page shows the snapshot's number). Returns how many were compared."""
    compared = 0
    for name, value in shown.items():
        test.assertIn(name, stats, f"page shows {name}, which tband stats does not have")
        if value is None:
            test.assertIsNone(stats[name], name)
            continue
        test.assertAlmostEqual(value, stats[name], delta=1e-9 * max(1.0, abs(stats[name])), msg=name)
        compared += 1
    return compared


def wait_until(condition, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)
