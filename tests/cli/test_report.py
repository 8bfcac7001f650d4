"""`tband report` laid out in headless Chromium at 1280 px for three kinds of
trace: the QEMU demo firmware's UART capture (tests/vectors/demo_qemu_uart.bin,
written by build/firmware/demo_streaming.elf under qemu-system-arm as
scripts/demo.sh runs it), a FreeRTOS trace (tband_make_trace freertos) and a
trace with user events decoded from the lab descriptor (tband_make_trace lab).

A copy of each report gets an inline script that measures the page in the
browser and writes the figures into the DOM as JSON; `--dump-dom` gives them
back. The report itself stays script-free. Skipped without a browser."""
import json
import os
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.cli.support import ROOT, make_trace, run
from tests.cli.test_analysis import CHROMIUM_FLAGS, find_chromium
from tests.cli.test_cli import CliTestCase

DESCRIPTOR = Path(os.environ.get("TBAND_LAB_DESCRIPTOR", ROOT / "build/generated_lab/descriptor/tband_schema.json"))
DEMO = ROOT / "tests/vectors/demo_qemu_uart.bin"
WIDTH = 1280

# Runs in the browser after the page is laid out; its result lands in
# <pre id="measured"> for --dump-dom.
MEASURE = """<script>
(() => {
  const body = document.body.getBoundingClientRect();
  const ids = new Set([...document.querySelectorAll('[id]')].map(e => e.id));
  const hrefs = sel => [...document.querySelectorAll(sel + ' a[href^="#"]')].map(a => a.getAttribute('href').slice(1));
  const out = {
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    contentWidth: body.width,
    ids: [...ids],
    navLinks: hrefs('nav#toc'),
    summaryLinks: hrefs('#summary table'),
    figures: [...document.querySelectorAll('figure')].map(f => f.id),
    charts: [...document.querySelectorAll('svg.chart')].map(svg => ({
      cls: svg.getAttribute('class'), row: svg.dataset.row, width: svg.getBoundingClientRect().width,
      figure: svg.closest('figure') ? svg.closest('figure').id : null,
      steps: [...svg.querySelectorAll('path.step')].map(p => p.getAttribute('d')),
      dots: svg.querySelectorAll('circle, rect.value').length,
      ticks: [...svg.querySelectorAll('g.time-axis text')].map(t => t.textContent),
      frame: (r => [r.y.baseVal.value, r.y.baseVal.value + r.height.baseVal.value])(svg.querySelector('rect.frame')),
    })),
    tables: [...document.querySelectorAll('table')].map(t => ({
      inScroll: !!t.parentElement && t.parentElement.classList.contains('scroll'),
      boxRight: t.parentElement.getBoundingClientRect().right,
      overflowX: getComputedStyle(t.parentElement).overflowX,
      tableWidth: t.getBoundingClientRect().width,
    })),
    summary: [...document.querySelectorAll('#summary [data-figure]')].map(
      e => [e.dataset.figure, e.dataset.value === undefined ? null : Number(e.dataset.value), e.textContent]),
    summaryRows: [...document.querySelectorAll('#summary th')].map(e => e.textContent),
  };
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


class ReportLayout(CliTestCase):
    def setUp(self):
        super().setUp()
        self.chromium = find_chromium()
        if self.chromium is None:
            self.skipTest("no headless browser installed (apt-get install chromium): report layout not checked")
        self.profile = tempfile.mkdtemp(prefix="tband_chromium_", dir=self.tmp.path)

    def browser(self, *args):
        proc = subprocess.run([self.chromium, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", *args],
                              capture_output=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode(errors="replace")[-2000:])
        return proc.stdout.decode()

    def render(self, name, trace, *options):
        """The report of `trace`, measured in the browser; a screenshot of it
        at 1280 px lands next to it (report-<name>.png)."""
        page = self.tmp / f"report-{name}.html"
        self.assertExit(run(["report", "--no-progress", *options, str(trace), "-o", str(page)]), 0)
        html = page.read_text()
        self.assertNotIn("<script", html)
        measured_page = self.tmp / f"measured-{name}.html"
        measured_page.write_text(html.replace("</body>", MEASURE + "</body>"))
        dom = self.browser(f"--window-size={WIDTH},2400", "--dump-dom", measured_page.as_uri())
        found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
        self.assertIsNotNone(found, "the measuring script did not run")
        shot = self.tmp / f"report-{name}.png"
        self.browser(f"--window-size={WIDTH},2400", f"--screenshot={shot}", page.as_uri())
        png = shot.read_bytes()
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual((int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")), (WIDTH, 2400))
        stats = run(["stats", "--json", "--no-progress", *options, str(trace)])
        self.assertExit(stats, 0)
        return json.loads(found.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")), \
            json.loads(stats.stdout)["figures"]

    def check_layout(self, m, figures):
        """What every report must satisfy, whatever the trace."""
        self.assertEqual(m["innerWidth"], WIDTH)
        self.assertLessEqual(m["scrollWidth"], WIDTH, "something runs off the right edge")
        for chart in m["charts"]:
            self.assertGreaterEqual(chart["width"], 0.9 * m["contentWidth"], chart)
            self.assertIsNotNone(chart["figure"], f"{chart['row']}: a chart outside a figure")
        for table in m["tables"]:
            self.assertTrue(table["inScroll"], table)
            self.assertEqual(table["overflowX"], "auto")
            self.assertLessEqual(table["boxRight"], WIDTH)
        # Every figure and every section has its link in the contents; every
        # link leads somewhere.
        for target in m["figures"] + ["summary", "tables"]:
            self.assertIn(target, m["navLinks"])
        for link in m["navLinks"] + m["summaryLinks"]:
            self.assertIn(link, m["ids"])
        # Time charts: labelled ticks in trace time.
        for chart in m["charts"]:
            if "histogram" not in chart["cls"]:
                self.assertGreaterEqual(len(chart["ticks"]), 4, chart["row"])
                for label in chart["ticks"][:-1]:
                    self.assertRegex(label, r"^\d+(\.\d+)? (ns|us|ms|s)$")
                self.assertEqual(chart["ticks"][-1], "trace time")
        # Values and counters: one step path each (M, then H and V only), no dots.
        for chart in m["charts"]:
            if "value-series" in chart["cls"]:
                self.assertEqual(len(chart["steps"]), 1, chart["row"])
                self.assertRegex(chart["steps"][0], r"^M[\d.]+,[\d.]+([HV][\d.]+)+$")
                self.assertEqual(chart["dots"], 0)
        # The summary's figures are `tband stats`'s, exactly.
        for name, value, _ in m["summary"]:
            if value is not None:
                self.assertEqual(value, figures[name], name)
        shown = {name: value for name, value, _ in m["summary"]}
        for name in ("dropped", "decode_errors", "diagnostics", "gaps"):
            self.assertEqual(shown[name], figures[name])
        return shown

    @staticmethod
    def worst(figures, prefix, suffix, leave_out=()):
        rows = {k: v for k, v in figures.items() if v is not None and k.startswith(prefix) and k.endswith(suffix) and
                k[len(prefix):-len(suffix)].count(".") == 0 and k[len(prefix):-len(suffix)] not in leave_out}
        return max(rows.items(), key=lambda kv: kv[1])

    @staticmethod
    def levels(d):
        """The y coordinates a step path passes through, in order."""
        return [float(y) for y in re.findall(r"(?:,|V)([\d.]+)", d)]

    def test_qemu_demo(self):
        m, figures = self.render("demo", DEMO)
        shown = self.check_layout(m, figures)
        name, p99 = self.worst(figures, "isr.", ".duration.p99")
        self.assertEqual(name, "isr.adc ready.duration.p99")
        self.assertEqual(shown[name], p99)
        name, p99 = self.worst(figures, "marker.", ".duration.p99")
        self.assertEqual(shown[name], p99)
        self.assertIn("#fig-isr-adc-ready", [f"#{link}" for link in m["summaryLinks"]])
        self.assertIn("busiest task by CPU load", m["summaryRows"])  # "no tasks in this trace"
        charts = {c["row"]: c for c in m["charts"]}
        # 500 ms of trace: ticks every 100 ms.
        self.assertEqual(charts["value.fifo level"]["ticks"],
                         ["100 ms", "200 ms", "300 ms", "400 ms", "500 ms", "trace time"])
        # The sequence number only grows: its steps only go up (y down).
        ys = self.levels(charts["value.sequence"]["steps"][0])
        self.assertEqual(ys, sorted(ys, reverse=True))
        self.assertGreater(len(set(ys)), 100, "a step per value (125 values)")
        # The FIFO level reaches its extremes (0 and 8): the frame's bottom and top.
        ys = self.levels(charts["value.fifo level"]["steps"][0])
        top, bottom = charts["value.fifo level"]["frame"]
        self.assertEqual((min(ys), max(ys)), (top, bottom))
        self.assertEqual({c["row"] for c in m["charts"] if "histogram" in c["cls"]},
                         {"isr.adc ready", "isr.tick 1kHz", "marker.acquire", "marker.filter"})

    def test_freertos(self):
        trace = self.trace("freertos")
        m, figures = self.render("freertos", trace)
        shown = self.check_layout(m, figures)
        name, cpu = self.worst(figures, "task.", ".cpu", leave_out=("IDLE",))
        self.assertEqual(shown[name], cpu)
        self.assertIn("fig-cpu-load", m["summaryLinks"])
        self.assertIn("fig-mutex-bus-lock", m["navLinks"])
        name, p99 = max(((k, v) for k, v in figures.items() if v is not None and re.fullmatch(r"task\.[^.]+\.marker\.[^.]+\.duration\.p99", k)),
                        key=lambda kv: kv[1])
        self.assertEqual(shown[name], p99)
        charts = [c for c in m["charts"] if "value-series" in c["cls"]]
        self.assertEqual([c["row"] for c in charts], ["task.receiver.value.backlog"])

    def test_user_events(self):
        trace = self.tmp / "lab.bin"
        make_trace("lab", trace)
        m, figures = self.render("lab", trace, "--schema", str(DESCRIPTOR))
        shown = self.check_layout(m, figures)
        self.assertEqual(shown["span.job.duration.p99"], 600)
        self.assertEqual({c["row"] for c in m["charts"] if "value-series" in c["cls"]},
                         {"counter.motor 1 speed", "counter.level left", "counter.motor 2 speed"})
        # level 3 (named "left" by lab_channel_name) goes -40 -> 12: a step up
        # (y from the bottom to the top), held to the end.
        chart = next(c for c in m["charts"] if c["row"] == "counter.level left")
        top, bottom = chart["frame"]
        self.assertEqual(self.levels(chart["steps"][0]), [bottom, top])


if __name__ == "__main__":
    unittest.main()
