"""--ts-resolution-ns: the tick length of a trace that does not give its
ts_resolution_ns event (a recording begun after the target started
streaming, a snapshot without tband_gather_system_metadata). Without the
option such a trace reads as 1 ns per tick, with a warning; with it the
times are right and nothing is assumed; a trace that says its resolution
keeps its own."""
import json
import unittest

from .support import ROOT, run
from .test_cli import CliTestCase

REFERENCE_TRACE = ROOT / "tests/vectors/reference_baremetal.bin"
# The reference trace starts with its ts_resolution_ns frame (1 ns per tick), 4 bytes.
RESOLUTION_FRAME = 4


class TsResolution(CliTestCase):
    def setUp(self):
        super().setUp()
        whole = REFERENCE_TRACE.read_bytes()
        events = [json.loads(line) for line in run(["dump", "--json", str(REFERENCE_TRACE)]).stdout.splitlines()]
        self.assertEqual(events[0]["event"], "ts_resolution_ns")
        self.assertEqual(events[1]["offset"], RESOLUTION_FRAME)
        # Joined a while after the start: the resolution frame is gone.
        self.joined_late = self.tmp / "joined_late.bin"
        self.joined_late.write_bytes(whole[RESOLUTION_FRAME:])
        self.whole = REFERENCE_TRACE
        self.ticks = [e["ts"] for e in events if "ts" in e]
        self.assertGreater(max(self.ticks), 0)

    def dump_ns(self, path, *args):
        proc = run(["dump", "--json", str(path), *args])
        self.assertExit(proc, 0)
        return [json.loads(line)["ts_ns"] for line in proc.stdout.splitlines() if "ts_ns" in json.loads(line)]

    def stats(self, path, *args):
        proc = run(["stats", "--json", "--mode", "bare-metal", str(path), *args])
        self.assertExit(proc, 0)
        return json.loads(proc.stdout)["figures"], proc.stderr

    def test_without_it_a_trace_with_no_resolution_warns_and_reads_ticks_as_ns(self):
        figures, stderr = self.stats(self.joined_late)
        self.assertIn("the trace has no ts_resolution_ns event; assumed 1 ns per tick (give --ts-resolution-ns", stderr)
        self.assertEqual(figures["diagnostics.no_timestamp_resolution"], 1)
        self.assertEqual(self.dump_ns(self.joined_late), self.ticks)

    def test_given_the_times_are_scaled_and_nothing_is_assumed(self):
        figures, stderr = self.stats(self.joined_late, "--ts-resolution-ns", "1000")
        plain, _ = self.stats(self.whole)
        self.assertNotIn("ts_resolution", stderr)
        self.assertEqual(figures["diagnostics.no_timestamp_resolution"], 0)
        self.assertEqual(figures["duration"], plain["duration"] * 1000)
        self.assertEqual(self.dump_ns(self.joined_late, "--ts-resolution-ns", "1000"), [t * 1000 for t in self.ticks])
        # conv: the same times in the Chrome JSON (us), no warning.
        out = self.tmp / "t.json"
        proc = run(["conv", "--mode", "bare-metal", str(self.joined_late), "--json", str(out), "--ts-resolution-ns",
                    "1000", "--strict"])
        self.assertExit(proc, 0)
        stamps = [e["ts"] for e in json.loads(out.read_text())["traceEvents"] if "ts" in e]
        self.assertEqual(max(stamps), max(self.ticks))  # ticks of 1 us, in us

    def test_the_traces_own_resolution_wins(self):
        given, stderr = self.stats(self.whole, "--ts-resolution-ns", "1000")
        plain, _ = self.stats(self.whole)
        self.assertEqual(given["duration"], plain["duration"])
        self.assertNotIn("ts_resolution", stderr)
        self.assertEqual(self.dump_ns(self.whole, "--ts-resolution-ns", "1000"), self.ticks)

    def test_a_resolution_after_the_first_events_that_differs_is_a_warning(self):
        late = self.tmp / "late.bin"
        whole = self.whole.read_bytes()
        late.write_bytes(whole[RESOLUTION_FRAME:] + whole[:RESOLUTION_FRAME])
        _, stderr = self.stats(late, "--ts-resolution-ns", "1000")
        self.assertIn("ts_resolution_ns (1 ns per tick) arrived after the first events; those assume 1000 ns per tick "
                      "(--ts-resolution-ns)", stderr)
        _, stderr = self.stats(late, "--ts-resolution-ns", "1")  # confirmed: nothing to say
        self.assertNotIn("ts_resolution", stderr)

    def test_record_decodes_with_it(self):
        out, js = self.tmp / "rec.bin", self.tmp / "rec.json"
        proc = run(["record", "-", "-o", str(out), "--mode", "bare-metal", "--quiet", "--json", str(js),
                    "--ts-resolution-ns", "1000"], stdin=self.joined_late.read_bytes())
        self.assertExit(proc, 0)
        self.assertNotIn("ts_resolution", proc.stderr)
        stamps = [e["ts"] for e in json.loads(js.read_text())["traceEvents"] if "ts" in e]
        self.assertEqual(max(stamps), max(self.ticks))

    def test_threadx_clock_hz_is_a_warning_here(self):
        """--threadx-clock-hz is for ThreadX trace buffers: on a tband trace
        it would do nothing, so tband says so and which option to use."""
        for command in ("conv", "stats"):
            with self.subTest(command=command):
                proc = run([command, str(self.joined_late), "--threadx-clock-hz", "1000000"])
                self.assertExit(proc, 0)
                self.assertIn(f"tband {command}: warning: --threadx-clock-hz has no effect on tband traces "
                              f"({self.joined_late}): their tick length is in the trace, or given with "
                              "--ts-resolution-ns", proc.stderr)
        self.assertNotIn("--threadx-clock-hz", run(["conv", str(self.joined_late)]).stderr)

    def test_out_of_range_is_a_usage_error(self):
        for value in ("0", "3600000000001", "-5", "1us"):
            proc = run(["conv", str(self.whole), "-o", str(self.tmp / "x.pftrace"), "--ts-resolution-ns", value])
            self.assertExit(proc, 2)
            self.assertIn("--ts-resolution-ns", proc.stderr)
            self.assertFalse((self.tmp / "x.pftrace").exists())


if __name__ == "__main__":
    unittest.main()
