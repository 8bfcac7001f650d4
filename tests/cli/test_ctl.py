"""`tband ctl` against a small fake target: a TCP server that speaks the
control channel (target/README.md, "Control channel"), written here from the
documented bytes: it deframes COBS, checks the CRC-16/CCITT-FALSE, and
answers with ctl_ack events among other trace bytes, or not at all."""

from __future__ import annotations

import os
import pty
import threading
import unittest

from .recording import TIMEOUT, Recording, TraceServer, reserve_port, wait_for
from .support import SchemaEncoder, TempDir, crc16, run

ENCODER = SchemaEncoder()


def cobs_decode(frame: bytes) -> bytes | None:
    out, i = bytearray(), 0
    while i < len(frame):
        code = frame[i]
        if code == 0 or i + code > len(frame):
            return None
        out += frame[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(frame):
            out.append(0)
    return bytes(out)


def ack(cmd: int, status: int, value: int = 0, ts: int = 7) -> bytes:
    return ENCODER.encode({"event": "ctl_ack", "ts": ts, "fields": {"cmd": cmd, "status": status, "value": value}})


def noise() -> bytes:
    return ENCODER.encode({"event": "isr_enter", "ts": 5, "fields": {"isr_id": 2}})


class FakeTarget:
    """Serves one connection: every command frame is checked, recorded in
    `received` (payload without the CRC, or "bad-crc"), and answered by
    `answer(payload)`, the bytes to send back (b"" for silence, None to hang up)."""

    def __init__(self, answer):
        self.server = TraceServer()
        self.answer = answer
        self.received: list = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def source(self) -> str:
        return self.server.source

    def _serve(self) -> None:
        conn = self.server.accept()
        with conn:
            conn.sendall(b"\x12\x34" + noise())  # attached mid-stream: a cut frame, then events
            pending = b""
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                pending += data
                while b"\x00" in pending:
                    frame, pending = pending.split(b"\x00", 1)
                    payload = cobs_decode(frame)
                    if payload is None or len(payload) < 3 or crc16(payload[:-2]) != int.from_bytes(payload[-2:], "big"):
                        self.received.append("bad-crc")
                        continue
                    self.received.append(payload[:-2])
                    reply = self.answer(payload[:-2])
                    if reply is None:
                        return  # hang up
                    conn.sendall(reply)

    def close(self) -> None:
        self.server.close()
        self.thread.join(timeout=TIMEOUT)


def obliging(payload: bytes) -> bytes:
    cmd = payload[0]
    return noise() + ack(cmd, 0, 42 if cmd == 5 else 0) + noise()


class Ctl(unittest.TestCase):
    def ctl(self, target: FakeTarget, *args: str, ack_timeout: str = "30s"):
        """Runs ctl against `target`. Each acknowledgement waits for the fake
        target's thread: `ack_timeout` is long, so a busy machine cannot fail
        a test that expects an answer; the tests that expect none pass 1s."""
        try:
            return run(["ctl", target.source, *args, "--timeout", ack_timeout], timeout=TIMEOUT)
        finally:
            target.close()

    def test_commands_sent_in_order_and_acknowledged(self) -> None:
        target = FakeTarget(obliging)
        result = self.ctl(target, "stop", "metadata", "dropped", "start", "restart", "snapshot", "rejected")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(target.received, [b"\x02", b"\x03", b"\x05", b"\x01", b"\x07", b"\x04", b"\x06"])
        self.assertEqual(result.stdout.decode().splitlines(),
                         ["stop: done", "metadata: done", "dropped: done, 42", "start: done", "restart: done",
                          "snapshot: done", "rejected: done, 0"])

    def test_filter_commands_bytes(self) -> None:
        target = FakeTarget(obliging)
        result = self.ctl(target, "filter -isr 3", "filter +evtmarker 0x1234", "filter -event isr_enter",
                          "filter +event 200", "filter -group key:isr_id", "filter clear")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(target.received, [b"\x0a\x01\x00\x00\x00\x00\x03", b"\x0a\x02\x01\x00\x00\x12\x34",
                                           b"\x08\x04\x00", b"\x08\xc8\x01", b"\x09\x00key:isr_id", b"\x0b"])
        self.assertIn("filter -isr 3: done", result.stdout.decode())

    def test_frame_bytes_are_the_documented_ones(self) -> None:
        # start: COBS(01 F1 D1) 00, as the command table in target/README.md says.
        self.assertEqual(crc16(b"\x01"), 0xF1D1)
        target = FakeTarget(obliging)
        raw: list[bytes] = []
        original = target.answer
        target.answer = lambda payload: (raw.append(payload), original(payload))[1]
        result = self.ctl(target, "start")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(raw, [b"\x01"])

    def test_refusal_is_exit_1_and_says_so(self) -> None:
        target = FakeTarget(lambda payload: ack(payload[0], 1))
        result = self.ctl(target, "stop")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("stop: refused", result.stdout.decode())

    def test_unknown_to_the_target(self) -> None:
        target = FakeTarget(lambda payload: ack(payload[0], 4))
        result = self.ctl(target, "snapshot")
        self.assertEqual(result.returncode, 1)
        self.assertIn("snapshot: unknown to the target", result.stdout.decode())

    def test_silent_target_times_out_with_exit_5(self) -> None:
        target = FakeTarget(lambda payload: noise())
        result = self.ctl(target, "stop", "start", ack_timeout="1s")
        self.assertEqual(result.returncode, 5, result.stderr)
        self.assertIn("stop: no acknowledgement within 1000 ms", result.stderr)
        self.assertEqual(target.received, [b"\x02"], "gives up at the first unanswered command")

    def test_ack_of_another_command_is_not_taken(self) -> None:
        target = FakeTarget(lambda payload: ack(0x05, 0))  # always answers "dropped"
        result = self.ctl(target, "stop", ack_timeout="1s")
        self.assertEqual(result.returncode, 5, result.stderr)

    def test_connection_closed_before_ack_is_exit_3(self) -> None:
        target = FakeTarget(lambda payload: None)
        result = self.ctl(target, "stop")
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assertIn("before the acknowledgement", result.stderr)

    def test_bad_command_is_usage_error_and_sends_nothing(self) -> None:
        for command, message in [("jump", "unknown command 'jump'; expected one of: start, stop"),
                                 ("stop now", "stop takes no arguments"),
                                 ("", "empty command"),
                                 ("filter -isr x", "'x' is no object id"),
                                 ("filter -isr 16777216", "is no object id"),
                                 ("filter -bogus 3", "unknown filter key 'bogus'"),
                                 ("filter -event nosuch", "no event 'nosuch'"),
                                 ("filter -group " + "g" * 29, "longer than 28 bytes"),
                                 ("filter isr 3", "not a filter command")]:
            with self.subTest(command=command):
                result = run(["ctl", "tcp:127.0.0.1:1", command])
                self.assertEqual(result.returncode, 2)
                self.assertIn(message, result.stderr)

    def test_sources_that_carry_no_commands(self) -> None:
        result = run(["ctl", "-", "stop"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("tcp: or serial:", result.stderr)
        result = run(["ctl", "bogus:x", "stop"])
        self.assertEqual(result.returncode, 2)

    def test_nobody_listening_is_exit_3(self) -> None:
        result = run(["ctl", f"tcp:127.0.0.1:{reserve_port(self)}", "stop", "--connect-timeout", "300ms"])
        self.assertEqual(result.returncode, 3)
        self.assertIn("could not connect within 300 ms", result.stderr)


class RecordSend(unittest.TestCase):
    """tband record --send and the interactive command line."""

    def setUp(self) -> None:
        self.tmp = TempDir()
        self.recordings: list[Recording] = []

    def tearDown(self) -> None:
        for r in self.recordings:
            r.kill()
        self.tmp.cleanup()

    def test_send_on_connect_in_order_and_acks_recorded(self) -> None:
        answered = []

        def answer(payload: bytes):
            answered.append(payload)
            return obliging(payload) if len(answered) < 2 else None  # hang up after the second: the end

        target = FakeTarget(answer)
        out = self.tmp / "send.bin"
        rec = Recording([target.source, "-o", out, "--mode", "bare-metal", "--send", "metadata", "--send", "dropped",
                         "--status-interval", "1s"])
        self.recordings.append(rec)
        self.assertEqual(rec.finish(), 0, rec.stderr())
        target.close()
        self.assertEqual(target.received, [b"\x03", b"\x05"])
        self.assertIn("sent 2 command(s)", rec.stderr())
        self.assertIn(ack(3, 0), out.read_bytes(), "the acknowledgement is in the recording")

    def test_bad_send_is_usage_error(self) -> None:
        out = self.tmp / "x.bin"
        result = run(["record", "tcp:127.0.0.1:1", "-o", str(out), "--send", "jump"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--send: unknown command 'jump'", result.stderr)
        result = run(["record", "-", "-o", str(out), "--send", "stop"], stdin=b"")
        self.assertEqual(result.returncode, 2)
        self.assertIn("tcp: or serial: sources only", result.stderr)

    def test_interactive_line_on_a_terminal(self) -> None:
        target = FakeTarget(obliging)
        master, slave = pty.openpty()
        try:
            rec = Recording([target.source, "-o", self.tmp / "i.bin", "--mode", "bare-metal",
                             "--status-interval", "1s"], stdin=slave)
            self.recordings.append(rec)
            rec.wait_for_message("connected")
            os.write(master, b"jump\n")
            rec.wait_for_message("command not sent: unknown command 'jump'")
            os.write(master, b"stop\n")
            wait_for(lambda: target.received == [b"\x02"], "the stop command at the target", process=rec)
            rec.wait_for_message("sent 'stop' to 1 source(s)")
            rec.interrupt()
            self.assertEqual(rec.finish(), 0, rec.stderr())
        finally:
            os.close(master)
            os.close(slave)
            target.close()


if __name__ == "__main__":
    unittest.main()
