"""A user's schema composed with tband's built-in groups: ids, identity,
generated hooks and the descriptor."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from codegen.render import render
from codegen.validate import compose_schema, load_schema

from .support import SCHEMA_DIR, USER_SCHEMA, run_codegen


def compose(*paths: Path):
    return compose_schema([(p, str(p)) for p in paths])


class ComposeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.schema = compose(USER_SCHEMA)
        cls.files = {f.path: f.text for f in render(cls.schema)}

    def test_builtin_groups_come_first_and_user_groups_after(self) -> None:
        self.assertEqual([(g.name, g.builtin) for g in self.schema.groups],
                         [("base", True), ("freertos", True), ("lab", False)])
        self.assertEqual(self.schema.sources, ("schema/base.yaml", "schema/freertos.yaml", "lab.yaml"))
        lab = self.schema.user_groups[0]
        self.assertEqual(lab.id_range, (0xC0, 0xFF))
        self.assertTrue(all(0xC0 <= e.id <= 0xFF for e in lab.events))
        self.assertEqual(lab.switch_macro, "tband_configLAB_TRACE_ENABLE")

    def test_no_user_schema_gives_exactly_tbands_own_output(self) -> None:
        own = {f.path: f.text for f in render(load_schema(SCHEMA_DIR, "schema"))}
        self.assertEqual({f.path: f.text for f in render(compose_schema([]))}, own)

    def test_hooks_header_declares_c_hooks_with_c_types_behind_the_switch(self) -> None:
        header = self.files["target/tband_user_events.h"]
        self.assertIn("void tband_lab_integers(uint8_t a_u8, uint16_t a_u16, uint32_t a_u32, int8_t a_s8, "
                      "int16_t a_s16, int32_t a_s32, bool a_bool);", header)
        self.assertIn("void tband_lab_wide(uint64_t a_u64, int64_t a_s64, float a_f32, double a_f64);", header)
        self.assertIn("void tband_lab_note(tband_LabMode mode, tband_FrQueueKind kind, const char* text);", header)
        self.assertIn("void tband_lab_tick(void);", header)
        self.assertIn("#if tband_configENABLE == 1 && tband_configLAB_TRACE_ENABLE == 1", header)
        self.assertIn("#define tband_lab_note(mode, kind, text) ((void)0)", header)
        self.assertIn("LAB_MAX = 255", header)
        self.assertIn("FRQK_QUEUE_SET = 5", header, "a built-in enum a user event takes gets a C type too")
        self.assertNotIn("FRSBK_", header, "built-in enums no user event takes stay out")
        self.assertNotRegex(header, r"#include <", "the header includes only tband.h")

    def test_hooks_source_uses_the_compact_spec_and_the_inline_encoder(self) -> None:
        source = self.files["target/tband_user_events.cpp"]
        # Built for size: events of the built-in hooks' shapes go through their body, trace_hook() ...
        self.assertIn("hook::trace_hook(enc::LabChannelName::kSpec | hook::kFromValue | hook::kString, "
                      "static_cast<std::uint32_t>(channel), hook::as_payload(name));", source)
        self.assertIn("hook::trace_hook(enc::LabTick::kSpec, 0, 0);", source)
        self.assertIn("hook::trace_hook(enc::LabConfig::kSpec | hook::kFromValue, "
                      "static_cast<std::uint32_t>(enc::detail::float_bits(rate_hz)), "
                      "static_cast<std::uint64_t>(enabled));", source)
        # ... the others through trace_user_event(), with their fields in an array.
        self.assertIn("hook::trace_user_event(enc::LabNote::kSpec, fields, text);", source)
        self.assertIn("  trace_user_event(enc::SchemaId::kSpec | kFromValue, fields, enc::kUserGroupNames);",
                      source)
        self.assertIn("hook::trace_user_event_inline<enc::LabWide>", source)
        self.assertIn("enc::detail::double_bits(a_f64)", source)
        encoder = self.files["target/tband_encode.hpp"]
        self.assertIn("static constexpr std::uint32_t kSpec = field_spec(FieldWidth::kU64, FieldWidth::kU64, "
                      "FieldWidth::kU64, FieldWidth::kU32, FieldWidth::kU64) | kId;", encoder)
        self.assertIn("inline constexpr bool kHasUserEvents = false || TBAND_ENCODE_GROUP_LAB;", encoder)
        self.assertIn("#if !defined(tband_configLAB_TRACE_ENABLE) || tband_configLAB_TRACE_ENABLE != 0", encoder)

    def test_descriptor_describes_the_composed_schema(self) -> None:
        d = json.loads(self.files["descriptor/tband_schema.json"])
        self.assertEqual(d["format"], "tband-schema-descriptor")
        self.assertEqual(d["version"], 1)
        self.assertIn("DO NOT EDIT", d["generated"])
        self.assertEqual(d["user_groups"], ["lab"])
        self.assertEqual(d["trace_id"], self.schema.wire_hash[:16])
        self.assertEqual(int(d["trace_id"], 16), self.schema.trace_id)
        events = {e["name"]: e for e in d["events"]}
        self.assertEqual(len(events), len(self.schema.events))
        optional = {f["name"]: f for f in events["lab_optional"]["fields"]}
        self.assertEqual(optional["ts"], {"name": "ts", "type": "u64", "implicit": True,
                                          "description": "Time of the event in timestamp ticks."})
        self.assertEqual((optional["gain"]["default"], optional["limit"]["default"], optional["mode"]["default"],
                          optional["armed"]["default"]), (1.5, "inf", "LAB_ON", True))
        self.assertNotIn("default", optional["extra"])
        self.assertEqual(events["lab_note"]["fields"][2]["type"], "FrQueueKind")
        self.assertEqual([g["name"] for g in d["groups"] if not g["builtin"]], ["lab"])

    def test_wire_hash_ignores_descriptions_but_not_types(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "lab.yaml"
            text = (USER_SCHEMA / "lab.yaml").read_text()
            copy.write_text(text.replace("Names a channel.", "Gives a channel its name."))
            reworded = compose(copy)
            self.assertNotEqual(reworded.hash, self.schema.hash)
            self.assertEqual(reworded.wire_hash, self.schema.wire_hash)
            copy.write_text(text.replace("{name: a_u16, type: u16", "{name: a_u16, type: u32"))
            self.assertNotEqual(compose(copy).wire_hash, self.schema.wire_hash)

    def test_cli_composes_from_any_folder_and_output_is_reproducible(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "firmware"
            shutil.copytree(USER_SCHEMA, project / "tband")
            first = run_codegen("--schema", "tband/lab.yaml", "--out", "gen", cwd=project)
            self.assertEqual(first.returncode, 0, first.stderr)
            # Built-in and lab events together, counted from the composed schema.
            self.assertIn(f"{len(self.schema.events)} events", first.stdout)
            check = run_codegen("--schema", "tband", "--out", "gen", "--check", cwd=project)
            self.assertEqual(check.returncode, 0, check.stderr)
            banner = (project / "gen" / "target" / "tband_user_events.h").read_text().splitlines()[0]
            self.assertEqual(banner, "// AUTO-GENERATED by tband-codegen 0.1.0 from schema/base.yaml, "
                                     "schema/freertos.yaml, lab.yaml")
            for path in (project / "gen").rglob("*"):
                if path.is_file():
                    self.assertNotIn(tmp, path.read_text(), path)
                    self.assertEqual(path.read_text(), self.files[path.relative_to(project / "gen").as_posix()])

    def test_missing_user_file_and_a_file_given_twice_are_errors(self) -> None:
        result = run_codegen("--schema", "no/such.yaml", "--out", "x", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.splitlines()[0], "no/such.yaml:1:1: error: no such schema file or folder")
        twice = run_codegen("--schema", str(USER_SCHEMA), "--schema", str(USER_SCHEMA / "lab.yaml"), "--check")
        self.assertEqual(twice.returncode, 1)
        self.assertRegex(twice.stderr, re.escape(str(USER_SCHEMA / "lab.yaml")) + r":1:1: error: given twice")


if __name__ == "__main__":
    unittest.main()
