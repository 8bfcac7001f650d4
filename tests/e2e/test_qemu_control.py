"""The control channel end to end: the demo firmware built with it
(demo_control.elf: streaming, commands polled from UART0's receiver) runs
under QEMU with its UART on a TCP chardev that does not wait for a client, so
it streams before anyone listens. `tband record` attaches late and asks for
the names (`--send metadata`), then its interactive line (a pseudo-terminal)
stops and restarts streaming, queries the dropped count, and silences the ADC
interrupt with a run-time filter and lets it back in. Every step waits for the
target's acknowledgement in the recording, never for time."""

from __future__ import annotations

import os
import pty
import subprocess
import unittest

from tests.cli.recording import Recording, reserve_port, wait_for

from . import qemu
from .support import FirmwareTestCase

CTL_ACK, ISR_NAME, ISR_ENTER, TS_RESOLUTION = 0x20, 0x03, 0x04, 0x02
FILTER_OBJECT_OFF, FILTER_OBJECT_ON = 0x19, 0x1A
CMD_FILTER_OBJECT = 0x0A
ISR_TICK, ISR_ADC = 1, 2  # examples/workload/sensor_workload.h


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


def index_of_ack(found: list[bytes], cmd: int, nth: int = 0) -> int | None:
    """Index of the nth (0: first) successful acknowledgement of cmd."""
    for i, frame in enumerate(found):
        if ack_of(frame) == (cmd, 0):
            if nth == 0:
                return i
            nth -= 1
    return None


def isr_entered(frame: bytes) -> int | None:
    """The ISR id of an isr_enter frame."""
    if not frame or frame[0] != ISR_ENTER:
        return None
    try:
        _, at = varint(frame, 1)
        return varint(frame, at)[0]
    except IndexError:
        return None


def object_change(frame: bytes) -> tuple[int, int] | None:
    """(event id, object id) of a filter_object_off/on frame."""
    if not frame or frame[0] not in (FILTER_OBJECT_OFF, FILTER_OBJECT_ON):
        return None
    try:
        _, at = varint(frame, 1)
        return frame[0], varint(frame, at)[0]
    except IndexError:
        return None


class QemuControlTest(FirmwareTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.elf = cls.firmware / "demo_control.elf"
        if not cls.elf.exists():
            raise AssertionError(f"{cls.elf} was not built")

    def test_attach_late_get_names_stop_and_restart(self) -> None:
        port = reserve_port(self)
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

            def isrs_after(ack: int, isr: int) -> int:
                found = recorded()
                return sum(isr_entered(f) == isr for f in found[ack:])

            os.write(master, b"filter -isr 2\n")
            wait_for(lambda: index_of_ack(recorded(), CMD_FILTER_OBJECT) is not None,
                     "the filter command's acknowledgement", process=recording)
            off = index_of_ack(recorded(), CMD_FILTER_OBJECT)
            wait_for(lambda: isrs_after(off, ISR_TICK) >= 200, "tick interrupts while the ADC's is filtered",
                     process=recording)
            os.write(master, b"filter +isr 2\n")
            wait_for(lambda: index_of_ack(recorded(), CMD_FILTER_OBJECT, 1) is not None,
                     "the second filter command's acknowledgement", process=recording)
            on = index_of_ack(recorded(), CMD_FILTER_OBJECT, 1)
            wait_for(lambda: isrs_after(on, ISR_ADC) >= 3, "ADC interrupts after the filter let them in again",
                     process=recording)
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
        # Silenced: between the two filter commands not one ADC interrupt
        # (an ADC interrupt fires every few ticks), and the trace says why.
        off, on = index_of_ack(found, CMD_FILTER_OBJECT), index_of_ack(found, CMD_FILTER_OBJECT, 1)
        self.assertEqual([i for i in range(off, on) if isr_entered(found[i]) == ISR_ADC], [], "ADC traced while filtered")
        self.assertGreater(sum(isr_entered(f) == ISR_ADC for f in found[start:off]), 0, "ADC traced before the filter")
        changes = [object_change(f) for f in found[start:] if object_change(f) is not None]
        self.assertEqual(changes, [(FILTER_OBJECT_OFF, ISR_ADC), (FILTER_OBJECT_ON, ISR_ADC)])
        self.assertLess(max(i for i in range(start, off) if object_change(found[i])), off)


if __name__ == "__main__":
    unittest.main()
