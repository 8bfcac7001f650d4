"""End-to-end tests of the `tband` command: every subcommand and error path,
golden conversions read back with `protoc --decode`, JSON output, dump --json
round trips, serving over loopback HTTP, completion scripts."""
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import unittest
import urllib.request
from pathlib import Path

from tests.cli.support import (TBAND, SchemaEncoder, TempDir, TraceView, make_trace, run, served_port)


def non_utf8_trace(base, path):
    """base's trace with events whose strings are not UTF-8 (a 0xFF byte, a
    character cut at the string limit) and, for contrast, valid ones."""
    encoder, t = SchemaEncoder(), 10**7
    frames = [
        {"event": "isr_name", "fields": {"isr_id": 7, "name": b"ab\xff"}},
        {"event": "evtmarker_name", "fields": {"evtmarker_id": 9, "name": "grün"}},
        {"event": "isr_enter", "ts": t, "fields": {"isr_id": 7}},
        {"event": "isr_exit", "ts": t + 1, "fields": {"isr_id": 7}},
        {"event": "evtmarker_begin", "ts": t + 2, "fields": {"evtmarker_id": 9, "msg": "grün".encode()[:3]}},
        {"event": "evtmarker_end", "ts": t + 3, "fields": {"evtmarker_id": 9}},
        {"event": "evtmarker", "ts": t + 4, "fields": {"evtmarker_id": 9, "msg": "a\\x41"}},
    ]
    path.write_bytes(base.read_bytes() + b"".join(encoder.encode(f) for f in frames))
    return path


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = TempDir()
        self.addCleanup(self.tmp.cleanup)

    def trace(self, kind, name=None):
        path = self.tmp / (name or f"{kind}.bin")
        make_trace(kind, path)
        return path

    def assertExit(self, proc, code):
        self.assertEqual(proc.returncode, code, f"stderr:\n{proc.stderr}")


class Conv(CliTestCase):
    def test_bare_metal_golden(self):
        out = self.tmp / "bm.pftrace"
        proc = run(["conv", str(self.trace("baremetal")), "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertIn("45 events", proc.stderr)
        self.assertNotIn("warning", proc.stderr)
        view = TraceView(out)
        self.assertEqual(view.process_names(), ["Core 0"])
        sensor = view.track("sensor", "")
        self.assertEqual([s["name"] for s in sensor["slices"]], ["acq"] * 3)
        self.assertEqual([i["name"] for i in sensor["instants"]], ["rdy"] * 3)
        self.assertEqual(sensor["slices"][0]["begin"], 110 * 40)  # ticks * ts_resolution_ns
        self.assertEqual(sensor["slices"][0]["end"], 120 * 40)
        dsp = view.track("dsp", "")
        self.assertEqual([s["name"] for s in dsp["slices"]][:2], ["dsp", "fft"])  # nested: fft inside dsp
        self.assertLess(dsp["slices"][0]["begin"], dsp["slices"][1]["begin"])
        self.assertGreater(dsp["slices"][0]["end"], dsp["slices"][1]["end"])
        buf = view.track("buf", "")
        self.assertEqual([v for _, v in buf["counter"]], [64, -8, 128, -8, 192, -8])
        self.assertEqual(len(view.track("sensor_rdy", "Core 0")["slices"]), 3)
        self.assertEqual(view.track("systick", "Core 0")["slices"][0]["name"], "systick")

    def test_freertos_golden(self):
        out = self.tmp / "rtos.pftrace"
        proc = run(["conv", "--mode", "freertos", str(self.trace("freertos")), "-o", str(out)])
        self.assertExit(proc, 0)
        view = TraceView(out)
        self.assertEqual(view.process_names(), ["Core 0", "IDLE (idle task, core 0)", "receiver", "sender"])
        self.assertEqual([s["name"] for s in view.track("Running task", "Core 0")["slices"]],
                         ["sender", "receiver", "IDLE", "sender", "IDLE"])  # the idle task runs too
        self.assertEqual([s["name"] for s in view.track("State", "sender")["slices"]],
                         ["Ready", "Running on core 0", "Blocked: delay 50 ticks", "Ready",
                          "Running on core 0", "Deleted"])
        self.assertEqual([v for _, v in view.track("jobs fill", "")["counter"]], [0, 1, 2, 1, 0])
        self.assertEqual([s["name"] for s in view.track("bus_lock holder", "")["slices"]],
                         ["Available", "Taken by sender", "Available"])
        self.assertEqual([v for _, v in view.track("Priority", "sender")["counter"]], [2, 3, 2])
        self.assertEqual(view.track("produce", "sender")["slices"][0]["name"], "batch")

    def test_json_output(self):
        out = self.tmp / "bm.json"
        proc = run(["conv", str(self.trace("baremetal")), "--json", str(out)])
        self.assertExit(proc, 0)
        events = json.loads(Path(out).read_text())["traceEvents"]
        begins = [e for e in events if e["ph"] == "B"]
        self.assertEqual(sorted({e["name"] for e in begins}), ["acq", "dsp", "fft", "sensor_rdy", "systick"])
        self.assertEqual(len(begins), len([e for e in events if e["ph"] == "E"]))
        counters = [e for e in events if e["ph"] == "C"]
        self.assertEqual([e["args"]["value"] for e in counters], [64, -8, 128, -8, 192, -8])
        self.assertEqual({e["name"] for e in counters}, {"buf"})
        names = {e["args"]["name"] for e in events if e["ph"] == "M"}
        self.assertTrue({"Core 0", "sensor", "dsp", "sensor_rdy", "systick"} <= names, names)
        acq = next(e for e in begins if e["name"] == "acq")
        self.assertAlmostEqual(acq["ts"], 110 * 40 / 1000)  # microseconds

    def test_perfetto_and_json_together_and_stdout(self):
        trace = self.trace("baremetal")
        proc = run(["conv", str(trace), "-o", "-", "--json", str(self.tmp / "t.json")])
        self.assertExit(proc, 0)
        (self.tmp / "stdout.pftrace").write_bytes(proc.stdout)
        self.assertEqual(len(TraceView(self.tmp / "stdout.pftrace").track("sensor", "")["slices"]), 3)
        json.loads((self.tmp / "t.json").read_text())

    def test_hex_base64_and_stdin_give_the_same_trace(self):
        trace = self.trace("baremetal")
        data = trace.read_bytes()
        reference = run(["conv", str(trace), "-o", "-"]).stdout
        hex_file = self.tmp / "t.hex"
        hex_file.write_text("\n".join(" ".join(f"{b:02x}" for b in data[i:i + 16]) for i in range(0, len(data), 16)))
        log = self.tmp / "uart.log"
        lines = ["boot: firmware 1.2", "[I] tracing starts"]
        lines += [base64.b64encode(data[i:i + 30]).decode() for i in range(0, len(data), 30)]
        lines += ["[I] done"]
        log.write_text("\r\n".join(lines) + "\r\n")
        for args, stdin in ((["--format", "hex", str(hex_file)], None), ([str(hex_file)], None),
                            ([str(log)], None), (["--format", "base64", str(log)], None),
                            (["-"], data), (["--format", "hex", "-"], hex_file.read_bytes())):
            with self.subTest(args=args):
                proc = run(["conv", *args, "-o", "-"], stdin=stdin)
                self.assertExit(proc, 0)
                self.assertEqual(proc.stdout, reference)

    def test_two_files_for_two_cores(self):
        prefix = self.tmp / "core"
        make_trace("dualcore", prefix)
        out = self.tmp / "dual.pftrace"
        proc = run(["conv", "-c", "2", f"{prefix}0.bin@0", f"{prefix}1.bin@1", "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertNotIn("warning", proc.stderr)
        view = TraceView(out)
        self.assertEqual(view.process_names(), ["Core 0", "Core 1"])
        self.assertEqual(len(view.track("uart0", "Core 0")["slices"]), 4)
        self.assertEqual(view.track("uart1", "Core 1")["slices"][0]["begin"], 15)
        self.assertEqual(view.track("frame", "")["slices"][0]["name"], "render")

    def test_strings_that_are_not_utf8_are_shown_escaped_with_a_warning(self):
        trace = non_utf8_trace(self.trace("baremetal"), self.tmp / "non_utf8.bin")
        out = self.tmp / "non_utf8.pftrace"
        proc = run(["conv", "--mode", "bare-metal", str(trace), "-o", str(out), "--json", str(self.tmp / "t.json")])
        self.assertExit(proc, 0)
        self.assertIn("2 x string not UTF-8 [invalid_utf8]", proc.stderr)
        self.assertIn("isr_name.name is not UTF-8", proc.stderr)
        view = TraceView(out)
        self.assertEqual(len(view.track("ab\\xFF", "Core 0")["slices"]), 1)
        marker = view.track("grün", "")
        self.assertEqual([s["name"] for s in marker["slices"]], ["gr\\xC3"])
        self.assertEqual([i["name"] for i in marker["instants"]], ["a\\x41"])  # valid: not escaped
        chrome = json.loads((self.tmp / "t.json").read_text(encoding="utf-8"))
        self.assertIn("gr\\xC3", [e.get("name") for e in chrome["traceEvents"]])
        self.assertExit(run(["conv", "--strict", str(trace)]), 1)
        self.assertExit(run(["conv", "--strict", "--allow", "invalid_utf8", str(trace)]), 0)

    def test_check_only_and_strict(self):
        trace = self.trace("baremetal")
        proc = run(["conv", "--strict", str(trace)])
        self.assertExit(proc, 0)
        self.assertEqual(proc.stdout, b"")


class ConvErrors(CliTestCase):
    def test_missing_file(self):
        proc = run(["conv", str(self.tmp / "nope.bin")])
        self.assertExit(proc, 3)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1)
        self.assertIn("nope.bin: No such file", proc.stderr)

    def test_empty_file(self):
        empty = self.tmp / "empty.bin"
        empty.write_bytes(b"")
        proc = run(["conv", str(empty), "-o", str(self.tmp / "e.pftrace")])
        self.assertExit(proc, 3)
        self.assertIn("empty input", proc.stderr)
        self.assertFalse((self.tmp / "e.pftrace").exists())  # no half-written output left behind

    def test_random_garbage(self):
        garbage = self.tmp / "garbage.bin"
        garbage.write_bytes(bytes((i * 97 + 13) % 256 for i in range(5000)))
        proc = run(["conv", str(garbage), "-o", str(self.tmp / "g.pftrace")])
        self.assertExit(proc, 3)
        self.assertIn("no valid events", proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1)

    def test_truncated_last_frame(self):
        trace = self.trace("baremetal")
        truncated = self.tmp / "truncated.bin"
        truncated.write_bytes(trace.read_bytes()[:-3])
        out = self.tmp / "t.pftrace"
        proc = run(["conv", str(truncated), "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertIn("1 x truncated end [truncated_end]", proc.stderr)
        self.assertIn("stream ends inside a frame", proc.stderr)
        self.assertIn("44 events", proc.stderr)
        view = TraceView(out)
        self.assertEqual(len(view.track("Diagnostics", "")["instants"]), 1)
        self.assertIsNone(view.track("dsp", "")["slices"][-2]["end"])  # its end was in the lost frame
        self.assertExit(run(["conv", "--strict", str(truncated)]), 1)

    def test_corrupted_frame_in_the_middle(self):
        data = bytearray(self.trace("baremetal").read_bytes())
        middle = len(data) // 2
        while data[middle] == 0:
            middle += 1
        data[middle] = 0  # cuts one frame in two
        corrupted = self.tmp / "corrupted.bin"
        corrupted.write_bytes(bytes(data))
        out = self.tmp / "c.pftrace"
        proc = run(["conv", str(corrupted), "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertIn("decode error", proc.stderr)
        self.assertRegex(proc.stderr, r"corrupted\.bin byte \d+")
        view = TraceView(out)
        self.assertEqual(len(view.track("sensor_rdy", "Core 0")["slices"]), 3)  # the rest converts
        self.assertGreaterEqual(len(view.track("Diagnostics", "")["instants"]), 1)

    def test_wrong_mode(self):
        trace = self.trace("freertos")
        proc = run(["conv", "--mode", "bare-metal", str(trace), "-o", str(self.tmp / "w.pftrace")])
        self.assertExit(proc, 0)
        self.assertIn("wrong mode", proc.stderr)
        self.assertIn("--mode freertos", proc.stderr)
        view = TraceView(self.tmp / "w.pftrace")
        self.assertIn("task_switched_in", {i["name"] for i in view.track("Other events", "Core 0")["instants"]})
        self.assertExit(run(["conv", "--strict", "--mode", "bare-metal", str(trace)]), 1)
        bad = run(["conv", "--mode", "linux", str(trace)])
        self.assertExit(bad, 2)
        self.assertIn("--mode", bad.stderr)

    def test_two_files_for_the_same_core(self):
        a, b = self.trace("baremetal", "a.bin"), self.trace("baremetal", "b.bin")
        proc = run(["conv", "-c", "2", f"{a}@0", f"{b}@0"])
        self.assertExit(proc, 2)
        self.assertIn("are both core 0", proc.stderr)
        self.assertExit(run(["conv", f"{a}", f"{b}"]), 2)  # both default to core 0
        self.assertExit(run(["conv", f"{a}@1"]), 2)  # core beyond --core-count

    def test_bad_usage(self):
        self.assertExit(run(["conv"]), 2)
        self.assertExit(run(["conv", "--format", "xml", "x.bin"]), 2)
        self.assertExit(run(["nosuchcommand"]), 2)
        self.assertExit(run([]), 2)


class Dump(CliTestCase):
    def test_text_lines(self):
        proc = run(["dump", str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        lines = proc.stdout.decode().splitlines()
        self.assertEqual(len(lines), 45)
        self.assertEqual(lines[0], "core 0  metadata  ts_resolution_ns ns_per_ts=40")
        self.assertIn("core 0  4000 ns  isr_enter isr_id=1", lines)
        self.assertIn('core 0  4080 ns  evtmarker evtmarker_id=0 msg="rdy"', lines)

    def test_mode_is_accepted_like_other_commands_and_changes_nothing(self):
        trace = str(self.trace("baremetal"))
        plain = run(["dump", trace])
        for mode in ("bare-metal", "freertos", "free-rtos"):
            with self.subTest(mode=mode):
                proc = run(["dump", "--mode", mode, trace])
                self.assertExit(proc, 0)
                self.assertEqual(proc.stdout, plain.stdout)
        proc = run(["dump", "--mode", "threadx", trace])
        self.assertExit(proc, 2)
        self.assertIn("--mode", proc.stderr)

    def test_json_lines_round_trip_to_the_same_events(self):
        encoder = SchemaEncoder()
        for kind in ("baremetal", "freertos"):
            with self.subTest(kind=kind):
                trace = self.trace(kind)
                proc = run(["dump", "--json", str(trace)])
                self.assertExit(proc, 0)
                lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
                self.assertTrue(all("error" not in line for line in lines))
                self.assertEqual(b"".join(encoder.encode(line) for line in lines), trace.read_bytes())

    def test_json_lines_keep_the_bytes_of_strings_that_are_not_utf8(self):
        trace = non_utf8_trace(self.trace("baremetal"), self.tmp / "non_utf8.bin")
        proc = run(["dump", "--json", str(trace)])
        self.assertExit(proc, 0)
        lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
        self.assertEqual(b"".join(SchemaEncoder().encode(line) for line in lines), trace.read_bytes())
        shown = {(line["event"], line["fields"].get("isr_id", line["fields"].get("evtmarker_id"))):
                 (line["fields"].get("name", line["fields"].get("msg")), line.get("bytes_hex")) for line in lines}
        self.assertEqual(shown[("isr_name", 7)], ("ab\\xFF", {"name": "6162ff"}))
        self.assertEqual(shown[("evtmarker_begin", 9)], ("gr\\xC3", {"msg": "6772c3"}))  # "grün" cut in the ü
        self.assertEqual(shown[("evtmarker_name", 9)], ("grün", None))  # valid UTF-8: as it is
        self.assertEqual(shown[("evtmarker", 9)], ("a\\x41", None))
        text = run(["dump", str(trace)]).stdout.decode()
        self.assertIn('isr_name isr_id=7 name="ab\\xFF"', text)

    def test_json_lines_report_errors_with_offsets(self):
        data = self.trace("baremetal").read_bytes()
        bad = self.tmp / "bad.bin"
        cut = data.index(0, 20) + 1  # a frame boundary
        bad.write_bytes(data[:cut] + b"\x02\xee\x00" + data[cut:])
        lines = [json.loads(line) for line in run(["dump", "--json", str(bad)]).stdout.decode().splitlines()]
        errors = [line for line in lines if "error" in line]
        self.assertEqual(len(errors), 1)
        self.assertIn("unknown event id 0xEE", errors[0]["error"])
        self.assertGreater(errors[0]["offset"], 0)

    def test_stats(self):
        proc = run(["dump", "--stats", str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        stats = dict(line.split() for line in proc.stdout.decode().splitlines())
        self.assertEqual(stats["isr_enter"], "6")
        self.assertEqual(stats["events"], "45")
        self.assertEqual(stats["decode_errors"], "0")

    def test_errors(self):
        self.assertExit(run(["dump", str(self.tmp / "missing.bin")]), 3)
        self.assertExit(run(["dump"]), 2)


class Serve(CliTestCase):
    def fetch(self, url):
        request = urllib.request.Request(url, headers={"Origin": "https://ui.perfetto.dev"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.headers, response.read()

    def read_url(self, proc, name):
        """The trace's URL and the port, from the page's URL that serve prints
        first (once it listens)."""
        line = proc.stdout.readline().decode()
        self.assertTrue(line.startswith("Open in Perfetto: http://127.0.0.1:"), line)
        return line.strip().split(": ", 1)[1] + name, served_port(line)

    def test_serve_once_over_loopback(self):
        out = self.tmp / "served.pftrace"
        self.assertExit(run(["conv", str(self.trace("baremetal")), "-o", str(out)]), 0)
        proc = subprocess.Popen([TBAND, "serve", str(out), "--port", "0", "--once"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            url, port = self.read_url(proc, "served.pftrace")
            self.assertNotEqual(port, 0)
            self.assertEqual(url, f"http://127.0.0.1:{port}/served.pftrace")
            self.fetch(f"http://127.0.0.1:{port}/")  # the page is no fetch of the trace
            headers, body = self.fetch(url)
            self.assertEqual(headers["Access-Control-Allow-Origin"], "https://ui.perfetto.dev")
            self.assertEqual(body, out.read_bytes())
            self.assertEqual(proc.wait(timeout=10), 0)  # stops by itself after one fetch
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()

    def test_conv_serve(self):
        """Without -o the served trace is a scratch file in $TMPDIR, gone once
        serving stops (it was left there, one per run)."""
        scratch = self.tmp / "scratch"
        scratch.mkdir()
        proc = subprocess.Popen([TBAND, "conv", str(self.trace("baremetal")), "--serve", "--port", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, TMPDIR=str(scratch)))
        try:
            line = proc.stdout.readline().decode()
            page_url = line.strip().split(": ", 1)[1]
            self.assertEqual(page_url, f"http://127.0.0.1:{served_port(line)}/")
            served = list(scratch.iterdir())
            self.assertEqual(len(served), 1, served)
            self.assertRegex(served[0].name, r"^tband-\w{6}\.pftrace$")
            _, page = self.fetch(page_url)
            name = re.search(r'const TRACE_NAME = "([^"]+)";', page.decode()).group(1)
            headers, body = self.fetch(page_url + name)
            self.assertEqual(headers["Access-Control-Allow-Origin"], "https://ui.perfetto.dev")
            path = self.tmp / "fetched.pftrace"
            path.write_bytes(body)
            self.assertEqual(len(TraceView(path).track("sensor", "")["slices"]), 3)
        finally:
            proc.terminate()  # conv --serve serves until stopped
            proc.wait(timeout=10)
            proc.stdout.close()
            proc.stderr.close()
        self.assertEqual(proc.returncode, -signal.SIGTERM)
        self.assertEqual(list(scratch.iterdir()), [])

    def test_conv_serve_says_where_its_scratch_file_cannot_go(self):
        missing = self.tmp / "no" / "such"
        proc = subprocess.run([TBAND, "conv", str(self.trace("baremetal")), "--serve", "--port", "0"],
                              capture_output=True, text=True, timeout=30, env=dict(os.environ, TMPDIR=str(missing)))
        self.assertEqual(proc.returncode, 4, proc.stderr)
        self.assertIn(f"cannot create a temporary file in {missing} (No such file or directory) for --serve",
                      proc.stderr)

    def test_any_port_serves_the_page_that_opens_the_trace(self):
        out = self.tmp / "served.pftrace"
        out.write_bytes(b"trace bytes")
        proc = subprocess.Popen([TBAND, "serve", str(out), "--port", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            url, port = self.read_url(proc, "served.pftrace")
            self.assertNotEqual(port, 9001)
            headers, page = self.fetch(f"http://127.0.0.1:{port}/")
            self.assertTrue(headers["Content-Type"].startswith("text/html"))
            page = page.decode()
            self.assertIn('<a href="/served.pftrace">', page)
            self.assertIn('const UI_URL = "https://ui.perfetto.dev";', page)
            self.assertIn("window.open(UI_URL)", page)
            self.assertNotIn("ui.perfetto.dev/#!/?url=", page, "no link that cannot work")
            self.assertEqual(self.fetch(url)[1], b"trace bytes")
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            stdout = proc.stdout.read().decode()
            stderr = proc.stderr.read().decode()
            proc.stdout.close()
            proc.stderr.close()
        self.assertNotIn("warning", stderr)
        self.assertNotIn("?url=", stdout, "the UI's link only on 9001")

    def test_port_9001_prints_the_page_and_the_ui_link(self):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", 9001))
            except OSError:
                self.skipTest("port 9001 is taken on this machine")
        out = self.tmp / "served.pftrace"
        out.write_bytes(b"trace bytes")
        proc = subprocess.Popen([TBAND, "serve", str(out), "--port", "9001"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            self.assertEqual(self.read_url(proc, "served.pftrace"), ("http://127.0.0.1:9001/served.pftrace", 9001))
            self.assertEqual(proc.stdout.readline().decode().strip(),
                             "Or the UI's own link (port 9001 only): "
                             "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/served.pftrace")
            _, page = self.fetch("http://127.0.0.1:9001/")
            self.assertIn("https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/served.pftrace", page.decode())
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            proc.stdout.close()
            proc.stderr.close()

    def test_serve_errors(self):
        self.assertExit(run(["serve", str(self.tmp / "missing.pftrace")]), 2)
        out = self.tmp / "x.pftrace"
        out.write_bytes(b"x")
        blocker = subprocess.Popen([TBAND, "serve", str(out), "--port", "0"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            _, port = self.read_url(blocker, "x.pftrace")  # held by the blocker until it ends
            proc = run(["serve", str(out), "--port", str(port)], timeout=10)
            self.assertExit(proc, 4)
            self.assertIn("port in use", proc.stderr)
        finally:
            blocker.terminate()
            blocker.wait(timeout=10)
            blocker.stdout.close()


class Completion(CliTestCase):
    def test_scripts(self):
        for shell in ("bash", "zsh", "fish"):
            with self.subTest(shell=shell):
                proc = run(["completion", shell])
                self.assertExit(proc, 0)
                script = proc.stdout.decode()
                for word in ("conv", "dump", "serve", "completion", "format", "core-count", "strict"):
                    self.assertIn(word, script)
                path = self.tmp / f"tband.{shell}"
                path.write_text(script)
                if shell == "bash":
                    self.assertEqual(subprocess.run(["bash", "-n", str(path)]).returncode, 0)
                elif shutil.which(shell):
                    self.assertEqual(subprocess.run([shell, "-n", str(path)]).returncode, 0)
                else:
                    print(f"note: {shell} not installed, syntax of its script not checked")
        self.assertExit(run(["completion", "powershell"]), 2)

    def test_bash_completion_completes_subcommands_and_options(self):
        script = run(["completion", "bash"]).stdout.decode()
        probe = script + '\nCOMP_WORDS=(tband co); COMP_CWORD=1; _tband; echo "${COMPREPLY[@]}"\n' \
                         'COMP_WORDS=(tband conv --for); COMP_CWORD=2; _tband; echo "${COMPREPLY[@]}"\n'
        out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True).stdout.splitlines()
        self.assertEqual(out[0].split(), ["conv", "completion"])
        self.assertIn("--format", out[1].split())

    def test_bash_completion_completes_option_values(self):
        script = run(["completion", "bash"]).stdout.decode()
        (self.tmp / "trace.bin").write_bytes(b"")
        probes = [
            "COMP_WORDS=(tband conv --mode ''); COMP_CWORD=3",
            "COMP_WORDS=(tband -v dump -f ''); COMP_CWORD=4",
            "COMP_WORDS=(tband completion ''); COMP_CWORD=2",
            "COMP_WORDS=(tband conv -o tr); COMP_CWORD=3",
            "COMP_WORDS=(tband conv --core-count ''); COMP_CWORD=3",
        ]
        probe = script + "".join(f'\n{p}; COMPREPLY=(); _tband; echo "${{COMPREPLY[@]}}"' for p in probes) + "\n"
        out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, cwd=self.tmp.path).stdout.splitlines()
        self.assertEqual(sorted(out[0].split()), ["bare-metal", "free-rtos", "freertos"])
        self.assertIn("hex", out[1].split())
        self.assertIn("auto", out[1].split())
        self.assertEqual(out[2].split(), ["bash", "zsh", "fish"])
        self.assertEqual(out[3].split(), ["trace.bin"], "a file for -o")
        self.assertEqual(out[4], "", "numbers are not completed")

    def test_zsh_and_fish_complete_option_values(self):
        zsh = run(["completion", "zsh"]).stdout.decode()
        self.assertIn("'--mode[How to interpret the trace: bare-metal or freertos]:mode:(bare-metal freertos free-rtos)'",
                      zsh)
        self.assertIn("'--output[Write the Perfetto trace here (- for stdout)]:file:_files'", zsh)
        self.assertIn("'1:value:(bash zsh fish)'", zsh)
        fish = run(["completion", "fish"]).stdout.decode()
        self.assertIn("-l mode -s m -d 'How to interpret the trace: bare-metal or freertos' -x -a 'bare-metal freertos "
                      "free-rtos'", fish)
        self.assertIn("-l output -s o -d 'Write the Perfetto trace here (- for stdout)' -r -F", fish)


class Progress(CliTestCase):
    def test_progress_bar_on_a_terminal_only(self):
        import pty
        trace = self.tmp / "mix.bin"
        make_trace("mix", 300000, trace)
        data = trace.read_bytes()
        master, slave = pty.openpty()
        proc = subprocess.Popen([TBAND, "conv", "-", "-o", str(self.tmp / "p.pftrace")],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        step = len(data) // 20
        for i in range(0, len(data), step):  # a slow producer: about a second in all
            proc.stdin.write(data[i:i + step])
            proc.stdin.flush()
            time.sleep(0.05)
        proc.stdin.close()
        self.assertEqual(proc.wait(timeout=30), 0)
        output = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        os.close(master)
        text = output.decode(errors="replace")
        self.assertIn("MB read", text)    # stdin: size unknown, so bytes instead of a bar
        self.assertIn("\r\x1b[K", text)   # cleared before the summary
        self.assertIn("300004 events", text)
        quiet = run(["conv", str(trace)])  # stderr is a pipe: no bar
        self.assertNotIn("MB read", quiet.stderr)
        self.assertNotIn("\r", quiet.stderr)


class Misc(CliTestCase):
    def test_version_and_help(self):
        proc = run(["--version"])
        self.assertExit(proc, 0)
        self.assertRegex(proc.stdout.decode(), r"^tband \d+\.\d+\.\d+ \(schema [0-9a-f]{16}\)")
        help_text = run(["--help"]).stdout.decode()
        self.assertIn("Examples:", help_text)
        self.assertIn("Exit codes", help_text)
        conv_help = run(["conv", "--help"]).stdout.decode()
        for option in ("--format", "--mode", "--core-count", "--output", "--json", "--open", "--serve", "--strict"):
            self.assertIn(option, conv_help)

    def test_mistyped_command_suggests_the_nearest(self):
        for typo, nearest in (("cnv", "conv"), ("sever", "serve"), ("dmp", "dump"), ("stat", "stats")):
            with self.subTest(typo=typo):
                proc = run([typo, "trace.bin"])
                self.assertExit(proc, 2)
                self.assertIn(f"unknown command '{typo}'; did you mean '{nearest}'", proc.stderr)
                self.assertNotIn("A subcommand is required", proc.stderr)
        proc = run(["-v", "frobnicate"])
        self.assertExit(proc, 2)
        self.assertIn("unknown command 'frobnicate'\nCommands: conv dump serve", proc.stderr)
        self.assertIn("Run 'tband --help'", proc.stderr)

    def test_help_footer_on_the_top_level_help_only(self):
        self.assertIn("Examples:", run(["--help"]).stdout.decode())
        for command in ("conv", "dump", "serve", "stats", "completion"):
            with self.subTest(command=command):
                help_text = run([command, "--help"]).stdout.decode()
                self.assertIn("Usage", help_text)
                self.assertNotIn("Examples:", help_text)
                self.assertNotIn("Exit codes", help_text)

    def test_conv_without_an_output_says_what_to_do(self):
        trace = self.trace("baremetal")
        proc = run(["conv", str(trace)])
        self.assertExit(proc, 0)  # a check of the trace, as --strict in CI uses it
        self.assertIn("checked only, nothing written: add -o FILE.pftrace (Perfetto), --json FILE.json, --vcd FILE.vcd "
                      "or --serve",
                      proc.stderr)
        written = run(["conv", str(trace), "-o", str(self.tmp / "t.pftrace")])
        self.assertNotIn("nothing written", written.stderr)

    def test_quiet_and_very_verbose(self):
        trace = self.trace("baremetal")
        out = str(self.tmp / "q.pftrace")
        quiet = run(["-q", "conv", str(trace), "-o", out])
        self.assertExit(quiet, 0)
        self.assertEqual(quiet.stderr, "")
        self.assertEqual(run(["--quiet", "stats", str(trace)]).stderr, "")
        strict = run(["-q", "conv", "--strict", "--mode", "bare-metal", str(self.trace("freertos"))])
        self.assertExit(strict, 1)
        self.assertRegex(strict.stderr, r"^tband conv: error: \d+ warning\(s\) and --strict\n$")
        once = run(["-v", "conv", str(trace), "-o", out])
        twice = run(["-vv", "conv", str(trace), "-o", out])
        self.assertNotIn("events/s", once.stderr)
        self.assertRegex(twice.stderr, r"tband conv: \d+\.\d+ s: \d+\.\d+ M events/s, \d+\.\d+ MB/s")
        self.assertRegex(run(["-vv", "stats", str(trace)]).stderr, r"tband stats: \d+\.\d+ s: ")
        self.assertExit(run(["-q", "-v", "conv", str(trace)]), 2)

    def test_verbose_prints_per_input_notes(self):
        log = self.tmp / "uart.log"
        data = self.trace("baremetal").read_bytes()
        log.write_text("hello\n" + base64.b64encode(data).decode() + "\n")
        proc = run(["-v", "conv", str(log)])
        self.assertExit(proc, 0)
        self.assertIn("format base64, 1 base64 line(s) decoded, 1 log line(s) skipped", proc.stderr)


if __name__ == "__main__":
    unittest.main()
