"""The demo firmware under QEMU (mps2-an386): the streaming, snapshot and
post-mortem builds, their traces decoded by the tband CLI and checked for
what the firmware did (examples/firmware/app/main.c, examples/workload)."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import unittest
from pathlib import Path

from . import qemu
from .support import FirmwareTestCase
from tests.cli.vcd_read import steps, through_gtkwave, through_sigrok

from .trace_checks import convert, dump, events_inside, isr_intervals, nearest_rank, span_problems, stats

# From the firmware (examples/firmware/app/main.c and examples/workload).
RUN_MS = 500
TICKS_PER_ACQUISITION = 4
CRASH_AT_SEQUENCE = 60
ISR_TICK, ISR_ADC = 1, 2
MARKER_ACQUIRE, MARKER_FILTER = 1, 2
VALUE_FIFO_LEVEL, VALUE_SEQUENCE = 1, 3
NS_PER_TICK = 40  # FPGAIO counter at 25 MHz
TICKS_PER_MS = 1_000_000 // NS_PER_TICK
ADC_NOMINAL_PERIOD = TICKS_PER_MS // 2  # 2 kHz


class QemuFirmwareTest(FirmwareTestCase):
    def run_variant(self, variant: str, name: str) -> Path:
        serial = self.out / name
        status = qemu.run_to_exit(self.firmware / f"demo_{variant}.elf", serial)
        self.assertEqual(status, 0, f"{variant} firmware exit status")
        return serial

    def assert_names(self, trace) -> None:
        self.assertEqual({e["fields"]["name"] for e in trace.of("isr_name")}, {"tick 1kHz", "adc ready"})
        self.assertEqual({e["fields"]["name"] for e in trace.of("evtmarker_name")}, {"acquire", "filter", "events"})
        # Once from the firmware's metadata; a streaming start sends it first too.
        resolutions = [e["fields"]["ns_per_ts"] for e in trace.of("ts_resolution_ns")]
        self.assertTrue(resolutions)
        self.assertEqual(set(resolutions), {NS_PER_TICK})

    def assert_adc_isrs_each_push_one_sample(self, trace) -> None:
        adc = isr_intervals(trace, ISR_ADC)
        pushed = [a + b for a, b in zip(events_inside(trace, adc, "valmarker"), events_inside(trace, adc, "evtmarker"))]
        self.assertEqual(set(pushed), {1}, "each ADC interrupt reports exactly one FIFO level or one overrun")

    def assert_acquisitions(self, trace, sequences: list[int]) -> None:
        self.assertEqual(span_problems(trace), [])
        # "filter" only ever runs inside "acquire".
        open_acquire = 0
        for e in trace.events:
            if e["event"] == "evtmarker_begin" and e["fields"]["evtmarker_id"] == MARKER_ACQUIRE:
                open_acquire += 1
            elif e["event"] == "evtmarker_end" and e["fields"]["evtmarker_id"] == MARKER_ACQUIRE:
                open_acquire -= 1
            elif e["event"] == "evtmarker_begin" and e["fields"]["evtmarker_id"] == MARKER_FILTER:
                self.assertEqual(open_acquire, 1, f"filter at {e['ts']} outside acquire")
        self.assertEqual(trace.values(VALUE_SEQUENCE), sequences)

    def test_streaming(self) -> None:
        serial = self.run_variant("streaming", "uart.bin")
        trace = dump(self.cli, str(serial))
        self.assertEqual(trace.decode_errors, [])
        self.assert_names(trace)

        # The 1 kHz tick: exactly RUN_MS interrupts, exactly 1 ms apart (SysTick is exact in QEMU).
        ticks = isr_intervals(trace, ISR_TICK)
        self.assertEqual(len(ticks), RUN_MS)
        periods = [b[0] - a[0] for a, b in zip(ticks, ticks[1:])]
        self.assertEqual(statistics.median(periods), TICKS_PER_MS)
        self.assertEqual(ticks[-1][0] - ticks[0][0], (RUN_MS - 1) * TICKS_PER_MS)

        # The ADC interrupt runs at its 2 kHz period, but QEMU's timer model
        # skips an expiry that falls right after the tick interrupt, so some
        # gaps are two periods: the count lies between those bounds.
        adc = isr_intervals(trace, ISR_ADC)
        adc_periods = [b[0] - a[0] for a, b in zip(adc, adc[1:])]
        self.assertAlmostEqual(statistics.median(adc_periods), ADC_NOMINAL_PERIOD, delta=ADC_NOMINAL_PERIOD * 0.05)
        span = adc[-1][0] - adc[0][0]
        self.assertLessEqual(len(adc), span // min(adc_periods) + 1)
        self.assertGreaterEqual(len(adc), span // (2 * ADC_NOMINAL_PERIOD))
        self.assertTrue(all(p < 2.2 * ADC_NOMINAL_PERIOD for p in adc_periods), "at most one expiry skipped in a row")
        self.assert_adc_isrs_each_push_one_sample(trace)

        acquisitions = RUN_MS // TICKS_PER_ACQUISITION
        self.assert_acquisitions(trace, list(range(1, acquisitions + 1)))
        self.assertEqual(trace.counts()["evtmarker_begin"], trace.counts()["evtmarker_end"])

        # Nothing dropped: every periodic dropped_evt_cnt says 0.
        counts = [e["fields"]["cnt"] for e in trace.of("dropped_evt_cnt")]
        self.assertGreater(len(counts), 0)
        self.assertEqual(set(counts), {0})

        summary = convert(self.cli, self.out / "uart.pftrace", str(serial), extra=("--vcd", str(self.out / "uart.vcd")))
        self.assertIn("0 dropped on the target", summary)
        self.assertGreater((self.out / "uart.pftrace").stat().st_size, 1000)
        self.assert_vcd_isr_edges(serial, {"tick_1kHz": ticks, "adc_ready": adc})

        self.assert_stats_match_the_firmware(trace, serial, ticks, adc)
        self.assert_check_passes(serial)
        # No second run compared to the byte: even with -icount, on a busy
        # machine QEMU delivered a few interrupts at other instructions (CI's
        # ASan build), so the timestamps differed between runs.

    def assert_vcd_isr_edges(self, serial: Path, isrs: dict) -> None:
        """conv --vcd: each ISR's signal rises at every entry and falls at every
        exit, to the nanosecond, as GTKWave (vcd2fst, fst2vcd) reads the VCD
        and as sigrok reads --vcd-logic's."""
        if not all(shutil.which(t) for t in ("vcd2fst", "fst2vcd", "sigrok-cli")):
            self.skipTest("needs gtkwave and sigrok-cli (scripts/setup.sh)")
        read, messages = through_gtkwave(self.out / "uart.vcd")
        self.assertNotRegex(messages, r"(?i)error|warning|malformed")
        logic = self.out / "uart.logic.vcd"
        convert(self.cli, self.out / "unused.pftrace", str(serial), extra=("--vcd", str(logic), "--vcd-logic"))
        by_sigrok = through_sigrok(logic)
        for name, intervals in isrs.items():
            edges = [(t * NS_PER_TICK, v) for enter, leave in intervals for t, v in ((enter, 1), (leave, 0))]
            self.assertEqual(steps(read[f"Core_0.isr.{name}"]["changes"], low_start=False), edges, name)
            self.assertEqual(steps(by_sigrok[f"Core_0.isr.{name}"], low_start=False), edges, f"{name} as sigrok reads it")

    def assert_stats_match_the_firmware(self, trace, serial: Path, ticks, adc) -> None:
        """`tband stats` against what the firmware did and what the events say."""
        figures = stats(self.cli, str(serial))["figures"]
        tick, acquisitions = "isr.tick 1kHz", RUN_MS // TICKS_PER_ACQUISITION
        self.assertEqual(figures[f"{tick}.count"], RUN_MS)
        self.assertEqual(figures[f"{tick}.period.min"], 1_000_000)  # every 1 ms, exactly
        self.assertEqual(figures[f"{tick}.period.max"], 1_000_000)
        tick_ns = [(b - a) * NS_PER_TICK for a, b in ticks]
        self.assertEqual(figures[f"{tick}.duration.max"], max(tick_ns))
        self.assertEqual(figures[f"{tick}.duration.min"], min(tick_ns))
        self.assertEqual(figures[f"{tick}.duration.total"], sum(tick_ns))
        self.assertEqual(figures[f"{tick}.open"], 0)
        adc_ns = [(b - a) * NS_PER_TICK for a, b in adc]
        self.assertEqual(figures["isr.adc ready.count"], len(adc))
        for p in (50, 90, 99):  # exact up to 1024 values, within 1/256 beyond (host/stats/duration_sketch.hpp)
            truth = nearest_rank(adc_ns, p)
            if len(adc_ns) <= 1024:
                self.assertEqual(figures[f"isr.adc ready.duration.p{p}"], truth, f"p{p}")
            else:
                self.assertLessEqual(abs(figures[f"isr.adc ready.duration.p{p}"] - truth), truth / 256, f"p{p}")
        # One sample per ADC interrupt: each pushes a FIFO level or reports an
        # overrun; each acquisition reports the level after draining, then
        # filters or says "no samples".
        self.assertEqual(figures["marker.acquire.count"], acquisitions)
        self.assertEqual(figures["marker.acquire.open"], 0)
        no_samples = figures["marker.acquire.count"] - figures["marker.filter.count"]
        self.assertEqual(figures["value.fifo level.count"] + figures["marker.events.instants"],
                         len(adc) + acquisitions + no_samples)
        self.assertEqual(figures["marker.events.instants"], len(trace.of("evtmarker")))
        # Spans nest: every filter span lies inside an acquire span, so it is shorter.
        self.assertLess(figures["marker.filter.duration.max"], figures["marker.acquire.duration.max"])
        for key, value in (("count", acquisitions), ("first", 1), ("last", acquisitions), ("min", 1),
                           ("max", acquisitions)):
            self.assertEqual(figures[f"value.sequence.{key}"], value, key)
        for key in ("dropped", "decode_errors", "truncated_end", "diagnostics", "gaps", "metadata_overflow"):
            self.assertEqual(figures[key], 0, key)
        self.assertLessEqual(figures["gap.max"], 1_000_000)

    def assert_check_passes(self, serial: Path) -> None:
        rules = self.out / "rules.yaml"
        rules.write_text("rules:\n"
                         "  - isr.tick 1kHz.period.max <= 1ms\n"
                         "  - isr.tick 1kHz.count == 500\n"
                         "  - marker.acquire.open == 0\n"
                         "  - dropped == 0\n"
                         "  - decode_errors == 0\n")
        junit = self.out / "check.xml"
        result = subprocess.run([str(self.cli), "check", "--mode", "bare-metal", "--rules", str(rules),
                                 "--junit", str(junit), str(serial)], capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("6 passed, 0 failed", result.stdout)
        self.assertIn('tests="6" failures="0"', junit.read_text())

    def test_snapshot(self) -> None:
        serial = self.run_variant("snapshot", "snapshot.bin")
        trace = dump(self.cli, str(serial))
        self.assertEqual(trace.decode_errors, [])
        self.assert_names(trace)
        # The 16 KiB buffer fills long before the run ends: the snapshot holds
        # the run's beginning, stopped in mid-flight (so no --strict here).
        self.assertLessEqual(serial.stat().st_size, 16384 + 256)
        self.assertGreater(serial.stat().st_size, 16384 - 64)
        ticks = trace.of("isr_enter")
        self.assertLess(len([e for e in ticks if e["fields"]["isr_id"] == ISR_TICK]), RUN_MS)
        sequences = trace.values(VALUE_SEQUENCE)
        self.assertGreater(len(sequences), 10)
        self.assertEqual(sequences, list(range(1, len(sequences) + 1)))
        summary = convert(self.cli, self.out / "snapshot.pftrace", str(serial), strict=False)
        self.assertIn("0 dropped on the target", summary)

    def test_post_mortem(self) -> None:
        serial = self.out / "pm_uart.txt"
        ram = self.out / "ram.bin"
        qemu.run_until_fault_and_dump_ram(self.firmware / "demo_post_mortem.elf", serial, ram)
        self.assertEqual(serial.read_bytes(), b"FAULT\n")
        # The CLI finds the block in the 4 MiB RAM image by itself.
        trace = dump(self.cli, str(ram))
        self.assertEqual(trace.decode_errors, [])
        self.assert_names(trace)  # the metadata area survives with the ring
        # The newest events: the crash came right after acquisition
        # CRASH_AT_SEQUENCE ended, so that is what the ring ends with...
        timed = [e for e in trace.events if "ts" in e and e["event"] != "core_id"]
        self.assertEqual(timed[-2]["event"], "valmarker")
        self.assertEqual(timed[-2]["fields"], {"valmarker_id": VALUE_SEQUENCE, "val": CRASH_AT_SEQUENCE})
        self.assertEqual(timed[-1]["event"], "evtmarker_end")
        self.assertEqual(timed[-1]["fields"], {"evtmarker_id": MARKER_ACQUIRE})
        # ...and the ring, 2 KiB, wrapped many times: older events are gone,
        # what is left is whole, in order and without a gap.
        sequences = trace.values(VALUE_SEQUENCE)
        self.assertGreater(sequences[0], 1)
        self.assertEqual(sequences, list(range(sequences[0], CRASH_AT_SEQUENCE + 1)))
        ts = [e["ts"] for e in timed]
        self.assertEqual(ts, sorted(ts))
        self.assertGreater(len(timed), 100)


if __name__ == "__main__":
    unittest.main()
