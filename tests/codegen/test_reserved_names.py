"""The names a user event's hook (tband_<event>) must not take are kept by hand
in codegen (an installed generator has no target/ tree to read); this test
reads them from the headers a hook's translation unit sees, so the list cannot
miss one (tband_flush_streaming, the tband_freertos_* functions) or keep one
the API dropped."""

from __future__ import annotations

import re
import unittest

from codegen.naming import SNAKE_CASE
from codegen.validate import RESERVED_HOOK_NAMES, RESERVED_HOOK_PREFIXES, hook_clash, load_schema

from .support import REPO, SCHEMA_DIR

# What tband_user_events.cpp includes: tband.h and its headers, the port's
# tband_port.h (any port), and the runtime's own headers.
HEADER_GLOBS = ("target/include/**/*.h", "target/ports/*/*.h", "target/src/*.hpp")

COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"', re.DOTALL)
INCLUDE = re.compile(r"^\s*#\s*include[^\n]*", re.MULTILINE)
API_NAME = re.compile(r"\btband_([a-z0-9_]+)\b")

# tband_* names in the headers that are no global name a hook could clash with.
NOT_GLOBAL = {"idle_core": "a loop variable inside a tband/freertos.h macro"}


def header_api_names() -> dict[str, str]:
    """tband_* names (without the prefix) that an event could take -> a header that has it."""
    names: dict[str, str] = {}
    for pattern in HEADER_GLOBS:
        for header in sorted(REPO.glob(pattern)):
            code = INCLUDE.sub("", COMMENT_OR_STRING.sub(" ", header.read_text(encoding="utf-8")))
            for name in API_NAME.findall(code):
                if SNAKE_CASE.fullmatch(name):  # tband_fn_marker_id_ and the like no event name can give
                    names.setdefault(name, header.relative_to(REPO).as_posix())
    return names


class ReservedHookNamesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.headers = header_api_names()
        # Built-in events' hooks are in the headers too; their names are taken as event names already.
        self.builtin_events = {e.name for e in load_schema(SCHEMA_DIR).events}

    def test_the_headers_were_read(self) -> None:
        for name in ("start_streaming", "flush_streaming", "freertos_queue_name", "isr_enter"):
            self.assertIn(name, self.headers)

    def test_every_api_name_is_reserved(self) -> None:
        missing = sorted(n for n in set(self.headers) - self.builtin_events - set(NOT_GLOBAL) if hook_clash(n) is None)
        self.assertEqual(
            missing, [], "add these to RESERVED_HOOK_NAMES (codegen/validate.py): "
            + ", ".join(f"{n} ({self.headers[n]})" for n in missing)
        )

    def test_no_reserved_name_or_prefix_is_stale(self) -> None:
        self.assertEqual(sorted(RESERVED_HOOK_NAMES - set(self.headers)), [])
        for prefix in RESERVED_HOOK_PREFIXES:
            self.assertTrue(any(n.startswith(prefix) for n in self.headers), prefix)


if __name__ == "__main__":
    unittest.main()
