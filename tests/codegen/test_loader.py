"""The YAML loader keeps locations and refuses what PyYAML would silently accept."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from codegen.errors import Location, SchemaError, SchemaErrors
from codegen.loader import LocatedDict, LocatedList, load_yaml
from codegen.validate import load_schema


class LoaderTest(unittest.TestCase):
    def load(self, text: str) -> object:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.yaml"
            path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
            return load_yaml(path, "x.yaml")

    def test_mappings_and_lists_remember_where_they_came_from(self) -> None:
        data = self.load("a: 1\nlist:\n  - {b: two}\n  - c\n")
        self.assertIsInstance(data, LocatedDict)
        self.assertEqual(data.key_loc["list"], Location("x.yaml", 2, 1))
        self.assertEqual(data.value_loc["a"], Location("x.yaml", 1, 4))
        self.assertIsInstance(data["list"], LocatedList)
        self.assertEqual(data["list"].item_loc, [Location("x.yaml", 3, 5), Location("x.yaml", 4, 5)])
        self.assertEqual(data["list"][0].value_loc["b"], Location("x.yaml", 3, 9))

    def test_duplicate_keys_are_errors(self) -> None:
        with self.assertRaises(SchemaError) as raised:
            self.load("a: 1\nb: 2\na: 3\n")
        self.assertEqual(str(raised.exception), "x.yaml:3:1: error: duplicate key 'a' (first given at line 1)")

    def test_syntax_errors_have_a_location(self) -> None:
        with self.assertRaises(SchemaError) as raised:
            self.load("a: [1, 2\nb: 3\n")
        self.assertTrue(str(raised.exception).startswith("x.yaml:2:2: error: YAML syntax:"), raised.exception)

    def test_invalid_utf8_is_reported(self) -> None:
        with self.assertRaises(SchemaError) as raised:
            self.load(b"a: \xff\xfe\n")
        self.assertTrue(str(raised.exception).startswith("x.yaml:1:1: error: cannot read file:"), raised.exception)

    def test_a_value_pyyaml_cannot_construct_is_located(self) -> None:
        # PyYAML raises ValueError, not a YAMLError, for a date that does not exist.
        with self.assertRaises(SchemaError) as raised:
            self.load("a: 1\nb: 2024-13-01\n")
        self.assertEqual(str(raised.exception), "x.yaml:2:4: error: cannot read this value: month must be in 1..12")

    def test_nesting_is_bounded(self) -> None:
        self.assertIsInstance(self.load("a: " + "[" * 31 + "]" * 31 + "\n")["a"], LocatedList)  # 32 levels
        with self.assertRaises(SchemaError) as raised:
            self.load("a: " + "[" * 32 + "]" * 32 + "\n")
        self.assertEqual(str(raised.exception), "x.yaml:1:35: error: YAML nested more than 32 levels deep (a schema needs 6)")

    def test_empty_file_is_not_a_schema(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "empty.yaml").write_text("")
            with self.assertRaises(SchemaErrors) as raised:
                load_schema(Path(tmp), "d")
        self.assertEqual(
            [str(e) for e in raised.exception.errors],
            ["d/empty.yaml:1:1: error: the top level of the file must be a mapping, not nothing"],
        )

    def test_missing_folder_and_folder_without_schema(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(SchemaErrors) as raised:
                load_schema(Path(tmp), "d")
            self.assertEqual(str(raised.exception), "d:1:1: error: no *.yaml schema files found")
            with self.assertRaises(SchemaErrors) as raised:
                load_schema(Path(tmp) / "nope", "nope")
            self.assertEqual(str(raised.exception), "nope:1:1: error: schema directory does not exist")


if __name__ == "__main__":
    unittest.main()
