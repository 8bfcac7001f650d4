"""The stock tband (built from schema/ only) decoding user events of the lab
group (tests/user_events/schema/lab.yaml) from schemas loaded at run time:
--schema with the descriptor or the YAML, the search path picked by the
trace's schema_id, display rules read back from the .pftrace and the JSON,
unknown ids summarised once, --strict, dump --stats --json over several
inputs. Traces come from tband_make_trace, built with the lab encoder."""
import json
import os
import shutil
import unittest
from pathlib import Path

from tests.cli.support import ROOT, TraceView, make_trace, run
from tests.cli.test_cli import CliTestCase

DESCRIPTOR = Path(os.environ.get("TBAND_LAB_DESCRIPTOR", ROOT / "build/generated_lab/descriptor/tband_schema.json"))
LAB_YAML = ROOT / "tests/user_events/schema/lab.yaml"
LAB_ID = json.loads(DESCRIPTOR.read_text())["trace_id"] if DESCRIPTOR.is_file() else "?"


def first_frame_with_id_from(path: Path, lowest_id: int) -> int:
    """Byte offset of the first COBS frame whose event id is lowest_id or above
    (where the frames before it end depends on the schema's id, whose
    varlen length changes with the schema)."""
    data = path.read_bytes()
    start = 0
    while start < len(data):
        end = data.index(0, start)
        # COBS: the first byte says where the first zero is (1: the id itself is 0); then the id.
        if end > start + 1 and data[start] != 1 and data[start + 1] >= lowest_id:
            return start
        start = end + 1
    raise AssertionError(f"no frame with an id from {lowest_id:#x} in {path}")

# What `tband dump` prints for the lab trace's user events.
LAB_LINES = [
    "core 0  metadata  lab_channel_name channel=3 name=\"left\"",
    "core 0  metadata  lab_config rate_hz=2.5 enabled=true",
    "core 0  1100 ns  lab_job_begin job=1 mode=LAB_ON",
    "core 0  1150 ns  lab_speed motor=1 rpm=1500.5",
    "core 0  1180 ns  lab_state motor=1 mode=LAB_ON why=\"start\"",
    "core 0  1200 ns  lab_job_begin job=2 mode=LAB_OFF",
    "core 0  1250 ns  lab_level channel=3 level=-40",
    "core 0  1300 ns  lab_speed motor=2 rpm=900.25",
    "core 0  1400 ns  lab_job_end job=2 result=0",
    "core 0  1550 ns  lab_state motor=2 mode=LAB_MAX why=\"\"",
    "core 0  1600 ns  lab_level channel=3 level=12",
    "core 0  1650 ns  lab_speed motor=1 rpm=1480",
    "core 0  1700 ns  lab_job_end job=1 result=-5",
    "core 0  1750 ns  lab_note mode=LAB_OFF kind=FRQK_MUTEX text=\"plain\"",
    "core 0  1760 ns  lab_integers a_u8=255 a_u16=65535 a_u32=4294967295 a_s8=-128 a_s16=-32768 "
    "a_s32=-2147483648 a_bool=true",
    "core 0  1770 ns  lab_wide a_u64=18446744073709551615 a_s64=-9223372036854775808 a_f32=-0.5 a_f64=1e+300",
    "core 0  1780 ns  lab_optional channel=4 gain=1.5 (default) level=-1 (default) armed=true (default) "
    "mode=LAB_ON (default) limit=inf (default) extra=(absent)",
    "core 0  1790 ns  lab_tick",
]


class RuntimeSchemaCase(CliTestCase):
    def lab(self, name="lab.bin", schema_id=None):
        path = self.tmp / name
        make_trace("lab", path, *([schema_id] if schema_id else []))
        return path

    def user_lines(self, proc):
        return [line for line in proc.stdout.decode().splitlines() if " lab_" in line]


class DumpWithSchemas(RuntimeSchemaCase):
    def test_without_a_schema_unknown_ids_are_summarised_once(self):
        proc = run(["dump", str(self.lab())])
        self.assertExit(proc, 0)
        warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
        self.assertEqual(warnings, [
            f"tband dump: warning: trace written with schema {LAB_ID}, groups lab; pass --schema with its "
            "descriptor (none matches on the search path: TBAND_SCHEMA_PATH is not set, tband_schema.json next to "
            "the trace)",
            "tband dump: warning: 18 frame(s) with unknown event ids 0xC0 (1), 0xC1 (1), 0xC2 (1), 0xC3 (1), "
            "0xC4 (1), 0xC5 (1), 0xC6 (1), 0xC7 (2), 0xC8 (2), 0xC9 (3), 0xCA (2), 0xCB (2); the first at "
            f"{self.tmp / 'lab.bin'} byte {first_frame_with_id_from(self.tmp / 'lab.bin', 0xC0)}"])
        self.assertExit(run(["dump", "--strict", str(self.lab())]), 1)

    def test_the_descriptor_decodes_every_user_event(self):
        proc = run(["dump", "--strict", "--schema", str(DESCRIPTOR), str(self.lab())])
        self.assertExit(proc, 0)
        self.assertEqual(self.user_lines(proc), LAB_LINES)
        self.assertEqual(proc.stderr, "")

    def test_the_yaml_schema_decodes_the_same(self):
        proc = run(["dump", "--strict", "--json", "--schema", str(LAB_YAML), str(self.lab())])
        self.assertExit(proc, 0)
        lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
        events = {}
        for line in lines:
            events.setdefault(line["event"], line)  # the first of each
        self.assertEqual(events["lab_wide"]["fields"], {"a_u64": 2**64 - 1, "a_s64": -2**63, "a_f32": -0.5,
                                                        "a_f64": 1e300})
        self.assertEqual(events["lab_optional"]["fields"], {"channel": 4}, "absent fields stay out")
        self.assertEqual(events["lab_state"]["fields"], {"motor": 1, "mode": "LAB_ON", "why": "start"})
        self.assertEqual(events["lab_state"]["ts_ns"], 1180)
        self.assertEqual(len(lines), 24)

    def test_a_descriptor_next_to_the_trace_and_on_the_search_path(self):
        trace = self.lab()
        shutil.copy(DESCRIPTOR, self.tmp / "tband_schema.json")
        self.assertEqual(self.user_lines(run(["dump", "--strict", str(trace)])), LAB_LINES)
        (self.tmp / "tband_schema.json").unlink()
        env_dir = self.tmp / "schemas" / "descriptor"
        env_dir.mkdir(parents=True)
        shutil.copy(DESCRIPTOR, env_dir / "lab.json")
        proc = run(["-v", "dump", "--strict", str(trace)], env={"TBAND_SCHEMA_PATH": f"/nonexistent:{env_dir.parent}"})
        self.assertExit(proc, 0)
        self.assertEqual(self.user_lines(proc), LAB_LINES)
        self.assertIn(f"note: the trace's schema {LAB_ID}, groups lab matches {env_dir / 'lab.json'}", proc.stderr)

    def test_a_trace_of_another_schema_says_so_and_strict_fails(self):
        trace = self.lab("other.bin", schema_id="3fa2")
        env = {"TBAND_SCHEMA_PATH": str(DESCRIPTOR)}
        proc = run(["dump", str(trace)], env=env)
        self.assertExit(proc, 0)
        self.assertIn("warning: trace written with schema 0000000000003fa2, groups lab; pass --schema with its "
                      f"descriptor (none matches on the search path: TBAND_SCHEMA_PATH={DESCRIPTOR}, "
                      "tband_schema.json next to the trace)", proc.stderr)
        self.assertExit(run(["dump", "--strict", str(trace)], env=env), 1)
        given = run(["dump", "--strict", "--schema", str(DESCRIPTOR), str(trace)])
        self.assertExit(given, 1)
        self.assertIn(f"trace written with schema 0000000000003fa2, groups lab, but --schema gave {DESCRIPTOR} "
                      f"(schema {LAB_ID}); decoding with it anyway", given.stderr)
        self.assertEqual(self.user_lines(given), LAB_LINES)

    def test_stats_json_over_several_inputs(self):
        lab, bare = self.lab(), self.lab("nosid.bin", schema_id="none")
        proc = run(["dump", "--stats", "--json", "--schema", str(DESCRIPTOR), str(lab), str(bare),
                    str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        report = json.loads(proc.stdout)
        self.assertEqual([i["input"] for i in report["inputs"]],
                         [str(lab), str(bare), str(self.tmp / "baremetal.bin")])
        first = report["inputs"][0]
        self.assertEqual(first["by_event"]["lab_speed"], 3)
        self.assertEqual(first["by_event"]["lab_job_begin"], 2)
        self.assertEqual(first["schema"]["trace_id"], LAB_ID)
        self.assertEqual(first["schema"]["schemas_used"], [str(DESCRIPTOR)])
        self.assertIsNone(report["inputs"][1]["schema"]["trace_id"], "no schema_id: the given schema applies")
        self.assertEqual(report["inputs"][1]["events"], 23)
        self.assertEqual(report["inputs"][2]["events"], 45)
        self.assertEqual(report["total"], {"bytes": sum(i["bytes"] for i in report["inputs"]), "events": 92,
                                           "decode_errors": 0, "unknown_frames": 0})
        self.assertTrue(report["clean"])

    def test_stats_json_counts_unknown_ids_and_strict_fails(self):
        proc = run(["dump", "--stats", "--json", str(self.lab()), str(self.trace("baremetal"))])
        self.assertExit(proc, 0)
        report = json.loads(proc.stdout)
        self.assertFalse(report["clean"])
        lab = report["inputs"][0]
        self.assertEqual(lab["unknown_frames"], 18)
        self.assertEqual([(u["id_hex"], u["frames"]) for u in lab["unknown_ids"]][-3:],
                         [("0xC9", 3), ("0xCA", 2), ("0xCB", 2)])
        self.assertEqual(len(lab["problems"]), 2)
        self.assertEqual(report["inputs"][1]["problems"], [])
        self.assertExit(run(["dump", "--strict", "--stats", str(self.lab()), str(self.trace("baremetal"))]), 1)

    def test_several_inputs_as_text_and_json_lines_name_their_input(self):
        lab, bm = self.lab(), self.trace("baremetal")
        text = run(["dump", "--schema", str(DESCRIPTOR), str(lab), str(bm)]).stdout.decode().splitlines()
        self.assertEqual(text[0], f"# {lab}")
        self.assertIn(f"# {bm}", text)
        self.assertEqual(len(text), 2 + 24 + 45)
        lines = [json.loads(line) for line in
                 run(["dump", "--json", "--schema", str(DESCRIPTOR), str(lab), str(bm)]).stdout.decode().splitlines()]
        self.assertEqual({line["input"] for line in lines}, {str(lab), str(bm)})

    def test_bad_schemas_are_usage_errors_with_their_place(self):
        trace = str(self.lab())
        missing = run(["dump", "--schema", str(self.tmp / "missing.json"), trace])
        self.assertExit(missing, 2)
        self.assertIn("missing.json: no such schema file or folder", missing.stderr)
        not_json = self.tmp / "broken.json"
        not_json.write_text('{"format": "tband-schema-descriptor",\n "version": 1,\n oops}')
        broken = run(["dump", "--schema", str(not_json), trace])
        self.assertExit(broken, 2)
        self.assertIn("broken.json:3:2: not valid JSON", broken.stderr)
        bad_yaml = self.tmp / "app.yaml"
        bad_yaml.write_text("group: app\ntitle: App\ndescription: Bad.\nevents:\n"
                            "  - name: app_speed\n    id: 0xC0\n    description: A speed.\n"
                            "    display: {kind: counter, value: rpm}\n")
        yaml = run(["dump", "--schema", str(bad_yaml), trace])
        self.assertExit(yaml, 2)
        self.assertIn(f"{bad_yaml}:8:37: error: event 'app_speed' display: value 'rpm' is not a field of the event",
                      yaml.stderr)
        self.assertIn("the schema has errors (listed above)", yaml.stderr)
        no_codegen = run(["dump", "--schema", str(LAB_YAML), trace], env={"TBAND_CODEGEN": "/nonexistent/codegen"})
        self.assertExit(no_codegen, 2)
        self.assertIn("could not run /nonexistent/codegen", no_codegen.stderr)


class ConvWithSchemas(RuntimeSchemaCase):
    def convert(self, trace, *extra):
        out = self.tmp / "out.pftrace"
        proc = run(["conv", str(trace), "-o", str(out), "--json", str(self.tmp / "out.json"), *extra])
        return proc, out

    def test_display_rules_in_perfetto(self):
        proc, out = self.convert(self.lab(), "--strict", "--schema", str(DESCRIPTOR))
        self.assertExit(proc, 0)
        self.assertNotIn("warning", proc.stderr)
        view = TraceView(out)
        self.assertEqual(view.process_names(), ["Core 0", "ctrl", "io"])
        jobs = view.track("jobs", "")
        self.assertEqual([(s["name"], s["begin"], s["end"]) for s in jobs["slices"]],
                         [("job 1 LAB_ON", 1100, 1700), ("job 2 LAB_OFF", 1200, 1400)])  # job 2 nested in job 1
        self.assertEqual(jobs["slices"][0]["args"], {"job": 1, "mode": "LAB_ON"})
        self.assertEqual(view.track("motor 1 speed (rpm)", "")["counter"], [(1150, 1500.5), (1650, 1480.0)])
        self.assertEqual(view.track("motor 2 speed (rpm)", "")["counter"], [(1300, 900.25)])
        self.assertTrue(view.track("motor 1 speed (rpm)", "")["is_counter"])
        # lab_channel_name (a name rule) named channel 3 "left" before its first level.
        self.assertEqual(view.track("level left", "Core 0")["counter"], [(1250, -40), (1600, 12)])
        ctrl = view.track("motor 1", "ctrl")  # under the task that was running
        self.assertEqual([(i["name"], i["ts"]) for i in ctrl["instants"]], [("LAB_ON", 1180)])
        self.assertEqual(ctrl["instants"][0]["args"], {"motor": 1, "mode": "LAB_ON", "why": "start"})
        self.assertEqual([i["name"] for i in view.track("motor 2", "io")["instants"]], ["LAB_MAX"])
        other = [i["name"] for i in view.track("Other events", "Core 0")["instants"]]
        self.assertEqual(other, ["schema_id", "lab_config", "lab_note", "lab_integers",
                                 "lab_wide", "lab_optional", "lab_tick"])

    def test_display_rules_in_json(self):
        proc, _ = self.convert(self.lab(), "--schema", str(DESCRIPTOR))
        self.assertExit(proc, 0)
        events = json.loads((self.tmp / "out.json").read_text())["traceEvents"]
        threads = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
        jobs = [e for e in events if e.get("tid") in [t for t, n in threads.items() if n == "jobs"]
                and e["ph"] in "BE"]
        self.assertEqual([(e["ph"], e.get("name"), e["ts"], e.get("args")) for e in jobs], [
            ("B", "job 1 LAB_ON", 1.1, {"job": 1, "mode": "LAB_ON"}),
            ("B", "job 2 LAB_OFF", 1.2, {"job": 2, "mode": "LAB_OFF"}),
            ("E", None, 1.4, {"result": 0}),  # the key (job) is the begin's: not repeated
            ("E", None, 1.7, {"result": -5})])
        counters = [(e["name"], e["args"]["value"]) for e in events if e["ph"] == "C"]
        self.assertEqual(counters, [("motor 1 speed (rpm)", 1500.5), ("level left", -40),
                                    ("motor 2 speed (rpm)", 900.25), ("level left", 12),
                                    ("motor 1 speed (rpm)", 1480.0)])
        states = [(e["name"], threads[e["tid"]]) for e in events if e["ph"] == "i" and e["name"].startswith("LAB_")]
        self.assertEqual(states, [("LAB_ON", "motor 1"), ("LAB_MAX", "motor 2")])

    def test_bare_metal_puts_task_tracks_under_the_core(self):
        proc, out = self.convert(self.lab(), "--mode", "bare-metal", "--schema", str(DESCRIPTOR))
        self.assertExit(proc, 0)
        view = TraceView(out)
        self.assertEqual([i["name"] for i in view.track("motor 1", "Core 0")["instants"]], ["LAB_ON"])

    def test_search_path_converts_with_no_flag_and_a_mismatch_fails_strict(self):
        env = {"TBAND_SCHEMA_PATH": str(DESCRIPTOR.parent)}
        proc, out = self.convert(self.lab(), "--strict")
        self.assertExit(proc, 1)
        self.assertIn("1 x unknown event id [unknown_event_id]", proc.stderr)
        self.assertNotIn("undecodable", proc.stderr.replace("18 undecodable", ""))
        ok = run(["conv", "--strict", str(self.lab()), "-o", str(out)], env=env)
        self.assertExit(ok, 0)
        self.assertEqual(len(TraceView(out).track("jobs", "")["slices"]), 2)
        other = run(["conv", str(self.lab("other.bin", schema_id="3fa2")), "-o", str(out)], env=env)
        self.assertExit(other, 0)
        self.assertIn("warning: 1 x schema mismatch [schema_mismatch]\n  trace written with schema "
                      "0000000000003fa2, groups lab; pass --schema", other.stderr)
        self.assertIn("warning: 1 x unknown event id [unknown_event_id]\n  18 frame(s) with unknown event ids",
                      other.stderr)
        self.assertExit(run(["conv", "--strict", str(self.tmp / "other.bin"), "-o", str(out)], env=env), 1)

    def test_spans_that_do_not_nest_are_split_and_reported(self):
        trace = self.tmp / "spans.bin"
        make_trace("lab-spans", trace)
        proc, out = self.convert(trace, "--schema", str(DESCRIPTOR))
        self.assertExit(proc, 0)
        self.assertIn("warning: 1 x spans not nested [spans_not_nested]\n  at 30 ns: lab_job_end: span 'job' (job=1) "
                      "ends while 1 span(s) begun after it are still open on track 'jobs'", proc.stderr)
        self.assertIn("warning: 1 x end without begin [end_without_begin]\n  at 50 ns: lab_job_end: span 'job' "
                      "(job=9) ends with no such span open", proc.stderr)
        slices = [(s["name"], s["begin"], s["end"]) for s in TraceView(out).track("jobs", "")["slices"]]
        self.assertEqual(slices, [("job 1 LAB_ON", 10, 30), ("job 2 LAB_ON", 20, 30), ("job 2 LAB_ON", 30, 40)])

    def test_a_name_that_arrives_after_its_track_renames_it(self):
        # Channel 5's level at 60 ns, its name "right" after it, another level at 70 ns; channel 6 unnamed.
        trace = self.tmp / "names.bin"
        make_trace("lab-names", trace)
        proc, out = self.convert(trace, "--strict", "--schema", str(DESCRIPTOR))
        self.assertExit(proc, 0)
        view = TraceView(out)
        self.assertEqual(view.track("level right", "Core 0")["counter"], [(60, 7), (70, 8)])
        self.assertEqual(view.track("level 6", "Core 0")["counter"], [(65, 1)])
        self.assertNotIn("level 5", [t["name"] for t in view.tracks.values()])
        self.assertEqual([i["name"] for i in view.track("Other events", "Core 0")["instants"]], ["schema_id"])
        figures = json.loads(run(["stats", "--json", "--no-progress", "--schema", str(DESCRIPTOR), str(trace)]).stdout)
        self.assertEqual(figures["figures"]["counter.level right.count"], 2)
        self.assertEqual(figures["figures"]["counter.level 6.count"], 1)
        self.assertFalse([k for k in figures["figures"] if k.startswith("counter.level 5.")])

    def test_slice_and_instant_names_use_a_label_from_when_it_is_known(self):
        # The lab descriptor with lab_level shown as instants named from the channel (display
        # rules are not part of the schema's identity, so the trace still matches it).
        descriptor = json.loads(DESCRIPTOR.read_text())
        level = next(e for e in descriptor["events"] if e["name"] == "lab_level")
        level["display"] = {"kind": "instant", "track": "levels", "name": "level of {channel}"}
        path = self.tmp / "levels.json"
        path.write_text(json.dumps(descriptor))
        trace = self.tmp / "names.bin"
        make_trace("lab-names", trace)
        proc, out = self.convert(trace, "--strict", "--schema", str(path))
        self.assertExit(proc, 0)
        instants = [(i["name"], i["ts"]) for i in TraceView(out).track("levels", "")["instants"]]
        self.assertEqual(instants, [("level of 5", 60), ("level of 6", 65), ("level of right", 70)])


class AnalysisWithSchemas(RuntimeSchemaCase):
    """stats, check and report decode user events with --schema (and the
    search path) and give figures for them as their display rules show them:
    spans by span name, counters by track, instants by event."""

    def stats(self, trace, *extra):
        proc = run(["stats", "--json", "--no-progress", *extra, str(trace)])
        self.assertExit(proc, 0)
        return json.loads(proc.stdout)["figures"]

    def test_figures_of_spans_counters_and_instants(self):
        figures = self.stats(self.lab(), "--schema", str(DESCRIPTOR))
        ours = {k: v for k, v in figures.items() if k.split(".")[0] in ("span", "counter", "event")}
        self.assertEqual({k: v for k, v in ours.items() if k.startswith("span.")}, {
            "span.job.count": 2, "span.job.open": 0, "span.job.duration.min": 200, "span.job.duration.max": 600,
            "span.job.duration.mean": 400, "span.job.duration.total": 800, "span.job.duration.p50": 200,
            "span.job.duration.p90": 600, "span.job.duration.p99": 600, "span.job.rate": figures["span.job.rate"]})
        self.assertEqual({k: ours[f"counter.motor 1 speed.{k}"] for k in ("count", "min", "max", "mean", "first", "last")},
                         {"count": 2, "min": 1480, "max": 1500.5, "mean": 1490.25, "first": 1500.5, "last": 1480})
        self.assertEqual([ours[f"counter.level left.{k}"] for k in ("min", "max", "first", "last")], [-40, 12, -40, 12])
        self.assertFalse([k for k in ours if k.startswith("counter.level 3.")], "named by lab_channel_name")
        self.assertEqual(ours["counter.motor 2 speed.count"], 1)
        # Instants of every timed user event (by rule or by default); metadata events are not counted.
        counts = {k[len("event."):-len(".count")]: v for k, v in ours.items() if k.endswith(".count") and
                  k.startswith("event.")}
        self.assertEqual(counts, {"lab_state": 2, "lab_note": 1, "lab_integers": 1, "lab_wide": 1,
                                  "lab_optional": 1, "lab_tick": 1})

    def test_spans_are_timed_by_their_pairs_even_when_split_on_the_track(self):
        trace = self.tmp / "spans.bin"
        make_trace("lab-spans", trace)
        figures = self.stats(trace, "--schema", str(DESCRIPTOR))
        # job 1 [10, 30] and job 2 [20, 40]: not nested, split on the track, but each timed whole;
        # the end of job 9, which never began, is no span.
        self.assertEqual([figures[f"span.job.{k}"] for k in ("count", "open")], [2, 0])
        self.assertEqual([figures[f"span.job.duration.{k}"] for k in ("min", "max")], [20, 20])

    def test_the_search_path_gives_the_figures_with_no_flag(self):
        trace = self.lab()
        shutil.copy(DESCRIPTOR, self.tmp / "tband_schema.json")
        self.assertEqual(self.stats(trace)["span.job.count"], 2)

    def test_check_holds_rules_over_user_figures(self):
        rules = self.tmp / "rules.yaml"
        rules.write_text("rules:\n  - span.job.duration.max <= 600ns\n  - counter.motor 1 speed.max < 1500\n"
                         "  - event.lab_state.count == 2\n")
        proc = run(["check", "--no-progress", "--schema", str(DESCRIPTOR), "--rules", str(rules), str(self.lab())])
        self.assertExit(proc, 1)
        out = proc.stdout.decode()
        self.assertIn("PASS  span.job.duration.max <= 600ns  (600 ns)", out)
        self.assertIn("FAIL  counter.motor 1 speed.max < 1500\n      counter.motor 1 speed.max is 1500.5", out)
        self.assertIn("PASS  event.lab_state.count == 2  (2)", out)
        # Without the schema the user events are unknown ids: no such figures, and the rule says so.
        without = run(["check", "--no-progress", "--rules", str(rules), str(self.lab())])
        self.assertExit(without, 1)
        self.assertIn("FAIL  span.job.duration.max <= 600ns", without.stdout.decode())
        self.assertIn("no span", without.stdout.decode().lower())

    def test_report_plots_user_counters(self):
        page = self.tmp / "report.html"
        proc = run(["report", "--no-progress", "--schema", str(DESCRIPTOR), str(self.lab()), "-o", str(page)])
        self.assertExit(proc, 0)
        html = page.read_text()
        self.assertIn('<figure id="fig-counter-motor-1-speed">', html)
        self.assertIn('<svg class="chart value-series" data-row="counter.motor 1 speed"', html)
        self.assertIn("Spans (schema display rules)", html)


if __name__ == "__main__":
    unittest.main()
