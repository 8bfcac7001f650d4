"""Helpers for the `tband record` tests: a running recording whose stderr is
collected as it comes, and waiting on conditions (file contents, messages)
with generous timeouts instead of sleeping, so a loaded machine only makes
the tests slower, never wrong."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
import unittest
from pathlib import Path

from .support import TBAND

TIMEOUT = 120  # seconds; only reached when something is broken


def wait_for(condition, what: str, timeout: float = TIMEOUT, process: "Recording | None" = None) -> None:
    """Polls condition() until it is true; fails naming `what` (and the
    recording's stderr) after `timeout` seconds or when the recording ended."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and process.proc.poll() is not None and not condition():
            raise AssertionError(f"tband record ended (status {process.proc.returncode}) before {what}:\n"
                                 f"{process.stderr()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}" +
                                 (f"; stderr so far:\n{process.stderr()}" if process else ""))
        time.sleep(0.01)


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


class Recording:
    """`tband record ARGS` in the background."""

    def __init__(self, args, stdin=subprocess.DEVNULL, tband: str = TBAND):
        self.proc = subprocess.Popen([str(tband), "record", *map(str, args)], stdin=stdin, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self._err = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()

    def _collect(self) -> None:
        for line in self.proc.stderr:
            with self._lock:
                self._err.append(line.decode("utf-8", "replace"))

    def stderr(self) -> str:
        with self._lock:
            return "".join(self._err)

    def wait_for_message(self, text: str, timeout: float = TIMEOUT) -> None:
        wait_for(lambda: text in self.stderr(), f"'{text}' on stderr", timeout, self)

    def wait_for_bytes(self, path: Path, size: int, timeout: float = TIMEOUT) -> None:
        wait_for(lambda: file_size(path) >= size, f"{size} bytes in {path.name}", timeout, self)

    def interrupt(self) -> None:
        self.proc.send_signal(signal.SIGINT)

    def finish(self, timeout: float = TIMEOUT) -> int:
        """Waits for the end; returns the exit status (stderr complete)."""
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"tband record did not end; stderr:\n{self.stderr()}")
        self._reader.join(timeout=TIMEOUT)
        self.proc.stderr.close()
        return status

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=TIMEOUT)
        self.proc.stderr.close()


class TraceServer:
    """A TCP server on 127.0.0.1 (a free port) that hands each connection to
    the test, as an RTT server or QEMU's -serial tcp:...,server would serve."""

    def __init__(self, port: int = 0):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]

    @property
    def source(self) -> str:
        return f"tcp:127.0.0.1:{self.port}"

    def accept(self, recording: "Recording | None" = None) -> socket.socket:
        """The next connection; fails early if `recording` ends first."""
        deadline = time.monotonic() + TIMEOUT
        self.listener.settimeout(0.05)
        while True:
            try:
                conn, _ = self.listener.accept()
                conn.settimeout(TIMEOUT)
                return conn
            except TimeoutError:
                if recording is not None and recording.proc.poll() is not None:
                    raise AssertionError(f"tband record ended (status {recording.proc.returncode}) without "
                                         f"connecting:\n{recording.stderr()}") from None
                if time.monotonic() > deadline:
                    raise

    def close(self) -> None:
        self.listener.close()


def reserve_port(test: unittest.TestCase) -> int:
    """A port on 127.0.0.1 that nobody listens on, held until `test` ends.

    The socket stays bound (not listening), so a connection to the port is
    refused and no other process's bind takes it meanwhile: a port that was
    merely free when picked could be another test's by the time it is used.
    It has SO_REUSEADDR, as do the listeners the tests start on it later
    (TraceServer, QEMU's socket chardev, socket.create_server): Linux lets a
    second such socket bind and listen while the first does not listen."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", 0))
    test.addCleanup(holder.close)
    return holder.getsockname()[1]


def frame_ends(data: bytes) -> list[int]:
    """Offsets just after each frame delimiter."""
    return [i + 1 for i, b in enumerate(data) if b == 0]


def cut_inside_frame(data: bytes, near: int) -> int:
    """An offset near `near` that lies inside a frame (not at a boundary)."""
    cut = near
    while data[cut - 1] == 0 or data[cut] == 0:
        cut += 1
    return cut
