"""The host's layers (host/README.md): each folder of host/ may include only
the folders LAYERS allows it, so the model never depends on an importer, an
output or the application that uses it. The CMake libraries follow the same
table (one per layer, host/CMakeLists.txt), so an upward include that is used
fails to link too; this test names the file and line of the include itself."""

from __future__ import annotations

import re
import unittest
from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "host"

# folder -> the folders its files may include, bottom to top. The one place
# that says what may depend on what; host/README.md describes it.
LAYERS: dict[str, set[str]] = {
    "common": set(),
    "decode": set(),  # and the generated tband_events.hpp
    "postmortem": set(),
    "input": {"common", "postmortem"},
    "schema": {"common", "decode"},
    # The model: what happened in the traced system.
    "trace": {"common", "decode", "schema"},
    # Above the model: what observes it, what feeds it, what writes it.
    "stats": {"common", "trace"},
    "import": {"common", "decode", "schema", "input", "trace"},
    "perfetto": {"common", "decode", "trace"},
    "json": {"common", "decode", "trace"},
    "vcd": {"common", "decode", "trace"},
    "report": {"common", "stats", "trace"},
    # The use cases (convert, dump, analyse), then the programs.
    "app": {"common", "decode", "schema", "input", "trace", "import", "perfetto", "json", "vcd", "stats"},
    "record": {"common", "decode", "schema", "input", "trace", "import"},
    "ctl": {"decode"},  # and the target's tband/crc16.h
    "serve": {"common"},
    "view": {"common", "trace", "stats", "serve"},  # the live view: stats' figures, served
    "cli": {"common", "decode", "schema", "input", "trace", "stats", "report", "app", "record", "ctl", "serve", "view"},
    # The WebAssembly converter's entry (the web page's tband.js), beside cli/.
    "web": {"common", "decode", "schema", "input", "trace", "stats", "app"},
}

# Includes the table does not allow yet, each with what removes it (none now;
# the test fails on an entry that is no longer needed).
KNOWN_EXCEPTIONS: set[tuple[str, str]] = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def host_sources() -> list[Path]:
    return sorted(p for p in HOST.rglob("*") if p.suffix in (".hpp", ".cpp") and p.is_file())


def folder_of(path: Path) -> str:
    return path.relative_to(HOST).parts[0]


class HostLayering(unittest.TestCase):
    def test_every_folder_has_a_layer(self) -> None:
        folders = {folder_of(p) for p in host_sources()}
        self.assertEqual(set(), folders - LAYERS.keys(), "add the new folder of host/ to LAYERS")

    def test_layers_have_no_cycle(self) -> None:
        # Each folder may only include folders listed before it.
        seen: set[str] = set()
        for folder, allowed in LAYERS.items():
            self.assertEqual(set(), allowed - seen, f"{folder} depends on a folder above it in LAYERS")
            seen.add(folder)

    def test_no_include_goes_up(self) -> None:
        problems: list[str] = []
        used_exceptions: set[tuple[str, str]] = set()
        for path in host_sources():
            folder = folder_of(path)
            rel = path.relative_to(HOST).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                included = match.group(1)
                target = included.split("/")[0]
                # Generated headers (tband_events.hpp), the target's tband/*.h
                # and the protobuf code are no folder of host/.
                if "/" not in included or target not in LAYERS or target == folder:
                    continue
                if target in LAYERS[folder]:
                    continue
                if (rel, included) in KNOWN_EXCEPTIONS:
                    used_exceptions.add((rel, included))
                    continue
                problems.append(f"host/{rel}:{number}: {folder}/ must not include {included} ({target}/)")
        self.assertEqual([], problems, "includes against the layers (tests/host/test_layering.py LAYERS)")
        self.assertEqual(set(), KNOWN_EXCEPTIONS - used_exceptions, "an exception that is gone: delete it")


if __name__ == "__main__":
    unittest.main()
