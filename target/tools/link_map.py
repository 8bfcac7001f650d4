"""Reads a GNU ld map file: what the linker kept of each object's sections."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

KINDS = {"text": "text", "rodata": "text", "data": "data", "bss": "bss"}


def kept_sections(map_file: Path) -> Iterator[tuple[str, int, str]]:
    """(kind, bytes, object) for every input section the linker kept: kind is
    text (.text and .rodata), data or bss; object is the map's name for the
    object file (a path, or library.a(member))."""
    lines = map_file.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Linker script and memory map"))
    pending = None  # a section name too long for its line: the figures follow on the next
    for line in lines[start:]:
        named = re.match(r"^ \.(text|rodata|data|bss)\S*\s*$", line)
        if named:
            pending = named.group(1)
            continue
        entry = re.match(r"^ (?:\.(text|rodata|data|bss)\S*)?\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)$", line)
        if entry and (entry.group(1) or pending):
            yield KINDS[entry.group(1) or pending], int(entry.group(2), 16), entry.group(3)
        pending = None
