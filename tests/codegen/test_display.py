"""Display rules: how the host shows an event it decodes at run time. Every
folder in bad_display/ breaks one rule; expected.txt holds the exact messages."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from codegen.display import template_fields
from codegen.render import render
from codegen.validate import compose_schema

from .support import REPO, USER_SCHEMA, assert_expected_errors

BAD_DISPLAY = REPO / "tests" / "codegen" / "bad_display"


class BadDisplayTest(unittest.TestCase):
    def test_each_case_reports_exactly_its_expected_errors_in_the_users_file(self) -> None:
        cases = sorted(p for p in BAD_DISPLAY.iterdir() if p.is_dir())
        self.assertGreaterEqual(len(cases), 12)
        for case in cases:
            with self.subTest(case=case.name):
                errors = assert_expected_errors(self, case, lambda c, d: compose_schema([(c, d)]))
                self.assertTrue(all(e.location.path.startswith(str(case.relative_to(REPO))) for e in errors))


class TemplateTest(unittest.TestCase):
    def test_fields_and_escaped_braces(self) -> None:
        self.assertEqual(template_fields("motor {motor_id}"), (["motor_id"], None))
        self.assertEqual(template_fields("{a}/{b} {{literal}}"), (["a", "b"], None))
        self.assertEqual(template_fields("no fields"), ([], None))

    def test_brace_problems_name_the_column(self) -> None:
        self.assertEqual(template_fields("x {a")[1], "'{' at column 3 is never closed (write '{{' for a brace)")
        self.assertEqual(template_fields("x } y")[1], "'}' at column 3 closes nothing (write '}}' for a brace)")
        self.assertEqual(template_fields("{}")[1], "empty '{}' at column 1: name a field inside the braces")


class DescriptorDisplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.schema = compose_schema([(USER_SCHEMA, str(USER_SCHEMA))])
        files = {f.path: f.text for f in render(cls.schema)}
        cls.descriptor = json.loads(files["descriptor/tband_schema.json"])

    def test_the_descriptor_carries_each_rule_as_written(self) -> None:
        events = {e["name"]: e for e in self.descriptor["events"]}
        self.assertEqual(events["lab_job_begin"]["display"], {
            "kind": "span_begin", "span": "job", "key": ["job"], "track": "jobs", "name": "job {job} {mode}"})
        self.assertEqual(events["lab_job_end"]["display"], {"kind": "span_end", "span": "job", "key": ["job"]})
        self.assertEqual(events["lab_speed"]["display"], {
            "kind": "counter", "value": "rpm", "unit": "rpm", "track": "motor {motor} speed"})
        self.assertEqual(events["lab_state"]["display"], {
            "kind": "instant", "track": "motor {motor}", "under": "task", "name": "{mode}"})
        self.assertEqual(events["lab_channel_name"]["display"], {"kind": "name", "key": ["channel"], "name": "{name}"})
        self.assertNotIn("display", events["lab_integers"], "no rule: the host's default (an instant)")

    def test_display_rules_do_not_change_the_wire_identity(self) -> None:
        text = (USER_SCHEMA / "lab.yaml").read_text()
        stripped = "\n".join(line for line in text.splitlines() if not line.strip().startswith("display:"))
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "lab.yaml"
            copy.write_text(stripped)
            without = compose_schema([(copy, str(copy))])
        self.assertTrue(all(e.display is None for e in without.events))
        self.assertEqual(without.trace_id, self.schema.trace_id)


if __name__ == "__main__":
    unittest.main()
