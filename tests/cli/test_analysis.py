"""End-to-end tests of `tband stats`, `tband check` and `tband report`, and of
`conv --strict --allow`: outputs read back as a user or a CI system would
(JSON, CSV, JUnit XML through xml.etree, the HTML page in a real browser
where one is installed)."""
import csv
import io
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

from tests.cli.support import make_trace, run
from tests.cli.test_cli import CliTestCase


class Stats(CliTestCase):
    def test_text_tables(self):
        proc = run(["stats", str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        text = proc.stdout.decode()
        for title in ("Trace", "ISRs", "Event markers", "Value markers"):
            self.assertIn(f"\n{title}\n" if title != "Trace" else "Trace\n", text)
        lines = text.splitlines()
        header = next(line for line in lines if line.strip().startswith("name") and "max_nesting" in line)
        systick = next(line for line in lines if line.strip().startswith("systick"))
        # Aligned: every figure ends where its title ends.
        self.assertEqual(header.index("max_nesting") + len("max_nesting"), systick.index("2  ") + 1)
        self.assertIn("45 events", proc.stderr)

    def test_json_figures_by_rule_name(self):
        proc = run(["stats", "--json", str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        stats = json.loads(proc.stdout)
        figures = stats["figures"]
        # 40 ns per tick (tools/make_trace.cpp): sensor_rdy 8 ticks, systick nested in it for 2.
        self.assertEqual(figures["isr.sensor_rdy.count"], 3)
        self.assertEqual(figures["isr.sensor_rdy.duration.max"], 320)
        self.assertEqual(figures["isr.systick.max_nesting"], 2)
        self.assertEqual(figures["marker.sensor.duration.p50"], 400)
        self.assertEqual(figures["marker.sensor.instants"], 3)
        self.assertEqual(figures["value.buf.min"], -8)
        self.assertEqual(figures["value.buf.max"], 192)
        self.assertEqual(figures["events"], 45)
        self.assertEqual(figures["dropped"], 0)
        isr = next(r for r in stats["rows"] if r["prefix"] == "isr.sensor_rdy")
        self.assertEqual(isr["figures"]["duration.max"]["unit"], "ns")
        self.assertEqual(isr["figures"]["duration.max"]["at_ns"], 100 * 40)
        self.assertEqual(isr["figures"]["duration.max"]["end_ns"], 108 * 40)
        self.assertEqual(isr["detail"], "core 0")

    def test_csv_one_line_per_figure(self):
        proc = run(["stats", "--csv", "--mode", "freertos", str(self.trace("freertos"))])
        self.assertExit(proc, 0)
        rows = {r["figure"]: r for r in csv.DictReader(io.StringIO(proc.stdout.decode()))}
        self.assertEqual(rows["task.sender.cpu"]["value"], "50")
        self.assertEqual(rows["task.sender.cpu"]["unit"], "percent")
        self.assertEqual(rows["queue.jobs.high_water"]["value"], "2")
        self.assertEqual(rows["queue.jobs.high_water"]["at_ns"], "1200")
        self.assertEqual(rows["mutex.bus_lock.hold.max"]["value"], "230")
        shares = [float(r["value"]) for name, r in rows.items() if name.endswith(".core0.cpu")]
        self.assertAlmostEqual(sum(shares), 100.0)  # IDLE, sender, receiver

    def test_output_file_and_errors(self):
        out = self.tmp / "stats.json"
        self.assertExit(run(["stats", "--json", "-o", str(out), str(self.trace("baremetal"))]), 0)
        self.assertEqual(json.loads(out.read_text())["figures"]["events"], 45)
        self.assertExit(run(["stats", "--json", "--csv", str(self.trace("baremetal"))]), 2)
        self.assertExit(run(["stats", str(self.tmp / "missing.bin")]), 3)
        self.assertExit(run(["stats", "--gap", "soon", str(self.trace("baremetal"))]), 2)
        self.assertExit(run(["stats"]), 2)


class Check(CliTestCase):
    def rules(self, text, name="rules.yaml"):
        path = self.tmp / name
        path.write_text(text)
        return path

    def test_passing(self):
        rules = self.rules("rules:\n"
                           "  - isr.systick.duration.max < 1us\n"
                           "  - marker.dsp.duration.p99 <= 1ms\n"
                           "  - dropped == 0\n"
                           "  - decode_errors == 0\n")
        proc = run(["check", "--rules", str(rules), str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        self.assertIn("PASS  isr.systick.duration.max < 1us  (80 ns)", proc.stdout.decode())
        self.assertIn("5 passed, 0 failed", proc.stdout.decode())

    def test_failing_names_rule_value_and_place(self):
        rules = self.rules("rules:\n"
                           "  - isr.sensor_rdy.duration.max < 200ns\n"
                           "  - rule: value.buf.max <= 100\n"
                           "    name: buffer stays below 100\n")
        proc = run(["check", "-r", str(rules), str(self.trace("baremetal"))])
        self.assertExit(proc, 1)
        out = proc.stdout.decode()
        self.assertIn("FAIL  isr.sensor_rdy.duration.max < 200ns\n"
                      "      isr.sensor_rdy.duration.max is 320 ns, not < 200 ns\n"
                      "      at 0.000004000 s (isr_enter on core 0 .. isr_exit, until 0.000004320 s)\n"
                      f"      {rules}:2:5\n", out)
        self.assertIn("FAIL  buffer stays below 100\n      value.buf.max is 192, not <= 100\n", out)
        self.assertIn("1 passed, 2 failed", out)

    def test_missing_target_fails_clearly(self):
        rules = self.rules("rules:\n  - queue.jobs.high_water < 8\n  - isr.tick.count > 0\n")
        proc = run(["check", "-r", str(rules), str(self.trace("baremetal"))])
        self.assertExit(proc, 1)
        out = proc.stdout.decode()
        self.assertIn("cannot check: the trace has no queue matching 'queue.jobs.high_water' "
                      "(it has none of that kind)", out)
        self.assertIn("cannot check: the trace has no isr matching 'isr.tick.count'; it has 'sensor_rdy', 'systick'",
                      out)

    def test_malformed_rules(self):
        trace = str(self.trace("baremetal"))
        for text, message in (
                ("rules:\n  - dropped 0\n", ":2:5: 'dropped 0' has no comparison"),
                ("rules:\n  - isr.systick.duration.max < 20\n",
                 ":2:5: 'isr.systick.duration.max' is a duration: its limit is a duration (ns, us, ms, s), not '20'"),
                ("allow: [everything]\n", ":1:9: unknown diagnostic kind 'everything'"),
                ("rules: [\n", ":2:1: did not find expected node content"),
                ("limits: []\n", ":1:1: unknown key 'limits'")):
            with self.subTest(text=text):
                rules = self.rules(text, "bad.yaml")
                proc = run(["check", "-r", str(rules), trace])
                self.assertExit(proc, 2)
                self.assertIn(f"tband check: error: {rules}{message}", proc.stderr)
        self.assertExit(run(["check", "-r", str(self.tmp / "none.yaml"), trace]), 2)
        self.assertExit(run(["check", trace]), 2)  # --rules is required

    def test_junit_xml(self):
        rules = self.rules("rules:\n  - isr.systick.count == 3\n  - isr.sensor_rdy.duration.max < 200ns\n"
                           "  - queue.jobs.high_water < 8\n")
        junit = self.tmp / "report.xml"
        proc = run(["check", "-r", str(rules), "--junit", str(junit), str(self.trace("baremetal"))])
        self.assertExit(proc, 1)
        root = ET.parse(junit).getroot()
        self.assertEqual(root.tag, "testsuites")
        suites = root.findall("testsuite")
        self.assertEqual(len(suites), 1)
        suite = suites[0]
        self.assertEqual((suite.get("tests"), suite.get("failures"), suite.get("errors")), ("4", "2", "0"))
        cases = suite.findall("testcase")
        self.assertEqual([c.get("name") for c in cases],
                         ["isr.systick.count == 3", "isr.sensor_rdy.duration.max < 200ns",
                          "queue.jobs.high_water < 8", "diagnostics"])
        for case in cases:
            self.assertEqual(case.get("classname"), "tband.check")
            self.assertIsNotNone(case.get("time"))
        self.assertIsNone(cases[0].find("failure"))
        failure = cases[1].find("failure")
        self.assertEqual(failure.get("message"), "isr.sensor_rdy.duration.max is 320 ns, not < 200 ns")
        self.assertIn(f"{rules}:3:5", failure.text)
        self.assertIn("no queue matching", cases[2].find("failure").get("message"))

    def test_diagnostics_fail_unless_allowed(self):
        data = self.trace("baremetal").read_bytes()
        truncated = self.tmp / "truncated.bin"
        truncated.write_bytes(data[:-3])  # a capture cut mid-frame
        rules = self.rules("rules:\n  - dropped == 0\n")
        proc = run(["check", "-r", str(rules), str(truncated)])
        self.assertExit(proc, 1)
        self.assertIn("1 x truncated end [truncated_end]", proc.stdout.decode())
        self.assertExit(run(["check", "-r", str(rules), "--allow", "truncated_end", str(truncated)]), 0)
        allowed = self.rules("allow: [truncated_end]\nrules:\n  - dropped == 0\n", "allowed.yaml")
        self.assertExit(run(["check", "-r", str(allowed), str(truncated)]), 0)


class ConvAllow(CliTestCase):
    def test_strict_tolerates_the_allowed_kinds_only(self):
        data = self.trace("baremetal").read_bytes()
        truncated = self.tmp / "truncated.bin"
        truncated.write_bytes(data[:-3])
        strict = run(["conv", "--strict", str(truncated)])
        self.assertExit(strict, 1)
        self.assertIn("1 x truncated end [truncated_end]", strict.stderr)
        self.assertExit(run(["conv", "--strict", "--allow", "truncated_end", str(truncated)]), 0)
        # Corruption inside the stream is still an error.
        corrupted = self.tmp / "corrupted.bin"
        cut = data.index(0, 20) + 1  # a frame boundary: one frame of an unknown event there
        corrupted.write_bytes(data[:cut] + b"\x02\xee\x00" + data[cut:-3])
        proc = run(["conv", "--strict", "--allow", "truncated_end", str(corrupted)])
        self.assertExit(proc, 1)
        self.assertIn("not allowed", proc.stderr)
        self.assertExit(run(["conv", "--strict", "--allow", "truncated_end", "--allow", "unknown_event_id",
                             str(corrupted)]), 0)  # an id no schema knows is a kind of its own
        bad = run(["conv", "--strict", "--allow", "nonsense", str(truncated)])
        self.assertExit(bad, 2)
        self.assertIn("truncated_end", bad.stderr)  # the kinds are listed
        self.assertExit(run(["conv", "--allow", "truncated_end", str(truncated)]), 2)  # needs --strict


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


class Report(CliTestCase):
    def report(self, kind="freertos"):
        out = self.tmp / f"{kind}.html"
        proc = run(["report", str(self.trace(kind)), "-o", str(out)])
        self.assertExit(proc, 0)
        return out

    def test_self_contained_page(self):
        html = self.report().read_text()
        self.assertTrue(html.startswith("<!DOCTYPE html>"))
        for needle in ('<svg class="chart histogram" data-row="mutex.bus_lock"', '<svg class="chart cpu-load"',
                       '<polyline class="load" data-task="sender"', '<svg class="chart value-series"',
                       '<section id="tables">', "<th>name</th>"):
            self.assertIn(needle, html)
        # Nothing to fetch: no scripts or stylesheets from elsewhere, no links to load.
        for needle in ("<script src", "<link", "http://", "https://", "<img"):
            self.assertNotIn(needle, html.replace('xmlns="http://www.w3.org/2000/svg"', ""))

    def test_in_a_real_browser(self):
        chromium = find_chromium()
        if chromium is None:
            self.skipTest("no headless browser installed (apt-get install chromium): report not rendered")
        page = self.report("baremetal")
        profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=self.tmp.path)
        common = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
        dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, timeout=120)
        self.assertEqual(dom.returncode, 0, dom.stderr.decode(errors="replace")[-2000:])
        root = dom.stdout.decode()
        # The browser parsed the SVG into elements: bars for both ISRs and both markers.
        self.assertEqual(root.count('<svg class="chart histogram"'), 4)
        self.assertIn('<rect class="bar"', root)
        self.assertIn('data-row="isr.systick"', root)
        self.assertIn("<td>sensor_rdy</td>", root)
        shot = self.tmp / "report.png"
        screenshot = subprocess.run([*common, "--window-size=900,1200", f"--screenshot={shot}", page.as_uri()],
                                    capture_output=True, timeout=120)
        self.assertEqual(screenshot.returncode, 0, screenshot.stderr.decode(errors="replace")[-2000:])
        png = shot.read_bytes()
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        self.assertEqual((width, height), (900, 1200))
        self.assertGreater(len(png), 20000, "a blank page compresses to far less")

    def test_errors(self):
        self.assertExit(run(["report", str(self.trace("baremetal"))]), 2)  # -o is required
        self.assertExit(run(["report", str(self.tmp / "missing.bin"), "-o", str(self.tmp / "x.html")]), 3)
        self.assertExit(run(["report", str(self.trace("baremetal")), "-o", str(self.tmp / "no/such/dir.html")]), 4)


if __name__ == "__main__":
    unittest.main()
