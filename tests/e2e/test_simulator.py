"""The host simulator: the demo workload on 2 and 4 threads acting as cores,
each core streamed into its own file, converted together by the CLI."""

from __future__ import annotations

import subprocess
import tempfile
import unittest
from pathlib import Path

from .support import path_from_env
from .trace_checks import convert, dump, isr_intervals, span_problems

RUN_MS = 150
ISR_TICK, ISR_ADC = 1, 2
VALUE_SEQUENCE = 3


class SimulatorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.sim = path_from_env("TBAND_SIM")
        cls.cli = path_from_env("TBAND_CLI")

    def run_sim(self, cores: int, out: Path) -> list[str]:
        result = subprocess.run([str(self.sim), "--cores", str(cores), "--ms", str(RUN_MS), "--out-dir", str(out)],
                                capture_output=True, text=True, timeout=60, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("0 events dropped", result.stdout)
        return [f"{out}/core{c}.bin@{c}" for c in range(cores)]

    def check_cores(self, cores: int) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            inputs = self.run_sim(cores, Path(tmp))
            summary = convert(self.cli, Path(tmp) / "sim.pftrace", *inputs, extra=("--core-count", str(cores)))
            self.assertIn("0 dropped on the target", summary)
            for core, spec in enumerate(inputs):
                with self.subTest(core=core):
                    trace = dump(self.cli, spec)
                    self.assertEqual(trace.decode_errors, [])
                    mine = [e for e in trace.events if e["core"] == core and e["event"] != "core_id"]
                    self.assertTrue(mine)
                    # Interrupts are due by the host clock; a thread that lost its
                    # core catches up before it ends, so the count is exact: one
                    # tick a millisecond, an ADC interrupt every 500 us from
                    # 500 + 97 * core us on.
                    ticks = isr_intervals(trace, ISR_TICK, core)
                    self.assertEqual(len(ticks), RUN_MS)
                    adc = isr_intervals(trace, ISR_ADC, core)
                    self.assertEqual(len(adc), (RUN_MS * 1000 - 500 - 97 * core) // 500 + 1)
                    self.assertEqual(span_problems(trace, core), [])
                    sequences = trace.values(VALUE_SEQUENCE, core)
                    self.assertEqual(sequences, list(range(1, len(sequences) + 1)))
                    ts = [e["ts"] for e in mine if "ts" in e]
                    self.assertEqual(ts, sorted(ts), "timestamps of a core never go back")
            # Core 0 started streaming, so its file carries every core's names,
            # each after a core_id event that attributes them to their core.
            first = dump(self.cli, inputs[0])
            for core in range(cores):
                names = {e["fields"]["name"] for e in first.of("isr_name", core)}
                self.assertEqual(names, {"tick 1kHz", "adc ready"}, f"names of core {core}")

    def test_two_cores(self) -> None:
        self.check_cores(2)

    def test_four_cores(self) -> None:
        self.check_cores(4)


if __name__ == "__main__":
    unittest.main()
