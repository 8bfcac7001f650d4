"""The control channel end to end: the demo firmware built with it
(demo_control.elf: streaming, commands polled from UART0's receiver) runs
under QEMU with its UART on a TCP chardev that does not wait for a client, so
it streams before anyone listens. `tband record` attaches late and asks for
the names (`--send metadata`), then its interactive line (a pseudo-terminal)
stops and restarts streaming and queries the dropped count. Every step waits
for the target's acknowledgement in the recording, never for time."""

from __future__ import annotations

import os
import pty
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.cli.recording import Recording, unused_port, wait_for

from . import qemu
from .support import path_from_env, require_qemu_and_firmware

CTL_ACK, ISR_NAME, ISR_ENTER, TS_RESOLUTION = 0x20, 0x03, 0x04, 0x02


def varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        shift += 7
        if not byte & 0x80:
            return value, at


def frames(data: bytes) -> list[bytes]:
    """The COBS frames after the first delimiter (the recording starts mid-stream)."""
    out = []
    for raw in data.split(b"\x00")[1:-1]:
        frame, i = bytearray(), 0
        while i < len(raw):
            code = raw[i]
            frame += raw[i + 1:i + code]
            i += code
            if code < 0xFF and i < len(raw):
                frame.append(0)
        out.append(bytes(frame))
    return out


def ack_of(frame: bytes) -> tuple[int, int] | None:
    """(cmd, status) of a ctl_ack frame."""
    if not frame or frame[0] != CTL_ACK:
        return None
    try:
        _, at = varint(frame, 1)
        cmd, at = varint(frame, at)
        status, _ = varint(frame, at)
    except IndexError:
        return None
    return cmd, status


def index_of_ack(found: list[bytes], cmd: int) -> int | None:
    for i, frame in enumerate(found):
        if ack_of(frame) == (cmd, 0):
            return i
    return None


class QemuControlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        firmware = require_qemu_and_firmware()
        cls.elf = firmware / "demo_control.elf"
        if not cls.elf.exists():
            raise AssertionError(f"{cls.elf} was not built")
        cls.cli = path_from_env("TBAND_CLI")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_attach_late_get_names_stop_and_restart(self) -> None:
        port = unused_port()
        live = self.out / "control.bin"
        chardev = f"socket,id=uart0,host=127.0.0.1,port={port},server=on,wait=off"
        emulator = subprocess.Popen(
            [qemu.QEMU, *qemu.BASE_ARGS, "-monitor", "none", "-chardev", chardev, "-serial", "chardev:uart0",
             "-kernel", str(self.elf)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        master, slave = pty.openpty()
        recording = Recording([f"tcp:127.0.0.1:{port}", "-o", live, "--mode", "bare-metal", "--connect-timeout",
                               "120s", "--send", "metadata", "--status-interval", "1s"], stdin=slave, tband=self.cli)

        def recorded() -> list[bytes]:
            return frames(live.read_bytes()) if live.exists() else []

        def acked(cmd: int) -> bool:
            return index_of_ack(recorded(), cmd) is not None

        try:
            wait_for(lambda: acked(0x03), "the metadata command's acknowledgement", process=recording)
            os.write(master, b"stop\n")
            wait_for(lambda: acked(0x02), "the stop command's acknowledgement", process=recording)
            os.write(master, b"start\n")
            wait_for(lambda: acked(0x01), "the start command's acknowledgement", process=recording)
            wait_for(lambda: sum(f[0] == ISR_ENTER for f in recorded()[index_of_ack(recorded(), 0x01):]) >= 10,
                     "interrupts traced after the restart", process=recording)
            os.write(master, b"dropped\n")
            wait_for(lambda: acked(0x05), "the dropped query's acknowledgement", process=recording)
            recording.interrupt()
            self.assertEqual(recording.finish(timeout=300), 0, recording.stderr())
        finally:
            recording.kill()
            os.close(master)
            os.close(slave)
            emulator.kill()
            emulator.wait()

        found = recorded()
        meta, stop, start = index_of_ack(found, 0x03), index_of_ack(found, 0x02), index_of_ack(found, 0x01)
        self.assertLess(meta, stop)
        self.assertLess(stop, start)
        # The names came again right before the metadata acknowledgement:
        # resolution, core_id, then the names (the ISRs among them).
        burst = found[:meta]
        first_name = max(i for i, f in enumerate(burst) if f[0] == TS_RESOLUTION)
        self.assertGreaterEqual(sum(f[0] == ISR_NAME for f in burst[first_name:]), 2, "both ISRs named")
        # Stopped: between the stop's acknowledgement and the start's
        # metadata (its ts_resolution_ns comes first) only acknowledgements.
        # Events may come right after the metadata, before the start's own
        # acknowledgement: an interrupt can fire once tracing is on again.
        restart = next(i for i in range(stop + 1, start) if found[i][0] == TS_RESOLUTION)
        stopped = [hex(f[0]) for f in found[stop + 1:restart] if f[0] != CTL_ACK]
        self.assertEqual(stopped, [], "events while stopped")
        self.assertTrue(any(f[0] == ISR_NAME for f in found[restart:start]), "start sends the names again")
        self.assertIn("sent 'stop' to 1 source(s)", recording.stderr())


if __name__ == "__main__":
    unittest.main()
