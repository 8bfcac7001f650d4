"""Generated output: reproducible, with the right banner, freestanding target
code, and a --check mode that names every stale file."""

from __future__ import annotations

import re
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from codegen import __version__, cli
from codegen.render import OUTPUTS, render
from codegen.validate import load_schema

from .support import GOOD_SCHEMAS, SCHEMA_DIR, run_codegen


class RenderTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.schema = load_schema(SCHEMA_DIR, "schema")
        cls.files = {f.path: f.text for f in render(cls.schema)}

    def test_same_input_gives_identical_bytes(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "schema"
            shutil.copytree(SCHEMA_DIR, copy)  # other path, new mtimes
            again = {f.path: f.text for f in render(load_schema(copy, "elsewhere"))}
        self.assertEqual(again, self.files)

    def test_every_output_is_listed_and_rendered(self) -> None:
        self.assertEqual(sorted(self.files), sorted(OUTPUTS))
        result = run_codegen("--list-outputs")
        self.assertEqual(result.stdout.splitlines(), list(OUTPUTS))

    def test_banner_names_generator_and_schema_hash_but_no_time(self) -> None:
        for path, text in self.files.items():
            with self.subTest(path=path):
                head = "\n".join(text.splitlines()[:4])
                self.assertIn(f"tband-codegen {__version__}", head)
                self.assertIn(self.schema.short_hash, head)
                self.assertIn("DO NOT EDIT", head)
                self.assertNotRegex(text, r"\b20\d\d-\d\d-\d\d\b|\d\d:\d\d:\d\d")
                self.assertNotIn(str(SCHEMA_DIR.parent), text)

    def test_schema_hash_changes_with_the_schema(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "schema"
            shutil.copytree(SCHEMA_DIR, copy)
            base = copy / "base.yaml"
            base.write_text(base.read_text().replace("An interrupt handler started.", "An ISR started."))
            self.assertNotEqual(load_schema(copy).hash, self.schema.hash)

    def test_target_encoder_is_freestanding(self) -> None:
        header = self.files["target/tband_encode.hpp"]
        self.assertEqual(re.findall(r"#include <([^>]+)>", header), ["cstddef", "cstdint"])
        self.assertNotIn('#include "', header)
        code = re.sub(r"//.*", "", header)  # comments may say what the code avoids
        for word in ("new", "delete", "throw", "try", "catch", "virtual", "typeid", "dynamic_cast", "malloc"):
            self.assertNotRegex(code, rf"\b{word}\b", word)

    def test_every_event_gets_encoder_struct_decoder_case_doc_and_test(self) -> None:
        for event in self.schema.events:
            with self.subTest(event=event.name):
                self.assertIn(f"constexpr std::size_t encode_{event.name}(", self.files["target/tband_encode.hpp"])
                self.assertIn(f"struct {event.cpp_name} {{", self.files["host/tband_events.hpp"])
                self.assertIn(f"case {event.cpp_name}::kId:", self.files["host/tband_events.cpp"])
                self.assertIn(f"### `{event.name}` ({event.id_hex})", self.files["docs/events.md"])
                self.assertIn(f"TEST(RoundTrip, {event.cpp_name})", self.files["tests/roundtrip_test.cpp"])

    def test_docs_give_the_framed_size_for_the_default_string_length(self) -> None:
        docs = self.files["docs/events.md"]
        # isr_name: 6 + 20 = 26 bytes unframed, 26 + 1 + 1 framed.
        self.assertIn("| 0x03 | [`isr_name`](#isr_name) | yes | 6 + string (28) |", docs)
        self.assertIn("| 0x0B | [`valmarker`](#valmarker) | no | 26 (28) |", docs)

    def test_optional_fields_schema_renders(self) -> None:
        files = {f.path: f.text for f in render(load_schema(GOOD_SCHEMAS / "optional_fields"))}
        encoder = files["target/tband_encode.hpp"]
        self.assertIn("encode_sample(std::uint8_t* buf, std::uint64_t ts, std::uint32_t channel)", encoder)
        self.assertIn(
            "encode_sample(std::uint8_t* buf, std::uint64_t ts, std::uint32_t channel, std::uint8_t gain, "
            "std::int64_t offset, std::uint64_t count, Mode mode)",
            encoder,
        )
        self.assertIn("std::optional<std::uint8_t> gain;", files["host/tband_events.hpp"])


class CliTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name) / "gen"
        self.assertEqual(run_codegen("--out", str(self.out), "-q").returncode, 0)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def check(self):
        return run_codegen("--check", "--out", str(self.out))

    def test_check_passes_on_fresh_output(self) -> None:
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("is up to date", result.stdout)

    def test_check_names_changed_missing_and_extra_files(self) -> None:
        (self.out / "docs" / "events.md").write_text("edited by hand\n")
        (self.out / "host" / "tband_events.cpp").unlink()
        (self.out / "target" / "notes.txt").write_text("stray\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertEqual(
            result.stderr.splitlines()[:3],
            [
                f"{self.out}/host/tband_events.cpp: missing",
                f"{self.out}/docs/events.md: differs from what the schema gives",
                f"{self.out}/target/notes.txt: not produced by the generator",
            ],
        )
        self.assertIn("3 stale file(s)", result.stderr)

    def test_regenerating_leaves_unchanged_files_untouched(self) -> None:
        target = self.out / "target" / "tband_encode.hpp"
        before = target.stat().st_mtime_ns
        result = run_codegen("--out", str(self.out))
        self.assertEqual(result.returncode, 0)
        self.assertIn("0 of 9 files updated", result.stdout)
        self.assertEqual(target.stat().st_mtime_ns, before)

    def test_internal_errors_are_reported_as_such(self) -> None:
        with mock.patch.object(cli, "render", side_effect=RuntimeError("boom")):
            with mock.patch("sys.stderr") as stderr:
                code = cli.main(["--schema-dir", str(SCHEMA_DIR), "--out", str(self.out)])
        self.assertEqual(code, 2)
        printed = "".join(call.args[0] for call in stderr.write.call_args_list)
        self.assertIn("internal error", printed)
        self.assertIn("RuntimeError: boom", printed)


if __name__ == "__main__":
    unittest.main()
