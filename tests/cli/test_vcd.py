"""tband conv --vcd: the trace as waveforms, read back by independent tools
from Debian and compared, signal by signal, with what the same conversion
writes as JSON (the model's other text output):

- GTKWave's vcd2fst converts the VCD with no error, and fst2vcd writes it back
  out as GTKWave read it: every signal (levels, nesting depths, name codes
  through the .filter file, counters, events) must change exactly when the
  trace says;
- a core's isr.active (the innermost running handler's id) and
  Running_task_id follow the ISR entries and exits and the task switches of
  `tband dump --json` of the same inputs (nesting too), and the .gtkw save
  file lists exactly the signals GTKWave read, with existing filter files;
- sigrok-cli (libsigrok) reads the 1-bit signals of `--vcd-logic` (libsigrok
  0.5.2 reads only those, and stops at the first multi-bit value): every
  slice begin and end, ISR entries and exits among them, at the exact
  nanosecond.

Traces: the reference's committed bare-metal trace, the FreeRTOS scenario of
tband_make_trace, its dual-core trace, and the user-events (lab) schema's
traces with display rules (spans, counters, instants, diagnostics)."""
import json
import re
import shutil
import subprocess
import unittest
from pathlib import Path

from .support import ROOT, make_trace, run
from .test_cli import CliTestCase
from .test_schemas import DESCRIPTOR
from .vcd_read import steps, through_gtkwave, through_sigrok, wire_paths

REFERENCE_TRACE = ROOT / "tests/vectors/reference_baremetal.bin"
TOOLS = ("sigrok-cli", "vcd2fst", "fst2vcd")


def reference(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "_"


def from_dump(events):
    """What the trace itself says (tband dump --json lines), per core name
    ("Core 0"): the ISRs' track names, the active ISR's id and the running
    task's id over time ("z": none)."""
    isr_names, active, tasks, stacks = {}, {}, {}, {}
    for e in events:
        core, fields = f"Core {e['core']}", e["fields"]
        if e["event"] == "isr_name":
            isr_names.setdefault(core, {})[fields["isr_id"]] = fields["name"]
        elif e["event"] in ("isr_enter", "isr_exit"):
            stack = stacks.setdefault(core, [])
            if e["event"] == "isr_enter":
                stack.append(fields["isr_id"])
            elif fields["isr_id"] in stack:  # an exit ends the handler's latest entry
                del stack[len(stack) - 1 - stack[::-1].index(fields["isr_id"])]
            active.setdefault(core, []).append((e["ts_ns"], stack[-1] if stack else "z"))
        elif e["event"] == "task_switched_in":
            tasks.setdefault(core, []).append((e["ts_ns"], fields["task_id"]))
    isrs = {core: {isr_names.get(core, {}).get(i, f"ISR {i}") for _, i in changes if i != "z"}
            for core, changes in active.items()}
    return {"isrs": isrs, "active": active, "tasks": tasks}


def expected_from_json(doc, trace):
    """What each signal must show, from the JSON output of the same
    conversion: {path: ("level"|"depth"|"name"|"event"|"event_name"|"counter", [(t, value)])}
    with names as text ("": none; name codes are looked up in the .filter),
    and from the trace's own events (from_dump()): the handlers in their
    core's isr scope, "id" signals isr.active and Running_task_id."""
    process = {}                # pid -> process name
    tracks = {}                 # (pid, tid) -> dict
    counters = {}               # (pid, name) -> [(t, value)]
    events = doc["traceEvents"]
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            t = tracks.setdefault((e["pid"], e["tid"]), {"open": [], "level": [], "depth": [], "name": [],
                                                          "events": [], "event_names": [], "max": 0,
                                                          "names_differ": False, "slices": False,
                                                          "instant_names_differ": False})
            t["track_name"] = e["args"]["name"]
    for e in events:
        ts = round(e.get("ts", 0) * 1000)
        if e["ph"] == "B":
            t = tracks[(e["pid"], e["tid"])]
            t["open"].append(e["name"])
            t["slices"] = True
            t["names_differ"] |= e["name"] != t["track_name"]
        elif e["ph"] == "E":
            t = tracks[(e["pid"], e["tid"])]
            if t["open"]:
                t["open"].pop()
        elif e["ph"] == "i":
            t = tracks[(e["pid"], e["tid"])]
            t["events"].append(ts)
            t["event_names"].append((ts, e["name"]))
            t["instant_names_differ"] |= e["name"] != t["track_name"]
            continue
        elif e["ph"] == "C":
            counters.setdefault((e["pid"], e["name"]), []).append((ts, e["args"]["value"]))
            continue
        else:
            continue
        t["max"] = max(t["max"], len(t["open"]))
        t["level"].append((ts, 1 if t["open"] else 0))
        t["depth"].append((ts, len(t["open"])))
        t["name"].append((ts, t["open"][-1] if t["open"] else ""))
    first = min([ts for t in tracks.values() for ts, _ in t["level"]] + [ts for t in tracks.values() for ts in
                 t["events"]] + [c[0][0] for c in counters.values()])

    def scope(pid):
        return reference(process[pid]) + "." if pid in process and pid != 0 else ""

    def last_per_time(changes, initial):
        by_time = {first: initial}
        for ts, v in changes:
            by_time[ts] = v
        return steps(sorted(by_time.items()))

    expected = {}
    for core, changes in trace["active"].items():
        expected[reference(core) + ".isr.active"] = ("id", last_per_time(changes, "z"))
    for core, changes in trace["tasks"].items():
        expected[reference(core) + ".Running_task_id"] = ("id", last_per_time(changes, "z"))
    for (pid, _tid), t in tracks.items():
        base = scope(pid) + reference(t["track_name"])
        if t["track_name"] in trace["isrs"].get(process.get(pid), ()):
            base = scope(pid) + "isr." + reference(t["track_name"])
        if t["slices"]:
            expected[base] = ("level", last_per_time(t["level"], 0))
            if t["max"] > 1:
                expected[base + "_depth"] = ("depth", last_per_time(t["depth"], 0))
            if t["track_name"] == "Running task" and process.get(pid, "").startswith("Core "):
                pass  # the task's id: from the trace
            elif t["names_differ"]:
                expected[base + "_name"] = ("name", last_per_time(t["name"], ""))
        if t["events"]:
            name = base + "_instant" if t["slices"] else base
            expected[name] = ("event", sorted(set(t["events"])))
            if t["instant_names_differ"]:
                expected[name + "_name"] = ("event_name", last_per_time(t["event_names"], ""))
    for (pid, name), samples in counters.items():
        by_time = {}
        for ts, v in samples:
            by_time[ts] = v
        expected[scope(pid) + reference(name)] = ("counter", steps(sorted(by_time.items())))
    return expected


@unittest.skipUnless(all(shutil.which(t) for t in TOOLS), "needs sigrok-cli and gtkwave (scripts/setup.sh)")
class Vcd(CliTestCase):
    def convert(self, *args, name="t"):
        vcd, js = self.tmp / f"{name}.vcd", self.tmp / f"{name}.json"
        proc = run(["conv", *map(str, args), "--vcd", str(vcd), "--json", str(js)])
        self.assertExit(proc, 0)
        self.assertIn(f"{vcd}: ", proc.stderr)
        self.conv_args = args
        return vcd, json.loads(js.read_text())

    def codes(self, vcd):
        """The .filter file: code -> name (each code once in decimal, once in
        8-digit hex as GTKWave shows a 32-bit value)."""
        decimal, hexadecimal = {}, {}
        for line in Path(f"{vcd}.filter").read_text().splitlines():
            if line.startswith("#"):
                continue
            code, _, name = line.partition(" ")
            if len(code) == 8:
                hexadecimal[int(code, 16)] = name
            else:
                decimal[int(code)] = name
        self.assertEqual(decimal, hexadecimal)
        self.assertEqual(sorted(decimal), list(range(1, len(decimal) + 1)))
        return decimal

    def logic_only(self, vcd):
        """The same conversion with --vcd-logic."""
        logic = vcd.with_suffix(".logic.vcd")
        proc = run(["conv", *map(str, self.conv_args), "--vcd", str(logic), "--vcd-logic"])
        self.assertExit(proc, 0)
        self.assertNotRegex(logic.read_text(), r"\$var (?!wire 1 )")
        self.assertEqual(list(wire_paths(logic.read_text())), list(wire_paths(vcd.read_text())))
        return logic

    def dump(self):
        """The converted inputs' events (tband dump --json; each input with
        its @core, so no core count)."""
        args = list(map(str, self.conv_args))
        if "-c" in args:
            del args[args.index("-c"):args.index("-c") + 2]
        proc = run(["dump", "--json", *args])
        self.assertExit(proc, 0)
        return [json.loads(line) for line in proc.stdout.splitlines()]

    def id_names(self, path):
        """An id translate filter (FILE.tasks.filter, FILE.isrs.filter): id -> name."""
        names = {}
        for line in Path(path).read_text().splitlines()[1:]:
            value, _, name = line.partition(" ")
            names.setdefault(int(value, 16) if len(value) == 8 else int(value), set()).add(name)
        return {i: n.pop() for i, n in names.items() if len(n) == 1}

    def check_save_file(self, vcd, read):
        """FILE.gtkw names the dump and lists every signal GTKWave read, once,
        in balanced groups, with filter files that exist."""
        lines = Path(f"{vcd}.gtkw").read_text().splitlines()
        self.assertIn(f'[dumpfile] "{vcd.resolve()}"', lines)
        listed = [line.removeprefix("tband.") for line in lines if line.startswith("tband.")]
        self.assertEqual(sorted(listed), sorted(read))
        filters = {line.split(" ", 1)[1] for line in lines if line.startswith("^")}
        self.assertTrue(filters <= {str(vcd.resolve()) + s for s in (".filter", ".tasks.filter", ".isrs.filter")},
                        filters)
        groups = [line for line in lines if line.startswith(("@800200", "@1000200"))]
        self.assertEqual(groups, ["@800200", "@1000200"] * (len(groups) // 2))

    def check(self, vcd, doc):
        """Every signal against the JSON and the trace's own events; returns
        the expected signals."""
        trace = from_dump(self.dump())
        expected = expected_from_json(doc, trace)
        self.assertTrue(expected)
        codes = self.codes(vcd)
        read, messages = through_gtkwave(vcd)
        self.assertNotRegex(messages, r"(?i)error|warning|malformed")
        # Same signals, nothing more and nothing less.
        self.assertEqual(sorted(read), sorted(expected))
        self.check_save_file(vcd, read)
        for path, (kind, want) in expected.items():
            got = read[path]["changes"]
            if kind == "event":
                self.assertEqual(sorted({t for t, _ in got}), want, path)
                self.assertEqual(read[path]["type"], "event", path)
                continue
            got = steps(got)
            if kind in ("name", "event_name"):
                got = [(t, codes[v] if v else "") for t, v in got]  # code 0: nothing open
            if kind == "counter":
                if read[path]["type"] == "integer":  # signed, two's complement
                    got = [(t, v - (1 << 64) if v >= 1 << 63 else v) for t, v in got]
                self.assertEqual([t for t, _ in got], [t for t, _ in want], path)
                for (_, g), (_, w) in zip(got, want):
                    self.assertAlmostEqual(g, w, places=9, msg=path)
            else:
                self.assertEqual(got, want, path)
        by_sigrok = through_sigrok(self.logic_only(vcd))
        levels = {p: w for p, (k, w) in expected.items() if k == "level"}
        self.assertEqual(sorted(by_sigrok), sorted(levels))
        for path, want in levels.items():
            # The logic-only dump may start later (no counter before): edges from the first high.
            self.assertEqual(steps(by_sigrok[path], low_start=False), steps(want, low_start=False),
                             f"{path} as sigrok reads it")
        return expected

    # ---- traces ----------------------------------------------------------------------

    def test_reference_bare_metal_trace_every_isr_edge(self):
        vcd, doc = self.convert("--mode", "bare-metal", REFERENCE_TRACE)
        expected = self.check(vcd, doc)
        # The reference's ISRs: 0 runs 10..16 ns with ISR 1 nested in it at 12..14.
        self.assertEqual(expected["Core_0.isr.ISR0"][1], [(10, 1), (16, 0)])
        self.assertEqual(expected["Core_0.isr.ISR1"][1], [(10, 0), (12, 1), (14, 0)])
        self.assertEqual(expected["Core_0.isr.active"][1], [(10, 0), (12, 1), (14, 0), (16, "z")])
        self.assertEqual(self.id_names(f"{vcd}.isrs.filter"), {0: "ISR0", 1: "ISR1"})

    def test_freertos_scenario_tasks_states_and_queues(self):
        vcd, doc = self.convert(self.trace("freertos"))
        expected = self.check(vcd, doc)
        # The trace's task ids, named by the .tasks.filter.
        running = {i for _, i in expected["Core_0.Running_task_id"][1] if i != "z"}
        self.assertEqual(running, {e["fields"]["task_id"] for e in self.dump() if e["event"] == "task_switched_in"})
        names = self.id_names(f"{vcd}.tasks.filter")
        self.assertEqual({names[i].split(" (")[0] for i in running}, {"IDLE", "sender", "receiver"})
        self.assertIn("sender.State_name", expected)
        self.assertIn("jobs_fill", expected)

    def test_two_cores_on_one_time_base(self):
        prefix = self.tmp / "core"
        make_trace("dualcore", prefix)
        vcd, doc = self.convert("-c", "2", f"{prefix}0.bin@0", f"{prefix}1.bin@1")
        expected = self.check(vcd, doc)
        self.assertTrue(any(p.startswith("Core_0.") for p in expected))
        self.assertTrue(any(p.startswith("Core_1.") for p in expected))

    @unittest.skipUnless(DESCRIPTOR.is_file(), "needs the lab descriptor (build target tband_generated_lab)")
    def test_user_events_spans_counters_and_instants(self):
        lab = self.tmp / "lab.bin"
        make_trace("lab", lab)
        vcd, doc = self.convert(lab, "--schema", DESCRIPTOR)
        expected = self.check(vcd, doc)
        self.assertEqual(expected["jobs_depth"][1], [(0, 0), (1100, 1), (1200, 2), (1400, 1), (1700, 0)])
        self.assertEqual(expected["motor_1_speed__rpm_"][1], [(1150, 1500.5), (1650, 1480)])
        text = vcd.read_text()
        self.assertRegex(text, r"\$var real 64 \S+ motor_1_speed__rpm_ \$end")

    @unittest.skipUnless(DESCRIPTOR.is_file(), "needs the lab descriptor (build target tband_generated_lab)")
    def test_diagnostics_are_signals_too(self):
        spans = self.tmp / "spans.bin"
        make_trace("lab-spans", spans)
        vcd, doc = self.convert(spans, "--schema", DESCRIPTOR)
        expected = self.check(vcd, doc)
        self.assertTrue(any(p.startswith("Diagnostics") for p in expected), sorted(expected))

    def open_in_gtkwave(self, vcd):
        """Opens VCD's save file in GTKWave at a task switch in the middle of
        the FreeRTOS scenario; checks what it shows."""
        switches = [(e["ts_ns"], e["fields"]["task_id"]) for e in self.dump() if e["event"] == "task_switched_in"]
        (t0, task), (t1, _) = switches[len(switches) // 2:len(switches) // 2 + 2]
        script = self.tmp / "show.tcl"
        script.write_text(f"""gtkwave::setMarker {(t0 + t1) // 2}
for {{set i 0}} {{$i < [gtkwave::getTotalNumTraces]}} {{incr i}} {{
  puts "TRACE [gtkwave::getTraceNameFromIndex $i]=[gtkwave::getTraceValueAtMarkerFromIndex $i]"
}}
puts "SIGNALS [gtkwave::getDisplayedSignals]"
puts "DUMPFILE [gtkwave::getDumpFileName]"
gtkwave::/File/Quit
""")
        proc = subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", str(script), f"{vcd}.gtkw"], capture_output=True,
                              text=True, timeout=120)
        self.assertIn(f"DUMPFILE {vcd}\n", proc.stdout, proc.stdout + proc.stderr)
        shown = dict(line[6:].split("=", 1) for line in proc.stdout.splitlines() if line.startswith("TRACE "))
        # The task id shown by its name through the .tasks.filter the save file attaches.
        self.assertEqual(shown.get("Running_task_id"), self.id_names(f"{vcd}.tasks.filter")[task], proc.stdout)
        signals = next(line for line in proc.stdout.splitlines() if line.startswith("SIGNALS ")).split()[1:]
        listed = [line for line in Path(f"{vcd}.gtkw").read_text().splitlines() if line.startswith("tband.")]
        self.assertEqual(signals, listed)

    @unittest.skipUnless(shutil.which("xvfb-run"), "needs xvfb-run to start GTKWave (scripts/setup.sh)")
    def test_gtkwave_opens_the_save_file_with_task_names(self):
        vcd, _doc = self.convert(self.trace("freertos"))
        self.open_in_gtkwave(vcd)

    @unittest.skipUnless(shutil.which("xvfb-run"), "needs xvfb-run to start GTKWave (scripts/setup.sh)")
    def test_gtkwave_opens_the_save_file_of_a_moved_folder(self):
        # A colleague gets the folder, or it is renamed: the save file's
        # absolute paths are gone, GTKWave finds the files beside it.
        (self.tmp / "made").mkdir()
        vcd, _doc = self.convert(self.trace("freertos"), name="made/t")
        (self.tmp / "made").rename(self.tmp / "moved")
        self.open_in_gtkwave(self.tmp / "moved" / "t.vcd")

    # ---- outputs ---------------------------------------------------------------------

    def test_stdout_and_no_filter_file(self):
        proc = run(["conv", "--mode", "bare-metal", str(REFERENCE_TRACE), "--vcd", "-"])
        self.assertExit(proc, 0)
        self.assertTrue(proc.stdout.startswith(b"$version tband $end"))
        self.assertEqual(list(self.tmp.path.iterdir()), [])
        both = run(["conv", "--mode", "bare-metal", str(REFERENCE_TRACE), "--vcd", "-", "--json", "-"])
        self.assertExit(both, 2)
        self.assertIn("only one of -o -, --json - and --vcd - can write to stdout", both.stderr)

    def assert_bad_vcd_keeps_the_other_output(self, vcd_path, message):
        """conv -o out.pftrace --vcd vcd_path fails with exit 4 and the message,
        and the user's existing out.pftrace is left as it was."""
        old = b"the user's own file: must survive\n"
        out = self.tmp / "out.pftrace"
        out.write_bytes(old)
        proc = run(["conv", "--mode", "bare-metal", str(REFERENCE_TRACE), "-o", str(out), "--vcd", vcd_path])
        self.assertExit(proc, 4)
        self.assertIn(message, proc.stderr)
        self.assertEqual(out.read_bytes(), old)
        return out, old

    def test_devices_get_no_filter_file_and_a_failed_write_is_exit_4(self):
        proc = run(["conv", "--mode", "bare-metal", str(REFERENCE_TRACE), "--vcd", "/dev/null"])
        self.assertExit(proc, 0)
        for suffix in (".filter", ".tasks.filter", ".isrs.filter", ".gtkw"):
            self.assertFalse(Path(f"/dev/null{suffix}").exists())
        if Path("/dev/full").exists():
            self.assert_bad_vcd_keeps_the_other_output("/dev/full", "/dev/full: write failed")

    def test_a_bad_vcd_path_fails_like_json_and_keeps_the_other_outputs(self):
        out, old = self.assert_bad_vcd_keeps_the_other_output("/no/such/dir/x.vcd",
                                                              "/no/such/dir/x.vcd: the folder /no/such/dir does not exist")
        self.assertEqual(sorted(p.name for p in self.tmp.path.iterdir()), ["out.pftrace"])
        # The VCD (or a file beside it) may not be the input, nor another output.
        copy = self.tmp / "in.bin"
        copy.write_bytes(REFERENCE_TRACE.read_bytes())
        for args in (["--vcd", str(copy)], ["--vcd", str(self.tmp / "in"), "--json", str(self.tmp / "in.filter")],
                     ["--vcd", str(self.tmp / "in"), "-o", str(self.tmp / "in.gtkw")],
                     ["--vcd", str(out), "-o", str(out)]):
            proc = run(["conv", "--mode", "bare-metal", str(copy), *args])
            self.assertExit(proc, 2)
        self.assertEqual(out.read_bytes(), old)
        self.assertEqual(sorted(p.name for p in self.tmp.path.iterdir()), ["in.bin", "out.pftrace"])

    def test_undecodable_input_keeps_an_existing_vcd_and_filter(self):
        old = b"the user's own file: must survive\n"
        vcd = self.tmp / "keep.vcd"
        vcd.write_bytes(old)
        Path(f"{vcd}.filter").write_bytes(old)
        Path(f"{vcd}.gtkw").write_bytes(old)
        garbage = self.tmp / "garbage.bin"
        garbage.write_bytes(bytes((i * 97 + 13) % 256 for i in range(5000)))
        proc = run(["conv", str(garbage), "--vcd", str(vcd)])
        self.assertExit(proc, 3)
        self.assertEqual(vcd.read_bytes(), old)
        self.assertEqual(Path(f"{vcd}.filter").read_bytes(), old)
        self.assertEqual(Path(f"{vcd}.gtkw").read_bytes(), old)
        self.assertEqual(sorted(p.name for p in self.tmp.path.iterdir()),
                         ["garbage.bin", "keep.vcd", "keep.vcd.filter", "keep.vcd.gtkw"])


if __name__ == "__main__":
    unittest.main()
