"""The web converter (tband.js + tband.wasm, scripts/build_web.sh) against the
native CLI: the same bytes out (.pftrace and JSON), the same figures and the same messages.

Needs TBAND_WEB_DIR (the built page folder; CTest's web.build makes it) and
node; skipped with a message when either is missing."""
import gzip
import json
import os
import random
import shutil
import subprocess
import unittest
from pathlib import Path

from tests.cli.support import ROOT, TempDir, make_trace, run

WEB_DIR = Path(os.environ.get("TBAND_WEB_DIR", ROOT / "build-web/web"))
NODE = shutil.which("node")
RUNNER = ROOT / "tests/web/tband_node.js"
DESCRIPTOR = Path(os.environ.get("TBAND_LAB_DESCRIPTOR", ROOT / "build/generated_lab/descriptor/tband_schema.json"))
VECTORS = ROOT / "tests/vectors"


def web_missing():
    if NODE is None:
        return "node is not installed (apt-get install -y nodejs)"
    if not (WEB_DIR / "tband.js").exists():
        return f"no web build in {WEB_DIR} (scripts/build_web.sh; needs emscripten: scripts/setup.sh --tests)"
    return None


class WebCase(unittest.TestCase):
    def setUp(self):
        missing = web_missing()
        if missing:
            self.skipTest(missing)
        self.tmp = TempDir()
        self.addCleanup(self.tmp.cleanup)

    def both(self, inputs, *options, cwd=None):
        """Converts `inputs` (paths, 'path@core' allowed) natively and in
        WebAssembly, from the inputs' folder so both name them alike; returns
        (native process, web summary, native json bytes, web json bytes)."""
        cwd = cwd or Path(inputs[0].split("@")[0]).parent
        rel = [os.path.relpath(i, cwd) for i in inputs]
        native_json, web_json = self.tmp / "native.json", self.tmp / "web.json"
        native_options = [os.path.relpath(o, cwd) if os.path.isabs(o) and os.path.exists(o) else o for o in options]
        native = subprocess.run([os.environ.get("TBAND_EXE", str(ROOT / "build/host/cli/tband")), "conv", *native_options,
                                 *rel, "--json", str(native_json), "-o", str(self.tmp / "native.pftrace")], cwd=cwd, capture_output=True, text=True,
                                timeout=120)
        web = subprocess.run([NODE, str(RUNNER), str(WEB_DIR), *options, *[str(Path(cwd) / r) for r in rel],
                              "--json", str(web_json), "-o", str(self.tmp / "web.pftrace")], capture_output=True, text=True, timeout=120)
        self.assertEqual(web.stderr, "")
        summary = json.loads(web.stdout)
        self.assertEqual(web.returncode, summary["exit_code"])
        return (native, summary, native_json.read_bytes() if native_json.exists() else None,
                web_json.read_bytes() if web_json.exists() else None)

    def assertSame(self, inputs, *options):
        native, summary, native_json, web_json = self.both(inputs, *options)
        self.assertEqual(native.returncode, 0, native.stderr)
        self.assertEqual(summary["exit_code"], 0, summary)
        self.assertGreater(len(native_json), 100)
        self.assertEqual(native_json, web_json, "the JSON outputs differ")
        native_pftrace = (self.tmp / "native.pftrace").read_bytes()
        self.assertGreater(len(native_pftrace), 100)
        self.assertEqual(native_pftrace, (self.tmp / "web.pftrace").read_bytes(), "the .pftrace outputs differ")
        line = native.stderr.splitlines()[0]
        self.assertTrue(line.startswith(f"tband conv: {summary['events']} events from {summary['input_bytes']} bytes"),
                        (line, summary["events"]))
        self.assertIn(f"; {summary['tracks']} tracks", line)
        self.assertIn(f"; {summary['dropped_events']} dropped on the target", line)
        self.assertIn(summary["diagnostics_text"], native.stderr)
        # The same warnings, one for one: schema conflicts in the CLI's words, tick options in the page's.
        warnings = [w.removeprefix("tband conv: warning: ") for w in native.stderr.splitlines()
                    if w.startswith("tband conv: warning: ")]
        unused = summary["unused_options"]
        self.assertEqual(warnings[len(unused):], summary["schema_conflicts"])
        self.assertEqual(len(warnings), len(unused) + len(summary["schema_conflicts"]))
        page_terms = {"--ts-resolution-ns": "the Tick length", "--threadx-clock-hz": "the ThreadX clock"}
        for cli_text, page_text in zip(warnings, unused):
            flag = cli_text.split()[0]
            self.assertTrue(page_text.startswith(page_terms[flag] + " has no effect on "), (cli_text, page_text))
            self.assertNotIn("--", page_text)
        return native, summary

    def assertSameError(self, inputs, *options):
        native, summary, _, web_json = self.both(inputs, *options)
        self.assertNotEqual(native.returncode, 0)
        self.assertEqual(summary["exit_code"], native.returncode, (summary, native.stderr))
        self.assertIsNone(web_json)
        self.assertEqual(native.stderr.strip(), "tband conv: error: " + summary["error"])
        return summary


class WebSameOutput(WebCase):
    def test_demo_trace(self):
        _, summary = self.assertSame([str(VECTORS / "demo_qemu_uart.bin")])
        self.assertEqual(summary["events"], 4319)

    def test_outputs_through_the_file_system(self):
        # tband_node.js streams the outputs ("js:NAME" paths); a path in the module's file system gives the same bytes.
        trace = VECTORS / "demo_qemu_uart.bin"
        native = run(["conv", str(trace), "-o", str(self.tmp / "native.pftrace")])
        self.assertEqual(native.returncode, 0, native.stderr)
        web = subprocess.run([NODE, str(RUNNER), str(WEB_DIR), "--fs-output", str(trace), "-o", str(self.tmp / "web.pftrace")],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(web.returncode, 0, web.stdout + web.stderr)
        self.assertEqual((self.tmp / "web.pftrace").read_bytes(), (self.tmp / "native.pftrace").read_bytes())

    def test_after_the_warm_up(self):
        # The page's worker converts a built-in trace while it waits for a file (host/web/warm_up.cpp):
        # every round succeeds, and a conversion after them gives the CLI's bytes, so the warm-up leaves
        # nothing behind that a user's trace could see. A FreeRTOS trace: other events than the warm-up's.
        trace = self.tmp / "freertos.bin"
        make_trace("freertos", trace)
        native = run(["conv", str(trace), "-o", str(self.tmp / "native.pftrace"), "--json", str(self.tmp / "native.json")])
        self.assertEqual(native.returncode, 0, native.stderr)
        web = subprocess.run([NODE, str(RUNNER), str(WEB_DIR), "--warm-up", "3", str(trace), "-o", str(self.tmp / "web.pftrace"),
                              "--json", str(self.tmp / "web.json")], capture_output=True, text=True, timeout=120)
        self.assertEqual(web.returncode, 0, web.stdout + web.stderr)
        summary = json.loads(web.stdout)
        self.assertEqual(summary["warm_up"], [0, 0, 0])
        self.assertEqual((self.tmp / "web.pftrace").read_bytes(), (self.tmp / "native.pftrace").read_bytes())
        self.assertEqual((self.tmp / "web.json").read_bytes(), (self.tmp / "native.json").read_bytes())
        self.assertEqual(summary["events"], int(native.stderr.split(" events")[0].split()[-1]))

    def test_freertos_scenario(self):
        path = self.tmp / "freertos.bin"
        make_trace("freertos", path)
        self.assertSame([str(path)])

    def test_bare_metal(self):
        self.assertSame([str(VECTORS / "reference_baremetal.bin")], "--mode", "bare-metal")

    def test_two_cores(self):
        make_trace("dualcore", self.tmp / "core")
        _, summary = self.assertSame([f"{self.tmp / 'core0.bin'}@0", f"{self.tmp / 'core1.bin'}@1"], "--core-count", "2")
        self.assertEqual(summary["stats"]["figures"]["cores"], 2)

    def test_user_events_with_a_descriptor(self):
        path = self.tmp / "lab.bin"
        make_trace("lab", path)
        shutil.copy(DESCRIPTOR, self.tmp / "lab_schema.json")
        self.assertSame([str(path)], "--schema", str(self.tmp / "lab_schema.json"))

    def test_decode_errors_are_the_same_diagnostics(self):
        path = self.tmp / "damaged.bin"
        data = bytearray((VECTORS / "demo_qemu_uart.bin").read_bytes())
        for at in range(1000, len(data), 3001):
            data[at] ^= 0x5A
        path.write_bytes(bytes(data))
        _, summary = self.assertSame([str(path)])
        kinds = {d["id"]: d for d in summary["diagnostics"]}
        self.assertIn("decode_error", kinds)
        self.assertIn("byte", kinds["decode_error"]["first"][0])

    def test_a_trace_without_its_resolution_and_the_tick_given(self):
        # Recorded after the target started: the reference trace without its ts_resolution_ns frame (4 bytes).
        path = self.tmp / "joined_late.bin"
        path.write_bytes((VECTORS / "reference_baremetal.bin").read_bytes()[4:])
        native, summary = self.assertSame([str(path)], "--mode", "bare-metal", "--ts-resolution-ns", "1000")
        self.assertEqual(summary["diagnostics"], [])
        self.assertEqual(summary["stats"]["figures"]["duration"], 40_000)  # 40 ticks of 1 us
        # Without it: 1 ns per tick, and the same warning as the CLI's.
        _, summary = self.assertSame([str(path)], "--mode", "bare-metal")
        self.assertEqual([d["id"] for d in summary["diagnostics"]], ["no_timestamp_resolution"])

    def test_a_threadx_buffer_with_the_tick_given(self):
        # The tick length is for tband traces: said as the CLI says it, in the page's terms, and the buffer
        # converts as without it.
        trx = str(ROOT / "tests/threadx/vectors/linux_le32.trx")
        native, summary = self.assertSame([trx], "--ts-resolution-ns", "1000")
        self.assertEqual(summary["unused_options"], [
            "the Tick length has no effect on linux_le32.trx, a ThreadX trace buffer: "
            "give its timer's rate as the ThreadX clock"])
        _, plain = self.assertSame([trx])
        self.assertEqual(plain["unused_options"], [])
        self.assertEqual(plain["events"], summary["events"])

    def test_a_threadx_buffer_with_its_clock_rate(self):
        # --threadx-clock-hz 2000000: the CLI's bytes, times half those at the default 1 MHz.
        trx = str(ROOT / "tests/threadx/vectors/linux_le32.trx")
        _, fast = self.assertSame([trx], "--threadx-clock-hz", "2000000")
        _, slow = self.assertSame([trx])
        self.assertEqual(fast["duration_ns"] * 2, slow["duration_ns"])
        self.assertEqual(fast["unused_options"], [])
        # On a tband trace: said as the CLI says it, in the page's terms.
        _, summary = self.assertSame([str(VECTORS / "demo_qemu_uart.bin")], "--threadx-clock-hz", "2000000")
        self.assertEqual(len(summary["unused_options"]), 1)
        self.assertEqual(summary["unused_options"], [
            "the ThreadX clock has no effect on tband traces (demo_qemu_uart.bin): their tick length is in the "
            "trace, or given as the Tick length"])

    def test_stats_are_those_of_stats_json(self):
        trace = VECTORS / "demo_qemu_uart.bin"
        native = run(["stats", "--json", str(trace)])
        self.assertEqual(native.returncode, 0, native.stderr)
        _, summary, _, _ = self.both([str(trace)])
        self.assertEqual(summary["stats"], json.loads(native.stdout))


class WebSameErrors(WebCase):
    def test_empty_file(self):
        (self.tmp / "empty.bin").write_bytes(b"")
        self.assertIn("empty input", self.assertSameError([str(self.tmp / "empty.bin")])["error"])

    def test_random_bytes(self):
        (self.tmp / "noise.bin").write_bytes(random.Random(27).randbytes(20000))
        self.assertSameError([str(self.tmp / "noise.bin")])

    def test_a_json_that_is_not_a_descriptor(self):
        (self.tmp / "package.json").write_text('{"name": "not a descriptor"}')
        shutil.copy(VECTORS / "demo_qemu_uart.bin", self.tmp / "demo.bin")
        self.assertSameError([str(self.tmp / "demo.bin")], "--schema", str(self.tmp / "package.json"))

    def test_compressed_input_asks_to_decompress_first(self):
        path = self.tmp / "demo.bin.gz"
        path.write_bytes(gzip.compress((VECTORS / "demo_qemu_uart.bin").read_bytes()))
        _, summary, _, _ = self.both([str(path)])
        self.assertEqual(summary["exit_code"], 3)
        self.assertEqual(summary["error"], "demo.bin.gz: compressed input (gzip): this build cannot decompress it, "
                                           "decompress it first")

    # A bad number is a usage error on both sides, each naming where it was
    # typed: the CLI its flag, the page its field (no flag the user never saw).
    def test_a_tick_out_of_range_is_a_usage_error(self):
        trace = str(VECTORS / "reference_baremetal.bin")
        for bad in ("3600000000001", "-5", "1.5"):
            native, summary, _, _ = self.both([trace], "--ts-resolution-ns", bad)
            self.assertEqual(summary["exit_code"], 2, summary)
            self.assertEqual(native.returncode, 2, native.stderr)
            self.assertIn("--ts-resolution-ns", native.stderr)
            self.assertEqual(summary["error"], f"the Tick length is {bad}: give a whole number of nanoseconds "
                                               "from 1 to 3600000000000")

    def test_a_threadx_clock_out_of_range_is_a_usage_error(self):
        trx = str(ROOT / "tests/threadx/vectors/linux_le32.trx")
        for bad in ("10000000001", "-5", "1.5"):
            native, summary, _, _ = self.both([trx], "--threadx-clock-hz", bad)
            self.assertEqual(summary["exit_code"], 2, summary)
            self.assertEqual(native.returncode, 2, native.stderr)
            self.assertIn("--threadx-clock-hz", native.stderr)
            self.assertEqual(summary["error"], f"the ThreadX clock is {bad}: give a whole number of ticks per second "
                                               "from 1 to 10000000000")

    def test_same_core_twice_is_a_usage_error(self):
        trace = str(VECTORS / "demo_qemu_uart.bin")
        shutil.copy(trace, self.tmp / "b.bin")
        shutil.copy(trace, self.tmp / "a.bin")
        self.assertSameError([str(self.tmp / "a.bin"), str(self.tmp / "b.bin")], "--core-count", "2")


if __name__ == "__main__":
    unittest.main()
