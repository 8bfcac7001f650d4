"""campaign.py: sessions restarted until the deadline, a finding stops the
campaign, and the summary adds up what the logs say. The fuzzer here is a
shell script that prints what libFuzzer prints at its end."""
import datetime
import os
import pathlib
import stat
import subprocess
import sys
import tempfile
import unittest

CAMPAIGN = pathlib.Path(__file__).resolve().parent / "campaign.py"

FINAL_STATS = """Done {runs} runs in 2 second(s)
stat::number_of_executed_units: {runs}
stat::average_exec_per_sec:     {rate}
"""


class Campaign(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        self.work = self.root / "work"
        self.fuzz_dir = self.root / "build" / "tests" / "fuzz"
        self.fuzz_dir.mkdir(parents=True)

    def tearDown(self):
        self.tmp.cleanup()

    def fake_fuzzer(self, target: str, body: str) -> None:
        script = self.fuzz_dir / f"fuzz_{target}"
        script.write_text("#!/bin/sh\n" + body)
        script.chmod(script.stat().st_mode | stat.S_IXUSR)

    def campaign(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(CAMPAIGN), *args], capture_output=True, text=True, timeout=120)

    def until_in(self, seconds: int) -> str:
        end = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
        return end.strftime("%H:%M")

    def test_a_finding_stops_the_campaign_and_is_counted(self):
        self.fake_fuzzer("stats", "echo 'ERROR: AddressSanitizer: heap-buffer-overflow'\n"
                         + "printf '" + FINAL_STATS.format(runs=7, rate=3).replace("\n", "\\n") + "'\nexit 1\n")
        done = self.campaign("run", str(self.root / "build"), "stats", "--until", self.until_in(600),
                             "--work", str(self.work))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("found something", done.stderr)
        self.assertTrue((self.work / "stats").is_dir())
        summary = self.campaign("summary", "--work", str(self.work))
        self.assertEqual(summary.returncode, 0, summary.stderr)
        self.assertRegex(summary.stdout, r"stats: 7 executions in 1 sessions, best 3/s, findings: stats\.\S+\.log")

    def test_the_fuzzer_gets_the_campaign_flags_and_folders(self):
        self.fake_fuzzer("conversion", 'echo "args: $*"\necho "asan: $ASAN_OPTIONS"\n'
                         + "printf '" + FINAL_STATS.format(runs=1000, rate=250).replace("\n", "\\n") + "'\n"
                         + "exit 1\n")  # an exit without a finding ends the campaign too
        done = self.campaign("run", str(self.root / "build"), "conversion", "--until", self.until_in(600),
                             "--work", str(self.work))
        self.assertEqual(done.returncode, 1)
        self.assertIn("exited 1 without a finding", done.stderr)
        log = next(self.work.glob("conversion.*.log")).read_text()
        self.assertIn("-reload=0", log)
        self.assertIn("-max_len=4096", log)
        self.assertIn(f" {self.work / 'conversion'} ", log)
        self.assertRegex(log, r"corpus_conversion\n")
        self.assertIn("asan: malloc_context_size=0:quarantine_size_mb=32", log)
        summary = self.campaign("summary", "--work", str(self.work))
        self.assertIn("conversion: 1,000 executions in 1 sessions, best 250/s, findings: none", summary.stdout)

    # A fuzzer whose first session ends on a timeout, as libFuzzer reports one. Called with the artifact alone
    # (the campaign's rerun), it does what RERUN says; a second session ends the campaign (exit 1, no finding).
    TIMING_OUT = """if [ "$#" -eq 1 ]; then {rerun}; fi
if [ ! -e "$0.ran" ]; then
  touch "$0.ran"
  prefix=$(echo "$*" | sed -n 's/.*-artifact_prefix=\\([^ ]*\\).*/\\1/p')
  echo x > "${{prefix}}timeout-abc"
  echo "ALARM: working on the last Unit for 10 seconds"
  echo "artifact_prefix='$prefix'; Test unit written to ${{prefix}}timeout-abc"
  echo "==1== ERROR: libFuzzer: timeout after 10 seconds"
  echo "SUMMARY: libFuzzer: timeout"
  printf '{stats}'
  exit 70
fi
printf '{stats}'
exit 1
"""

    def timing_out_fuzzer(self, rerun: str) -> None:
        stats = FINAL_STATS.format(runs=500, rate=50).replace("\n", "\\n")
        self.fake_fuzzer("stats", self.TIMING_OUT.format(rerun=rerun, stats=stats))

    def test_a_timeout_whose_input_reruns_in_time_was_the_machines(self):
        self.timing_out_fuzzer(rerun="exit 0")
        done = self.campaign("run", str(self.root / "build"), "stats", "--until", self.until_in(600),
                             "--work", str(self.work))
        self.assertIn("a timeout that was the machine's (reran alone in", done.stderr)
        self.assertIn("exited 1 without a finding", done.stderr)  # the second session ran
        notes = list(self.work.glob("stats-*-timeout-abc.rerun"))
        self.assertEqual(len(notes), 1)
        self.assertRegex(notes[0].read_text(), r"^reran alone in \d+\.\d\d s of CPU, \d+\.\d\d s of wall time, exit 0")
        summary = self.campaign("summary", "--work", str(self.work))
        self.assertRegex(summary.stdout, r"stats: 1,000 executions in 2 sessions, best 50/s, findings: none; "
                                         r"timeouts that reran in time \(starved\): stats\.\S+\.log")

    def test_a_timeout_whose_input_fails_again_stops_the_campaign(self):
        self.timing_out_fuzzer(rerun="exit 70")
        done = self.campaign("run", str(self.root / "build"), "stats", "--until", self.until_in(600),
                             "--work", str(self.work))
        self.assertEqual(done.returncode, 1)
        self.assertIn("found something", done.stderr)
        self.assertEqual(list(self.work.glob("*.rerun")), [])
        summary = self.campaign("summary", "--work", str(self.work))
        self.assertRegex(summary.stdout, r"findings: stats\.\S+\.log$")

    def test_sessions_are_added_up_and_a_killed_one_is_named(self):
        self.work.mkdir()
        (self.work / "stats.20261129T1000Z.log").write_text(FINAL_STATS.format(runs=1500, rate=120))
        (self.work / "stats.20261129T1100Z.log").write_text(FINAL_STATS.format(runs=2500, rate=150))
        (self.work / "stats.20261129T1200Z.log").write_text("#123 pulse\n")
        summary = self.campaign("summary", "--work", str(self.work))
        self.assertIn("stats: 4,000 executions in 3 sessions, best 150/s, findings: "
                      "stats.20261129T1200Z.log (no final stats: killed, or still running)", summary.stdout)

    def test_a_missing_build_is_a_clear_error(self):
        done = self.campaign("run", str(self.root / "nothing"), "stats", "--until", "12:00", "--work", str(self.work))
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("not found: build it first", done.stderr)
        bad_time = self.campaign("run", str(self.root / "build"), "stats", "--until", "noon")
        self.assertIn("wants HH:MM", bad_time.stderr)


if __name__ == "__main__":
    unittest.main()
