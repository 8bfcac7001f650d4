"""`tband record`: live capture from TCP servers, pseudo-terminals (the
termios path of serial ports), stdin and growing files; never losing a byte
on SIGINT, rotation at frame boundaries, reconnecting with a recorded gap, a
source that never connects, several sources at once."""

from __future__ import annotations

import os
import subprocess
import termios
import unittest
from pathlib import Path

from .recording import Recording, TraceServer, cut_inside_frame, file_size, frame_ends, reserve_port, wait_for
from .support import TBAND, TempDir, make_trace, run


class RecordTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = TempDir()
        cls.trace_path = cls.tmp / "mix.bin"
        make_trace("mix", 20000, cls.trace_path)
        cls.trace = cls.trace_path.read_bytes()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def setUp(self) -> None:
        self.recordings: list[Recording] = []

    def tearDown(self) -> None:
        for r in self.recordings:
            r.kill()

    def record(self, *args, **kwargs) -> Recording:
        r = Recording(args if "--status-interval" in args else ["--status-interval", "1s", *args], **kwargs)
        self.recordings.append(r)
        return r

    def out(self, name: str) -> Path:
        path = self.tmp / name
        if path.exists():
            path.unlink()
        return path

    def assert_clean_conversion(self, path: Path) -> str:
        result = run(["conv", "--strict", "--mode", "bare-metal", str(path), "-o", str(path) + ".pftrace"])
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stderr


class Tcp(RecordTestCase):
    def test_records_every_byte_until_the_server_closes(self) -> None:
        server = TraceServer()
        out = self.out("tcp.bin")
        rec = self.record(server.source, "-o", out, "--mode", "bare-metal", "--pftrace", self.tmp / "tcp.pftrace")
        conn = server.accept(rec)
        for i in range(0, len(self.trace), 4000):  # a frame straddles most chunks
            conn.sendall(self.trace[i:i + 4000])
        conn.close()
        server.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        self.assertEqual(out.read_bytes(), self.trace)
        err = rec.stderr()
        self.assertIn("connected, recording to", err)
        self.assertIn("end of input after %d bytes" % len(self.trace), err)
        self.assertIn("(the source ended); 20004 events; 0 dropped on the target", err)
        self.assertIn("converted 20004 events", err)
        self.assertGreater((self.tmp / "tcp.pftrace").stat().st_size, 1000)
        # Not a terminal: plain status lines, no carriage returns.
        self.assertNotIn("\r", err)

    def test_sigint_mid_frame_keeps_everything_received(self) -> None:
        server = TraceServer()
        out = self.out("sigint.bin")
        rec = self.record(server.source, "-o", out, "--mode", "bare-metal")
        conn = server.accept(rec)
        cut = cut_inside_frame(self.trace, len(self.trace) // 2)
        conn.sendall(self.trace[:cut])
        rec.wait_for_bytes(out, cut)
        rec.interrupt()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        conn.close()
        server.close()
        self.assertEqual(out.read_bytes(), self.trace[:cut])
        err = rec.stderr()
        self.assertIn("(SIGINT)", err)
        # The live decoder saw the frame cut short, as conv does.
        self.assertIn("truncated end", err)

    def test_sigterm_ends_cleanly(self) -> None:
        server = TraceServer()
        out = self.out("sigterm.bin")
        rec = self.record(server.source, "-o", out, "--quiet")
        conn = server.accept(rec)
        conn.sendall(self.trace[:1000])
        rec.wait_for_bytes(out, 1000)
        rec.proc.terminate()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        conn.close()
        server.close()
        self.assertEqual(out.read_bytes(), self.trace[:1000])
        self.assertIn("(SIGTERM)", rec.stderr())
        self.assertNotIn("connected", rec.stderr())  # --quiet

    def test_reconnect_records_the_gap(self) -> None:
        server = TraceServer()
        out = self.out("gap.bin")
        rec = self.record(server.source, "-o", out, "--reconnect", "--mode", "bare-metal")
        first = server.accept(rec)
        cut = cut_inside_frame(self.trace, len(self.trace) // 3)
        first.sendall(self.trace[:cut])
        rec.wait_for_bytes(out, cut)
        first.close()  # the server restarts (a debugger reset, OpenOCD restarted)
        second = server.accept(rec)
        resume = next(end for end in frame_ends(self.trace) if end > cut + 100)
        second.sendall(self.trace[resume:])
        expected = self.trace[:cut] + b"\0" + self.trace[resume:]
        rec.wait_for_bytes(out, len(expected))
        rec.interrupt()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        second.close()
        server.close()
        self.assertEqual(out.read_bytes(), expected)
        err = rec.stderr()
        self.assertIn("reconnecting", err)
        self.assertIn(f"warning: {server.source}: lost after {cut} bytes (end of input), reconnected after", err)
        self.assertIn("1 gap(s)", err)
        self.assertIn("1 x gap in the capture [capture_gap]", err)
        # The frame the loss cut is one undecodable frame; everything else decodes.
        dumped = run(["dump", "--stats", "--json", str(out)])
        self.assertIn('"decode_errors": 1', dumped.stdout.decode())

    def test_a_server_that_never_answers(self) -> None:
        out = self.out("never.bin")
        rec = self.record(f"tcp:127.0.0.1:{reserve_port(self)}", "-o", out, "--connect-timeout", "300ms")
        self.assertEqual(rec.finish(), 3, rec.stderr())
        self.assertRegex(rec.stderr(), r"error: tcp:127\.0\.0\.1:\d+: could not connect within [\d.]+ s "
                                       r"\(127\.0\.0\.1:\d+: Connection refused\); see --connect-timeout")

    def test_a_server_that_comes_up_late(self) -> None:
        port = reserve_port(self)
        out = self.out("late.bin")
        rec = self.record(f"tcp:127.0.0.1:{port}", "-o", out, "--connect-timeout", "120s")
        rec.wait_for_message("waiting for it")
        server = TraceServer(port)
        conn = server.accept(rec)
        conn.sendall(self.trace[:5000])
        conn.close()
        server.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        self.assertEqual(out.read_bytes(), self.trace[:5000])


class Sources(RecordTestCase):
    def test_stdin(self) -> None:
        out = self.out("stdin.bin")
        result = run(["record", "-", "-o", str(out), "--mode", "bare-metal"], stdin=self.trace)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(out.read_bytes(), self.trace)
        self.assert_clean_conversion(out)

    def test_max_bytes(self) -> None:
        out = self.out("max.bin")
        result = run(["record", "-", "-o", str(out), "--max-bytes", "10k"], stdin=self.trace)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(out.read_bytes(), self.trace[:10240])
        self.assertIn("(--max-bytes reached)", result.stderr)

    def test_duration(self) -> None:
        server = TraceServer()
        out = self.out("duration.bin")
        # Counted from the start, not from the bytes: long enough for a busy machine to send them.
        rec = self.record(server.source, "-o", out, "--duration", "3s")
        conn = server.accept(rec)
        conn.sendall(self.trace[:100])
        self.assertEqual(rec.finish(), 0, rec.stderr())  # ends with the server still connected
        conn.close()
        server.close()
        self.assertEqual(out.read_bytes(), self.trace[:100])
        self.assertIn("(--duration reached)", rec.stderr())

    def test_followed_file(self) -> None:
        growing = self.out("growing.bin")
        out = self.out("followed.bin")
        half = len(self.trace) // 2
        growing.write_bytes(self.trace[:half])
        rec = self.record(f"file:{growing}", "-o", out)
        rec.wait_for_bytes(out, half)
        with growing.open("ab") as f:
            f.write(self.trace[half:])
        rec.wait_for_bytes(out, len(self.trace))
        rec.interrupt()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        self.assertEqual(out.read_bytes(), self.trace)

    def test_several_sources_one_file_per_core(self) -> None:
        make_trace("dualcore", self.tmp / "dc")
        cores = [(self.tmp / "dc0.bin").read_bytes(), (self.tmp / "dc1.bin").read_bytes()]
        servers = [TraceServer(), TraceServer()]
        out = self.out("multi.bin")
        for core in (0, 1):
            self.out(f"multi.core{core}.bin")
        rec = self.record(f"{servers[0].source}@0", f"{servers[1].source}@1", "-o", out,
                          "--mode", "bare-metal", "--pftrace", self.tmp / "multi.pftrace")
        conns = [s.accept(rec) for s in servers]
        # Interleaved, a few bytes at a time from each.
        for i in range(0, max(map(len, cores)), 7):
            for conn, data in zip(conns, cores):
                conn.sendall(data[i:i + 7])
        for conn, server in zip(conns, servers):
            conn.close()
            server.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        for core, data in enumerate(cores):
            self.assertEqual((self.tmp / f"multi.core{core}.bin").read_bytes(), data)
        err = rec.stderr()
        self.assertIn("(every source ended)", err)
        self.assertIn("converted", err)
        conv = run(["conv", "-c", "2", "--mode", "bare-metal", f"{self.tmp / 'multi.core0.bin'}@0",
                    f"{self.tmp / 'multi.core1.bin'}@1"])
        events = conv.stderr.split(" events")[0].split()[-1]
        self.assertIn(f"converted {events} events", err)

    def test_one_output_per_source(self) -> None:
        a, b = self.out("a.bin"), self.out("b.bin")
        growing = self.out("src_b.bin")
        growing.write_bytes(self.trace[:300])
        result = run(["record", "-", f"file:{growing}", "-o", str(a), "-o", str(b), "--duration", "300ms"],
                     stdin=self.trace[:200])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(a.read_bytes(), self.trace[:200])
        self.assertEqual(b.read_bytes(), self.trace[:300])


class Status(RecordTestCase):
    def test_plain_lines_when_not_a_terminal(self) -> None:
        server = TraceServer()
        rec = self.record(server.source, "-o", self.out("status.bin"), "--status-interval", "50ms",
                          "--mode", "bare-metal")
        conn = server.accept(rec)
        conn.sendall(self.trace)
        rec.wait_for_message(f"{len(self.trace) / 1e6:.2f} MB")
        rec.wait_for_message("20004 events")
        conn.close()
        server.close()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        line = next(l for l in rec.stderr().splitlines() if "20004 events (" in l)
        self.assertRegex(line, r"^tband record: [\d.]+ s, [\d.]+ MB \([\d.]+ MB/s\), 20004 events \(\d+/s\), "
                               r"0 dropped, 0 decode errors, last \w+$")

    def test_redrawn_line_on_a_terminal(self) -> None:
        controller, terminal = os.openpty()
        out = self.out("tty_status.bin")
        proc = subprocess.Popen([TBAND, "record", "-", "-o", str(out)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=terminal)
        os.close(terminal)
        proc.stdin.write(self.trace[:1000])
        proc.stdin.flush()
        seen = b""
        while b"\r\x1b[K" not in seen:  # the status line, redrawn in place
            try:
                seen += os.read(controller, 4096)
            except OSError:  # tband ended: the terminal is gone
                break
        self.assertIn(b"\r\x1b[K", seen)
        proc.stdin.close()
        self.assertEqual(proc.wait(timeout=120), 0)
        os.close(controller)
        self.assertEqual(out.read_bytes(), self.trace[:1000])


class Rotation(RecordTestCase):
    def test_parts_end_at_frame_boundaries(self) -> None:
        out = self.out("rot.bin")
        size = 16 * 1024
        result = run(["record", "-", "-o", str(out), "--rotate", "16k"], stdin=self.trace)
        self.assertEqual(result.returncode, 0, result.stderr)
        parts = [out] + [self.tmp / f"rot.{i}.bin" for i in range(1, 1000) if (self.tmp / f"rot.{i}.bin").exists()]
        self.assertGreater(len(parts), 5)
        self.assertEqual(b"".join(p.read_bytes() for p in parts), self.trace)
        for p in parts[:-1]:
            data = p.read_bytes()
            self.assertEqual(data[-1], 0, f"{p.name} ends inside a frame")
            self.assertGreaterEqual(len(data), size)
            # Cut at the first delimiter once the size was reached, no later.
            self.assertNotIn(0, data[size - 1:-1], f"{p.name} went on past a frame boundary")
        for p in parts:
            dumped = run(["dump", "--stats", "--json", str(p)])
            self.assertIn('"decode_errors": 0', dumped.stdout.decode(), p.name)
        self.assertIn(" ".join(str(p) for p in parts), result.stderr)

    def test_parts_left_from_a_longer_recording_are_said(self) -> None:
        out = self.out("again.bin")
        first = run(["record", "-", "-o", str(out), "--rotate", "16k"], stdin=self.trace)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertNotIn("warning", first.stderr)
        earlier = sorted(self.tmp.path.glob("again.*.bin"), key=lambda p: int(p.name.split(".")[1]))
        self.assertGreater(len(earlier), 3)
        # The same -o again, shorter: two parts; the earlier run's others stay, untouched, and are named.
        kept = {p: p.read_bytes() for p in earlier[1:]}
        second = run(["record", "-", "-o", str(out), "--rotate", "16k"], stdin=self.trace[:20000])
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertEqual(b"".join([out.read_bytes(), earlier[0].read_bytes()]), self.trace[:20000])
        for p, data in kept.items():
            self.assertEqual(p.read_bytes(), data)
        self.assertIn(f"tband record: warning: {earlier[1]} to {earlier[-1]} ({len(earlier) - 1} files) are left "
                      f"from an earlier recording: not part of this one, which ends with {earlier[0]}", second.stderr)


class Serial(RecordTestCase):
    """A pseudo-terminal pair stands in for a USB serial adapter: tband opens
    the terminal side as a serial port; the test writes into the other end."""

    def test_termios_set_up_and_the_port_going_away(self) -> None:
        controller, terminal = os.openpty()
        name = os.ttyname(terminal)
        # Cooked mode with echo and CR/LF translation, as a fresh terminal is.
        attrs = termios.tcgetattr(terminal)
        attrs[3] |= termios.ICANON | termios.ECHO
        attrs[1] |= termios.ONLCR | termios.OPOST
        attrs[0] |= termios.ICRNL
        termios.tcsetattr(terminal, termios.TCSANOW, attrs)
        out = self.out("serial.bin")
        rec = self.record(f"serial:{name},baud=921600", "-o", out, "--mode", "bare-metal")
        rec.wait_for_message("connected")
        iflag, oflag, cflag, lflag, ispeed, ospeed, cc = termios.tcgetattr(terminal)
        self.assertEqual((ispeed, ospeed), (termios.B921600, termios.B921600))
        self.assertEqual(lflag & (termios.ICANON | termios.ECHO | termios.ISIG), 0, "raw: no line editing or echo")
        self.assertEqual(iflag & (termios.ICRNL | termios.IXON), 0, "no CR/LF translation, no XON/XOFF")
        self.assertEqual(cflag & termios.CSIZE, termios.CS8)
        self.assertEqual(cflag & (termios.PARENB | termios.CSTOPB | termios.CRTSCTS), 0, "8N1, no flow control")
        # Every byte value, 0x00, 0x0A and 0x0D included, arrives unchanged.
        for i in range(0, len(self.trace), 1000):
            os.write(controller, self.trace[i:i + 1000])
        rec.wait_for_bytes(out, len(self.trace))
        os.close(controller)  # the adapter is unplugged
        os.close(terminal)
        self.assertEqual(rec.finish(), 0, rec.stderr())
        self.assertEqual(out.read_bytes(), self.trace)
        self.assertRegex(rec.stderr(), rf"serial:{name},baud=921600: .* after {len(self.trace)} bytes")
        self.assert_clean_conversion(out)

    def test_hardware_flow_control_on_request(self) -> None:
        controller, terminal = os.openpty()
        name = os.ttyname(terminal)
        rec = self.record(f"serial:{name},baud=9600,flow=rtscts", "-o", self.out("rtscts.bin"))
        rec.wait_for_message("connected")
        attrs = termios.tcgetattr(terminal)
        self.assertEqual((attrs[4], attrs[5]), (termios.B9600, termios.B9600))
        self.assertEqual(attrs[2] & termios.CRTSCTS, termios.CRTSCTS)
        rec.interrupt()
        self.assertEqual(rec.finish(), 0, rec.stderr())
        os.close(controller)
        os.close(terminal)


class Errors(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = TempDir()

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def assert_error(self, args, status: int, message: str, stdin=b"") -> None:
        result = run(["record", *args], stdin=stdin)
        self.assertEqual(result.returncode, status, result.stderr)
        self.assertIn(message, result.stderr)

    def test_usage(self) -> None:
        out = str(self.tmp / "x.bin")
        self.assert_error(["usb:/dev/x", "-o", out], 2, "'usb:/dev/x': unknown source kind 'usb'; sources are serial:")
        self.assert_error(["trace.bin", "-o", out], 2, "'trace.bin': no source kind; sources are")
        self.assert_error(["serial:/dev/ttyUSB0,baud=12345", "-o", out], 2,
                          "serial:/dev/ttyUSB0,baud=12345: baud rate '12345' is not one termios can set; use one of")
        self.assert_error(["serial:/dev/ttyUSB0,parity=odd", "-o", out], 2, "unknown serial option 'parity=odd'")
        self.assert_error(["tcp:localhost", "-o", out], 2, "expected tcp:HOST:PORT")
        self.assert_error(["tcp:localhost:70000", "-o", out], 2, "port 70000 is not between 1 and 65535")
        self.assert_error(["-", "--rotate", "lots", "-o", out], 2, "--rotate lots: give a size in bytes")
        self.assert_error(["-", "--duration", "soon", "-o", out], 2, "--duration soon: give a duration")
        self.assert_error(["-", "-", "-o", out], 2, "given only once")
        self.assert_error(["tcp:a:1@0", "tcp:b:1@0", "-o", out], 2, "are both core 0")
        self.assert_error(["tcp:a:1", "tcp:b:1", "tcp:c:1", "-o", out, "-o", out], 2, "one -o per source")
        self.assert_error(["-", "--rotate", "1M", "--pftrace", "x.pftrace", "-o", out], 2, "not --rotate parts")
        self.assert_error([f"file:{out}", "-o", out], 2, "is also an output")

    def test_sources_that_cannot_work(self) -> None:
        out = str(self.tmp / "x.bin")
        self.assert_error(["serial:/dev/null", "-o", out], 3, "serial:/dev/null: not a serial port")
        self.assert_error(["serial:/dev/ttyNOPE9", "-o", out, "--connect-timeout", "200ms"], 3,
                          "serial:/dev/ttyNOPE9: could not connect within")
        self.assert_error([f"file:{self.tmp / 'none.bin'}", "-o", out, "--connect-timeout", "200ms"], 3,
                          "could not connect within")
        self.assert_error(["-", "-o", str(self.tmp / "no" / "such" / "dir.bin")], 4, "such does not exist")


if __name__ == "__main__":
    unittest.main()
