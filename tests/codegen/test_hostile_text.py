"""Schema texts (titles, descriptions, enum value docs, display units) that
would break a generated file if pasted in as they are: a final backslash
continues a // comment, '*/' ends a /* */ comment, '??/' is a trigraph in C99,
'|' splits a Markdown table cell, '#' or '-' at a line's start makes a heading
or a list, '<!--' opens an HTML comment. The generated C and C++ must still
compile, and the Markdown and JSON keep their structure and the texts."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from codegen import render

from .support import REPO, run_codegen

HOSTILE = [
    "Ends in a backslash \\",
    "Closes */ a comment and opens /* one",
    "A trigraph ??/",
    "More trigraphs ??= ??( ??) ??< ??> ??! ??' ??- and ???/",
    "Quotes \" and ' and escapes \\\" \\n \\x41 \\",
    "`code | with a pipe` and a lone ` backtick, a\\|b and |pipes|",
    "<!-- opens an HTML comment, <b>bold</b> [a link](http://x) & &amp;",
    "# reads as a heading",
    "- reads as a list item",
    "1. reads as an ordered list",
    "> reads as a quote",
    "``` opens a fence",
    "Ends in a hash #",
    "Percent %s %n, braces {} and non-ASCII é ü 漢字 😀",
]


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)


SECOND_FILE = "second-->`x`*.yaml"  # ends the docs' banner comment, holds a backtick
TITLE = "Title */ ??/ | [x] <b> \\"
TRACK = "*/ ??/ {{ | `x \\"


def hostile_schema() -> tuple[str, str]:
    n = len(HOSTILE)
    lines = [
        "group: hostile",
        f"title: {_q(TITLE)}",
        f"description: {_q(HOSTILE[0])}",
        "enums:",
        "  - name: Mood",
        f"    description: {_q(HOSTILE[7])}",
        "    values:",
        *(f"      - {{name: MOOD_{i}, value: {i}, description: {_q(text)}}}" for i, text in enumerate(HOSTILE)),
        "events:",
    ]
    for i, text in enumerate(HOSTILE):
        lines += [
            f"  - name: hostile_{i}",
            f"    id: {0xC0 + i}",
            f"    description: {_q(text)}",
            "    fields:",
            f"      - {{name: mood, type: Mood, description: {_q(HOSTILE[(i + 1) % n])}}}",
            f"      - {{name: level, type: u16, description: {_q(HOSTILE[(i + 2) % n])}}}",
            f"      - {{name: note, type: str, description: {_q(HOSTILE[(i + 3) % n])}}}",
        ]
    lines += [
        "  - name: hostile_counter",
        "    id: 0xF0",
        "    description: A counter whose unit and track are hostile.",
        "    fields: [{name: level, type: u16, description: Level.}]",
        f"    display: {{kind: counter, value: level, unit: {_q(HOSTILE[4])}, track: {_q(TRACK)}}}",
    ]
    second = [
        "group: second",
        f"title: {_q('# x ``` - ends in a hash #')}",
        f"description: {_q(HOSTILE[10])}",
        "events:",
        "  - name: second_event",
        "    id: 0xF8",
        f"    description: {_q(HOSTILE[3])}",
    ]
    return "\n".join(lines) + "\n", "\n".join(second) + "\n"


def schema_events(body: list[str]) -> list[str]:
    """The events the reference lists in its groups' tables."""
    return re.findall(r"^\| 0x[0-9A-F]{2} \| \[`(\w+)`\]", "\n".join(body), re.MULTILINE)


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells, split as GFM does: '\\' takes the next character with it."""
    cells, current, i = [], "", 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row):
            current += row[i : i + 2]
            i += 2
            continue
        if row[i] == "|":
            cells.append(current)
            current = ""
        else:
            current += row[i]
        i += 1
    cells.append(current)
    return [c.strip() for c in cells[1:-1]]


@unittest.skipUnless(shutil.which("g++") and shutil.which("gcc"), "needs gcc and g++")
class HostileTextTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix="tband_hostile_")
        cls.tmp = Path(cls._tmp.name)
        schema = cls.tmp / "schema"
        schema.mkdir()
        first, second = hostile_schema()
        (schema / "hostile.yaml").write_text(first, encoding="utf-8")
        (schema / SECOND_FILE).write_text(second, encoding="utf-8")
        cls.out = cls.tmp / "gen"
        cls.result = run_codegen("--schema", str(schema), "--out", str(cls.out))

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def setUp(self) -> None:
        self.assertEqual(self.result.returncode, 0, self.result.stderr)

    def compile(self, compiler: str, std: str, source: Path, *includes: Path) -> None:
        flags = [f"-std={std}", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wtrigraphs", "-Wcomment"]
        if std.startswith("c") and not std.startswith("c++"):
            flags.append("-pedantic")  # strict ISO C99: trigraphs are on
        result = subprocess.run(
            [compiler, *flags, *(f"-I{p}" for p in includes), str(source)],
            capture_output=True, text=True, check=False,
        )
        self.assertEqual(result.returncode, 0, f"{compiler} -std={std} {source.name}:\n{result.stderr[:3000]}")

    def test_c_hooks_header_compiles_as_c99_with_trigraphs(self) -> None:
        source = self.tmp / "c_check.c"
        source.write_text('#include "tband_user_events.h"\n')
        self.compile("gcc", "c99", source, self.out / "target", REPO / "target/include", REPO / "target/ports/host",
                     REPO / "tests/user_events/configs/external")

    def test_target_encoder_and_hooks_compile_as_cpp17(self) -> None:
        self.compile("g++", "c++17", self.out / "target" / "tband_user_events.cpp", self.out / "target",
                     REPO / "target/include", REPO / "target/src", REPO / "target/ports/host",
                     REPO / "tests/user_events/configs/external")

    def test_host_decoder_compiles_as_cpp20(self) -> None:
        self.compile("g++", "c++20", self.out / "host" / "tband_events.cpp", self.out / "host", REPO / "host")

    def test_no_generated_c_line_ends_in_a_backslash(self) -> None:
        for path in ("target/tband_encode.hpp", "target/tband_user_events.h", "host/tband_events.hpp",
                     "host/tband_events.cpp"):
            for number, line in enumerate((self.out / path).read_text(encoding="utf-8").splitlines(), 1):
                self.assertFalse(line.endswith("\\"), f"{path}:{number}: {line}")

    def test_descriptor_is_json_with_the_texts_unchanged(self) -> None:
        descriptor = json.loads((self.out / "descriptor" / "tband_schema.json").read_text(encoding="utf-8"))
        events = {e["name"]: e for e in descriptor["events"]}
        for i, text in enumerate(HOSTILE):
            self.assertEqual(events[f"hostile_{i}"]["description"], text)
        self.assertEqual(events["hostile_counter"]["display"]["unit"], HOSTILE[4])

    def test_markdown_keeps_its_structure(self) -> None:
        lines = (self.out / "docs" / "events.md").read_text(encoding="utf-8").splitlines()
        self.assertEqual(lines[0], "<!--")
        closing = lines.index("-->")
        self.assertEqual(closing, 3, "the banner comment ends where the generator ends it")
        self.assertIn(f" Defined in ``{SECOND_FILE}`` (a user group).", "\n".join(lines))
        body = lines[closing + 1 :]
        headings = [line for line in body if line.startswith("#")]
        for heading in headings:
            self.assertRegex(heading, r"^(# tband event reference|## .+|### Enum `\w+`|### `\w+` \(0x[0-9A-F]{2}\))$")
        self.assertEqual(
            [h for h in headings if h.startswith("## ")],
            ["## Base", "## FreeRTOS", "## Title */ ??/ | \\[x\\] &lt;b> \\\\", "## # x ``` - ends in a hash \\#"],
        )
        self.assertEqual(len(headings), 1 + 4 + 5 + len(schema_events(body)), "no text became a heading")
        for line in body:
            self.assertFalse(line.startswith((">", "```", "1.", "<!--", "-->")), line)
            if line.startswith("-"):
                self.assertRegex(line, r"^- (Metadata|Max length): ")
            if "<" in re.sub(r"(`+).*?\1", "", line):  # outside code spans
                self.assertRegex(line, r'^<a id="\w+"></a>$')
        # Every row of a table has as many cells as its header.
        width = None
        for line in body:
            if not line.startswith("|"):
                width = None
                continue
            cells = _cells(line)
            if width is None:
                width = len(cells)
            self.assertEqual(len(cells), width, line)
        self.assertIn("| [Title */ ??/ \\| \\[x\\] &lt;b> \\\\](#hostile) |", "\n".join(body))


class FileNameTest(unittest.TestCase):
    def test_a_file_name_with_a_control_character_is_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "app\n.yaml").write_text("group: app\ntitle: App\ndescription: D.\nevents: []\n")
            result = run_codegen("--schema", tmp, "--out", str(Path(tmp) / "gen"))
        self.assertEqual(result.returncode, 1)
        self.assertEqual(
            result.stderr.splitlines()[0],
            f"{tmp}/app\\n.yaml:1:1: error: the file's name must be printable text, not hold U+000A (a control character) "
            "at character 4",
        )


class EscapeTest(unittest.TestCase):
    """What each output's escaping gives, character by character."""

    def test_c_comments(self) -> None:
        self.assertEqual(render._c_comment("a */ b /* c"), "a * / b / * c")
        self.assertEqual(render._c_comment("ends \\"), "ends \\.")
        self.assertEqual(render._c_comment("a ??/"), "a ?\\?/")
        self.assertEqual(render._c_comment("One line."), "One line.")

    def test_c_strings(self) -> None:
        self.assertEqual(render._cpp_string('a "b" \\ ???/'), 'a \\"b\\" \\\\ ?\\?\\?/')

    def test_markdown(self) -> None:
        self.assertEqual(render._md_cell("a | b \\| c \\"), "a \\| b \\\\\\| c \\\\")
        self.assertEqual(render._md_cell("`a | \\| <b>` <b> [c] &"), "`a \\| \\\\\\| <b>` &lt;b> \\[c\\] &amp;")
        self.assertEqual(render._md_line("# h"), "\\# h")
        self.assertEqual(render._md_line("12) x"), "12\\) x")
        self.assertEqual(render._md_line("3 items"), "3 items")
        self.assertEqual(render._md_heading("C#"), "C\\#")


if __name__ == "__main__":
    unittest.main()
