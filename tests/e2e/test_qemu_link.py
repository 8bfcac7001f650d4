"""Link integrity on QEMU: the demo firmware built with
tband_configLINK_INTEGRITY (demo_streaming_link.elf) streams over a TCP
chardev through a small lossy proxy (seeded) into `tband record`, which must
report exactly the frames the proxy dropped and corrupted.

The proxy works a frame at a time (it splits the bytes at each 0x00): after the
start's frames it drops a frame, or flips one bit of it (never into a 0x00,
never the delimiter), each with probability 1 in 100. It keeps the last 32
frames back until the stream ends and forwards those untouched, so that every
loss has a frame after it (a loss at the very end leaves no gap to see)."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path

from tests.cli.recording import Recording, reserve_port

from . import qemu
from .support import path_from_env, require_qemu_and_firmware

START_FRAMES = 40  # the start's frames (announcement, metadata) pass untouched
HOLD_BACK = 32
RATE = 100  # 1 in RATE frames dropped, 1 in RATE corrupted


class LossyProxy(threading.Thread):
    """Listens on `listen_port` for tband record, then connects to QEMU's
    chardev server on `qemu_port` (QEMU starts the firmware then) and forwards
    what QEMU sends, frame by frame, with faults."""

    def __init__(self, listen_port: int, qemu_port: int, seed: int):
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", listen_port))
        self.qemu_port = qemu_port
        self.rng = random.Random(seed)
        self.dropped = 0
        self.corrupted = 0
        self.frames = 0
        self.error: BaseException | None = None

    def fault(self, frame: bytes) -> bytes | None:
        self.frames += 1
        if self.frames <= START_FRAMES:
            return frame
        roll = self.rng.randrange(RATE * RATE)
        if roll < RATE:
            self.dropped += 1
            return None
        if roll < 2 * RATE:
            data = bytearray(frame)
            at = self.rng.randrange(len(data) - 1)
            bit = self.rng.randrange(8)
            if data[at] ^ (1 << bit) == 0:
                bit = (bit + 1) % 8
            data[at] ^= 1 << bit
            self.corrupted += 1
            return bytes(data)
        return frame

    def run(self) -> None:
        try:
            self.listener.settimeout(300)
            down, _ = self.listener.accept()
            deadline = time.monotonic() + 120
            while True:
                try:
                    up = socket.create_connection(("127.0.0.1", self.qemu_port), timeout=5)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            up.settimeout(300)
            pending, held = b"", []
            while True:
                chunk = up.recv(65536)
                if not chunk:
                    break
                pending += chunk
                *frames, pending = pending.split(b"\x00")
                held.extend(f + b"\x00" for f in frames)
                out = []
                while len(held) > HOLD_BACK:
                    faulted = self.fault(held.pop(0))
                    if faulted is not None:
                        out.append(faulted)
                if out:
                    down.sendall(b"".join(out))
            down.sendall(b"".join(held) + pending)
            up.close()
            down.close()
        except BaseException as e:  # reported by the test
            self.error = e
        finally:
            self.listener.close()


class QemuLinkIntegrityTest(unittest.TestCase):
    def test_record_reports_what_the_lossy_proxy_did(self) -> None:
        firmware = require_qemu_and_firmware()
        elf = firmware / "demo_streaming_link.elf"
        if not elf.exists():
            raise unittest.SkipTest(f"QEMU link test skipped: no {elf.name} in {firmware}")
        cli = path_from_env("TBAND_CLI")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            qemu_port, proxy_port = reserve_port(self), reserve_port(self)
            proxy = LossyProxy(proxy_port, qemu_port, seed=26)
            proxy.start()
            chardev = f"socket,id=uart0,host=127.0.0.1,port={qemu_port},server=on,wait=on"
            emulator = subprocess.Popen(
                [qemu.QEMU, *qemu.BASE_ARGS, "-monitor", "none", "-chardev", chardev, "-serial", "chardev:uart0",
                 "-kernel", str(elf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            live = out / "live.bin"
            recording = Recording([f"tcp:127.0.0.1:{proxy_port}", "-o", live, "--mode", "bare-metal",
                                   "--connect-timeout", "120s"], tband=cli)
            try:
                status = recording.finish(timeout=300)
                self.assertEqual(emulator.wait(timeout=300), 0, "firmware exit status")
                proxy.join(timeout=60)
            finally:
                recording.kill()
                if emulator.poll() is None:
                    emulator.kill()
                    emulator.wait()
                emulator.stderr.close()
            self.assertIsNone(proxy.error)
            err = recording.stderr()
            self.assertEqual(status, 0, err)
            print(f"proxy: {proxy.frames} frames, {proxy.dropped} dropped, {proxy.corrupted} corrupted")
            self.assertGreater(proxy.frames, 2000, "the demo streams enough frames to see faults")
            self.assertGreater(proxy.dropped, 5)
            self.assertGreater(proxy.corrupted, 5)
            match = re.search(r"link: (\d+) frame\(s\) lost, (\d+) corrupt, (\d+) stale", err)
            self.assertIsNotNone(match, err)
            self.assertEqual(int(match.group(1)), proxy.dropped, err)
            self.assertEqual(int(match.group(2)), proxy.corrupted, err)
            self.assertEqual(int(match.group(3)), 0, err)
            # The recording is the proxy's bytes: conv counts the same.
            stats = subprocess.run([str(cli), "stats", "--json", "--mode", "bare-metal", str(live)],
                                   capture_output=True, text=True, timeout=300)
            self.assertEqual(stats.returncode, 0, stats.stderr)
            figures = json.loads(stats.stdout)["figures"]
            self.assertEqual(figures["link.lost_frames"], proxy.dropped)
            self.assertEqual(figures["link.corrupt_frames"], proxy.corrupted)


if __name__ == "__main__":
    unittest.main()
