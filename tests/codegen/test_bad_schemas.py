"""Every folder in bad_schemas/ breaks one rule; expected.txt holds the exact messages."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from codegen.errors import SchemaErrors
from codegen.validate import compose_schema, load_schema

from .support import BAD_SCHEMAS, BAD_USER_SCHEMAS, REPO, assert_expected_errors, run_codegen


def cases(folder: Path = BAD_SCHEMAS) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir())


class BadSchemaTest(unittest.TestCase):
    def test_there_are_enough_cases(self) -> None:
        self.assertGreaterEqual(len(cases()), 12)

    def test_each_case_reports_exactly_its_expected_errors(self) -> None:
        for case in cases():
            with self.subTest(case=case.name):
                assert_expected_errors(self, case, load_schema)

    def test_each_user_case_reports_its_errors_in_the_users_file(self) -> None:
        """A user's schema composed with the built-in groups: the errors point
        at the user's file and name the built-in definitions they clash with."""
        self.assertGreaterEqual(len(cases(BAD_USER_SCHEMAS)), 8)
        for case in cases(BAD_USER_SCHEMAS):
            with self.subTest(case=case.name):
                display = case.relative_to(REPO).as_posix()
                errors = assert_expected_errors(self, case, lambda c, d: compose_schema([(c, d)]))
                for error in errors:
                    self.assertTrue(error.location.path.startswith(display), "blames the user's file")

    def test_cli_blames_the_users_file_from_any_folder(self) -> None:
        case = BAD_USER_SCHEMAS / "user_id_in_builtin_range"
        with tempfile.TemporaryDirectory() as out:
            result = run_codegen("--schema", str(case / "app.yaml"), "--out", out, cwd=Path(out))
            self.assertEqual(result.returncode, 1)
            self.assertIn(f"{case / 'app.yaml'}:6:9: error: event 'motor_step': id 0x54", result.stderr)
            self.assertIn("freertos.yaml:", result.stderr)
            self.assertEqual(list(Path(out).iterdir()), [])

    def test_cli_prints_errors_with_locations_and_writes_nothing(self) -> None:
        case = BAD_SCHEMAS / "unknown_type"
        display = case.relative_to(REPO).as_posix()
        with tempfile.TemporaryDirectory() as out:
            result = run_codegen("--schema-dir", display, "--out", out)
            self.assertEqual(result.returncode, 1)
            self.assertEqual(
                result.stderr.splitlines(),
                [*(case / "expected.txt").read_text().splitlines(), "tband-codegen: 1 error(s) in the schema"],
            )
            self.assertEqual(list(Path(out).iterdir()), [])

    def test_cli_reports_input_python_cannot_parse_without_a_traceback(self) -> None:
        """RecursionError and the int-string limit used to escape as tracebacks."""
        for name in ("yaml_nested_too_deep", "integer_too_long", "hex_id_too_long"):
            case = BAD_SCHEMAS / name
            with self.subTest(case=name), tempfile.TemporaryDirectory() as out:
                result = run_codegen("--schema-dir", case.relative_to(REPO).as_posix(), "--out", out)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertEqual(
                    result.stderr.splitlines(),
                    [*(case / "expected.txt").read_text().splitlines(), "tband-codegen: 1 error(s) in the schema"],
                )

    def test_all_problems_of_a_file_are_reported_at_once(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "s.yaml").write_text(
                "group: demo\ntitle: Demo\ndescription: Two mistakes.\nevents:\n"
                "  - name: a\n    id: 1\n    description: One.\n    fields:\n"
                "      - {name: x, type: u24, description: Bad type.}\n"
                "  - name: b\n    id: 1\n    description: Same id.\n"
            )
            with self.assertRaises(SchemaErrors) as raised:
                load_schema(Path(tmp), "s")
            self.assertEqual(
                [str(e) for e in raised.exception.errors],
                [
                    "s/s.yaml:9:25: error: event 'a' field 'x': unknown type 'u24' (did you mean 'u64'? "
                    "expected u8, u16, u32, u64, s8, s16, s32, s64, bool, f32, f64, str or an enum: none defined)",
                    "s/s.yaml:11:9: error: event 'b': id 0x01 is already used by event 'a' (s/s.yaml:5:11)",
                ],
            )


if __name__ == "__main__":
    unittest.main()
