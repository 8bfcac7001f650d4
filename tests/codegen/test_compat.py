"""`tband-codegen compat OLD NEW`: one test per kind of change, breaking and
compatible, through the command as a CI step runs it (exit codes, lines)."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from codegen.compat import KINDS

from .support import run_codegen

# A user schema as a firmware fleet ships it; each test edits a copy.
OLD = """\
group: app
title: App
description: A fleet's events.
enums:
  - name: RunMode
    description: A mode.
    values:
      - {name: RUN_OFF, value: 0, description: Off.}
      - {name: RUN_ON, value: 1, description: On.}
events:
  - name: app_speed
    id: 0xC0
    description: A speed.
    fields:
      - {name: motor, type: u8, description: Motor.}
      - {name: rpm, type: u32, description: Speed.}
      - {name: gain, type: f32, optional: true, default: 1.0, description: Gain.}
  - name: app_mode
    id: 0xC1
    description: A mode change.
    fields:
      - {name: mode, type: RunMode, description: Mode.}
      - {name: note, type: str, description: Why.}
  - name: app_tick
    id: 0xC2
    description: A tick.
"""


class CompatTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_compat_")
        self.tmp = Path(self._tmp.name)
        self.addCleanup(self._tmp.cleanup)
        self.old = self.tmp / "old"
        self.old.mkdir()
        (self.old / "app.yaml").write_text(OLD)

    def compat(self, new_text: str, *extra: str):
        new = self.tmp / "new"
        new.mkdir(exist_ok=True)
        (new / "app.yaml").write_text(new_text)
        return run_codegen("compat", str(self.old), str(new), *extra, cwd=self.tmp)

    def changes(self, new_text: str) -> list[dict]:
        result = self.compat(new_text, "--json")
        self.assertIn(result.returncode, (0, 1), result.stderr)
        report = json.loads(result.stdout)
        self.assertEqual(result.returncode, 1 if report["breaking"] else 0)
        return report["changes"]

    def assertOnly(self, new_text: str, kind: str, message_part: str) -> None:
        changes = self.changes(new_text)
        self.assertEqual([c["kind"] for c in changes], [kind], changes)
        self.assertIn(message_part, changes[0]["message"])
        self.assertEqual(changes[0]["breaking"], KINDS[kind])

    # ---- breaking -------------------------------------------------------------

    def test_id_reused_for_another_event(self) -> None:
        new = OLD.replace("name: app_tick\n    id: 0xC2", "name: app_beat\n    id: 0xC2")
        self.assertOnly(new, "id-reused", "id 0xC2 was event 'app_tick', is now event 'app_beat'")

    def test_event_removed(self) -> None:
        new = OLD[: OLD.index("  - name: app_tick")]
        self.assertOnly(new, "event-removed", "event 'app_tick' (0xC2) removed")

    def test_event_moved_to_another_id(self) -> None:
        self.assertOnly(OLD.replace("id: 0xC2", "id: 0xC7"), "event-moved",
                        "event 'app_tick' moved from id 0xC2 to 0xC7")

    def test_event_became_metadata(self) -> None:
        new = OLD.replace("  - name: app_tick\n", "  - name: app_tick\n    metadata: true\n")
        self.assertOnly(new, "metadata-changed", "event 'app_tick' (0xC2) no longer has a timestamp")

    def test_field_removed(self) -> None:
        new = OLD.replace("      - {name: motor, type: u8, description: Motor.}\n", "")
        changes = self.changes(new)
        self.assertEqual([c["kind"] for c in changes], ["field-removed"], changes)
        self.assertIn("event 'app_speed' (0xC0) field 'motor' removed", changes[0]["message"])

    def test_field_type_changed(self) -> None:
        self.assertOnly(OLD.replace("type: u32", "type: s32"), "field-type-changed",
                        "field 'rpm' changed type from u32 to s32")

    def test_field_order_changed(self) -> None:
        new = OLD.replace("      - {name: motor, type: u8, description: Motor.}\n"
                          "      - {name: rpm, type: u32, description: Speed.}\n",
                          "      - {name: rpm, type: u32, description: Speed.}\n"
                          "      - {name: motor, type: u8, description: Motor.}\n")
        changes = self.changes(new)
        self.assertEqual({c["kind"] for c in changes}, {"field-order-changed"})
        self.assertIn("field 'motor' moved from position 1 to 2", changes[0]["message"])

    def test_required_field_added(self) -> None:
        new = OLD.replace("      - {name: note, type: str",
                          "      - {name: level, type: u8, description: Level.}\n      - {name: note, type: str")
        self.assertOnly(new, "field-added", "field 'level' added: old traces do not carry it")

    def test_field_made_required(self) -> None:
        self.assertOnly(OLD.replace("type: f32, optional: true, default: 1.0,", "type: f32,"),
                        "field-made-required", "field 'gain' is now required")

    def test_default_changed(self) -> None:
        self.assertOnly(OLD.replace("default: 1.0", "default: 2.0"), "default-changed",
                        "field 'gain': default changed from 1.0 to 2.0")

    def test_enum_value_changed(self) -> None:
        self.assertOnly(OLD.replace("{name: RUN_ON, value: 1", "{name: RUN_ON, value: 2"), "enum-value-changed",
                        "enum 'RunMode' value RUN_ON changed from 1 to 2")

    def test_enum_value_renamed(self) -> None:
        self.assertOnly(OLD.replace("name: RUN_ON", "name: RUN_GO"), "enum-value-changed",
                        "enum 'RunMode' value 1 renamed from RUN_ON to RUN_GO")

    def test_enum_value_removed(self) -> None:
        self.assertOnly(OLD.replace("      - {name: RUN_ON, value: 1, description: On.}\n", ""),
                        "enum-value-removed", "enum 'RunMode' value RUN_ON (1) removed")

    # ---- compatible -----------------------------------------------------------

    def test_event_added(self) -> None:
        new = OLD + "  - name: app_fault\n    id: 0xC3\n    description: A fault.\n"
        self.assertOnly(new, "event-added", "event 'app_fault' (0xC3) added")

    def test_enum_value_added(self) -> None:
        new = OLD.replace("      - {name: RUN_ON, value: 1, description: On.}\n",
                          "      - {name: RUN_ON, value: 1, description: On.}\n"
                          "      - {name: RUN_FAST, value: 2, description: Fast.}\n")
        self.assertOnly(new, "enum-value-added", "enum 'RunMode' value RUN_FAST (2) added")

    def test_optional_field_appended(self) -> None:
        new = OLD.replace("default: 1.0, description: Gain.}\n",
                          "default: 1.0, description: Gain.}\n"
                          "      - {name: trim, type: s16, optional: true, description: Trim.}\n")
        self.assertOnly(new, "field-added-optional", "field 'trim' added (optional, at the end)")

    def test_field_made_optional(self) -> None:
        new = OLD.replace("  - name: app_tick\n    id: 0xC2\n    description: A tick.\n",
                          "  - name: app_tick\n    id: 0xC2\n    description: A tick.\n    fields:\n"
                          "      - {name: n, type: u32, description: N.}\n")
        old = OLD.replace("{name: motor, type: u8, description: Motor.}", "{name: motor, type: u8, description: M.}")
        (self.old / "app.yaml").write_text(old)
        self.assertEqual([c["kind"] for c in self.changes(new)], ["field-added"])  # required: breaking
        self.assertOnly(new.replace("{name: n, type: u32, description: N.}",
                                    "{name: n, type: u32, optional: true, description: N.}"),
                        "field-added-optional", "field 'n' added")
        (self.old / "app.yaml").write_text(new)
        self.assertOnly(new.replace("{name: n, type: u32, description: N.}",
                                    "{name: n, type: u32, optional: true, description: N.}"),
                        "field-made-optional", "field 'n' is now optional")

    # ---- the command ------------------------------------------------------------

    def test_every_kind_has_a_test(self) -> None:
        tested = " ".join(name for name in dir(self) if name.startswith("test_"))
        words = {"id-reused": "id_reused", "event-removed": "event_removed", "event-moved": "event_moved",
                 "metadata-changed": "metadata", "field-removed": "field_removed",
                 "field-type-changed": "field_type_changed", "field-order-changed": "field_order_changed",
                 "field-added": "required_field_added", "field-made-required": "field_made_required",
                 "default-changed": "default_changed", "enum-value-changed": "enum_value_changed",
                 "enum-value-removed": "enum_value_removed", "event-added": "event_added",
                 "field-added-optional": "optional_field_appended", "field-made-optional": "field_made_optional",
                 "enum-value-added": "enum_value_added"}
        self.assertEqual(set(words), set(KINDS))
        for kind, word in words.items():
            self.assertIn(word, tested, kind)

    def test_lines_point_at_the_schema_and_the_exit_code_says_breaking(self) -> None:
        result = self.compat(OLD.replace("type: u32", "type: s32") +
                             "  - name: app_fault\n    id: 0xC3\n    description: A fault.\n")
        self.assertEqual(result.returncode, 1, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], f"{self.tmp / 'new'}/app.yaml:16:16: breaking: event 'app_speed' (0xC0) field "
                                   "'rpm' changed type from u32 to s32")
        self.assertEqual(lines[1], f"{self.tmp / 'new'}/app.yaml:27:11: compatible: event 'app_fault' (0xC3) added")
        self.assertEqual(lines[2], f"tband-codegen compat: 1 breaking, 1 compatible change(s) from {self.old} to "
                                   f"{self.tmp / 'new'}")

    def test_no_change_exits_0(self) -> None:
        result = self.compat(OLD.replace("description: A speed.", "description: The speed, reworded."))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("no changes that affect traces", result.stdout)

    def test_a_released_descriptor_against_the_new_schema(self) -> None:
        described = run_codegen("describe", str(self.old / "app.yaml"), cwd=self.tmp)
        self.assertEqual(described.returncode, 0, described.stderr)
        released = self.tmp / "released.json"
        released.write_text(described.stdout)
        new = self.tmp / "new.yaml"
        new.write_text(OLD.replace("type: u32", "type: u64"))
        result = run_codegen("compat", str(released), str(new), cwd=self.tmp)
        self.assertEqual(result.returncode, 1)
        self.assertIn("breaking: event 'app_speed' (0xC0) field 'rpm' changed type from u32 to u64", result.stdout)

    def test_a_bad_schema_exits_2_with_its_location(self) -> None:
        result = self.compat(OLD.replace("type: u32", "type: u24"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("app.yaml:16:27: error: event 'app_speed' field 'rpm': unknown type 'u24'", result.stderr)

    def test_a_descriptor_json_cannot_read_is_an_error_not_a_traceback(self) -> None:
        for name, text, message in (
            ("deep.json", "[" * 100000 + "]" * 100000, "invalid JSON: nested too deeply"),
            ("long.json", '{"format": ' + "9" * 5000 + "}", "invalid JSON: Exceeds the limit (4300 digits)"),
        ):
            with self.subTest(name=name):
                (self.tmp / name).write_text(text)
                result = run_codegen("compat", name, str(self.old), cwd=self.tmp)
                self.assertEqual(result.returncode, 2)
                self.assertNotIn("Traceback", result.stderr)
                self.assertTrue(result.stderr.startswith(f"{name}:1:1: error: {message}"), result.stderr)


if __name__ == "__main__":
    unittest.main()
