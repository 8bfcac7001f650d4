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

    def test_merge_keys_are_overridden_by_explicit_keys(self) -> None:
        data = self.load(
            "base: &b {name: a, id: 1}\n"
            "other: &o {name: o, extra: 2}\n"
            "one: {<<: *b, name: over}\n"
            "two:\n  <<: [*o, *b]\n  id: 5\n"
        )
        self.assertEqual(data["one"], {"name": "over", "id": 1})
        # Explicit keys are where they are written; merged ones where the merged mapping has them.
        self.assertEqual(data["one"].key_loc["name"], Location("x.yaml", 3, 15))
        self.assertEqual(data["one"].value_loc["id"], Location("x.yaml", 1, 24))
        # In a merge list, the earlier mapping wins.
        self.assertEqual(data["two"], {"name": "o", "extra": 2, "id": 5})
        self.assertEqual(data["two"].value_loc["name"], Location("x.yaml", 2, 18))
        self.assertEqual(data["base"], {"name": "a", "id": 1}, "the merged mapping itself is unchanged")

    def test_a_schema_may_share_an_event_template_through_a_merge_key(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "s.yaml").write_text(
                "group: demo\ntitle: Demo\ndescription: Merge keys.\nevents:\n"
                "  - &sample\n    name: sample_a\n    id: 1\n    description: A sample.\n"
                "    fields: [{name: value, type: u16, description: The value.}]\n"
                "  - <<: *sample\n    name: sample_b\n    id: 2\n"
            )
            schema = load_schema(Path(tmp), "d")
        by_name = {e.name: e for e in schema.events}
        self.assertEqual([f.name for f in by_name["sample_b"].fields], ["ts", "value"])
        self.assertEqual(by_name["sample_b"].id, 2)
        self.assertEqual(by_name["sample_b"].location, Location("d/s.yaml", 11, 11))

    def test_merge_keys_refuse_duplicates_non_mappings_cycles_and_blowups(self) -> None:
        for text, message in (
            ("b: &b {x: 1}\nm: {<<: *b, y: 1, y: 2}\n", "x.yaml:2:19: error: duplicate key 'y' (first given at line 2)"),
            ("b: &b [1]\nm: {<<: *b}\n", "x.yaml:2:5: error: a merge key '<<' takes a mapping or a list of mappings"),
            ("a: &a {<<: *a}\n", "x.yaml:1:8: error: merge keys nested more than 32 levels deep or merging a mapping into itself"),
            (
                "l0: &l0 {k: 1}\n"
                + "".join(f"l{i}: &l{i} {{<<: [{', '.join([f'*l{i - 1}'] * 10)}]}}\n" for i in range(1, 9)),
                "x.yaml:5:10: error: merge keys give more than 1000 entries to one mapping",
            ),
        ):
            with self.subTest(text=text), self.assertRaises(SchemaError) as raised:
                self.load(text)
            self.assertEqual(str(raised.exception), message)

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
