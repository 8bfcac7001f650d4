"""Generated output: reproducible, with the right banner, freestanding target
code, and a --check mode that names every stale file."""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from codegen import __version__, cli
from codegen.render import OUTPUTS, render
from codegen.validate import load_schema

from .support import GOOD_SCHEMAS, REPO, SCHEMA_DIR, USER_SCHEMA, run_codegen


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

    def test_listed_inputs_are_the_files_read(self) -> None:
        """tband_generate() depends on exactly these: the built-in schema files,
        the user's (a folder's files one by one), and the generator itself."""
        generator = sorted(p for p in (REPO / "codegen").rglob("*") if p.suffix in (".py", ".j2"))
        schema = sorted(SCHEMA_DIR.glob("*.yaml"))
        user = sorted(USER_SCHEMA.glob("*.yaml"))
        composed = run_codegen("--list-inputs", "--schema", str(USER_SCHEMA))
        self.assertEqual(composed.returncode, 0, composed.stderr)
        self.assertEqual([Path(line) for line in composed.stdout.splitlines()], schema + user + generator)
        alone = run_codegen("--list-inputs", "--schema-dir", "schema")
        self.assertEqual([Path(line) for line in alone.stdout.splitlines()], schema + generator)
        missing = run_codegen("--list-inputs", "--schema", "no_such.yaml")
        self.assertEqual(missing.returncode, 1)
        self.assertIn("no_such.yaml:1:1: error: no such schema file or folder", missing.stderr)

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

    def files_in_out(self) -> dict[str, bytes]:
        return {p.relative_to(self.out).as_posix(): p.read_bytes() for p in self.out.rglob("*") if p.is_file()}

    def test_a_folder_that_cannot_be_made_changes_no_file(self) -> None:
        encoder = self.out / "target" / "tband_encode.hpp"
        encoder.write_text("an older encoder\n")  # stale: the run would replace it
        shutil.rmtree(self.out / "descriptor")
        (self.out / "descriptor").write_text("the user's own file\n")  # where a folder must go
        before = self.files_in_out()
        result = run_codegen("--out", str(self.out))
        self.assertEqual(result.returncode, 1)
        self.assertNotIn("Traceback", result.stderr)
        self.assertTrue(result.stderr.startswith(f"tband-codegen: cannot write {self.out}: "), result.stderr)
        self.assertTrue(result.stderr.rstrip().endswith("no file was changed"), result.stderr)
        self.assertEqual(self.files_in_out(), before, "no file changed, none left behind")

    def test_a_write_that_fails_midway_changes_no_file(self) -> None:
        for path in ("target/tband_encode.hpp", "host/tband_events.hpp", "docs/events.md"):
            (self.out / path).write_text("old\n")
        before = self.files_in_out()
        real_fdopen = cli.os.fdopen
        calls = []

        def disk_full_on_third(fd, mode):
            calls.append(fd)
            if len(calls) == 3:
                os.close(fd)
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_fdopen(fd, mode)

        with mock.patch.object(cli.os, "fdopen", side_effect=disk_full_on_third), mock.patch("sys.stderr"):
            code = cli.main(["--schema-dir", str(SCHEMA_DIR), "--out", str(self.out)])
        self.assertEqual(code, 1)
        self.assertEqual(len(calls), 3)
        self.assertEqual(self.files_in_out(), before, "the first two were not replaced; no temporary file is left")

    def test_rewritten_files_keep_their_permissions_and_other_files_stay(self) -> None:
        docs = self.out / "docs" / "events.md"
        docs.write_text("old\n")
        docs.chmod(0o640)
        (self.out / "docs" / "notes.md").write_text("the user's notes\n")
        self.assertEqual(run_codegen("--out", str(self.out), "-q").returncode, 0)
        self.assertEqual(stat.S_IMODE(docs.stat().st_mode), 0o640)
        self.assertNotEqual(docs.read_text(), "old\n")
        self.assertEqual((self.out / "docs" / "notes.md").read_text(), "the user's notes\n")
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE((self.out / "host" / "tband_events.cpp").stat().st_mode), 0o666 & ~umask)

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
