#!/usr/bin/env python3
"""Where the bytes of a Cortex-M firmware image built with tband go.

Reads the image (arm-none-eabi-size, arm-none-eabi-nm) and its linker map, and
splits the code (.text and .rodata) and data by origin: tband's runtime
(target/src), the generated hooks of the user groups (tband_user_events.cpp),
the port, the board support, libgcc (soft-float helpers and the like) and the
application (everything else). With the schema descriptor it also lists the
bytes of every generated hook (tband_<event>) and of the shared body they call.

  firmware_breakdown.py --elf fw.elf --map fw.map [--descriptor tband_schema.json] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import link_map  # noqa: E402

ORIGINS = ("runtime", "generated hooks", "port", "board", "libgcc", "application")
# Functions of the runtime that only the generated hooks use (target/src/user_hook.hpp,
# instantiated in tband_user_events.cpp): counted once, not per hook.
SHARED_USER_BODY = ("tband::rt::hook::trace_user_event", "tband::rt::hook::send_schema_id")


def run(cmd: list[str]) -> str:
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stderr}")
    return result.stdout


def origin_of(obj: str) -> str:
    """The origin of an object file named in the map: a path, or library.a(member)."""
    if "libgcc.a" in obj:
        return "libgcc"
    if "tband_user_events.cpp" in obj:
        return "generated hooks"
    if "tband_port" in obj or "/target/ports/" in obj:
        return "port"
    if "/target/boards/" in obj:
        return "board"
    # tband_add_firmware()'s library <target>_tband, and tband's sources compiled directly.
    if "/target/src/" in obj or re.search(r"_tband\.a\(", obj):
        return "runtime"
    return "application"


def section_sizes(elf: Path) -> dict[str, int]:
    text, data, bss = run(["arm-none-eabi-size", str(elf)]).splitlines()[1].split()[:3]
    return {"text": int(text), "data": int(data), "bss": int(bss)}


def by_origin(map_file: Path) -> dict[str, dict[str, int]]:
    """Bytes the linker kept, by origin and kind (text: .text and .rodata; data; bss)."""
    totals = {origin: {"text": 0, "data": 0, "bss": 0} for origin in ORIGINS}
    for kind, size, obj in link_map.kept_sections(map_file):
        totals[origin_of(obj)][kind] += size
    return totals


def symbol_sizes(elf: Path) -> dict[str, int]:
    """Size of every function and object in the image, by demangled name (no parameter list)."""
    sizes = {}
    for line in run(["arm-none-eabi-nm", "-S", "-C", str(elf)]).splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) == 4 and parts[2] in "TtWw":
            sizes[parts[3].split("(")[0]] = int(parts[1], 16)
    return sizes


def hook_sizes(elf: Path, descriptor: Path) -> tuple[dict[str, int], dict[str, int]]:
    """(bytes of each generated hook in the image, bytes of the shared body)."""
    schema = json.loads(descriptor.read_text())
    user_groups = set(schema["user_groups"])
    symbols = symbol_sizes(elf)
    hooks = {}
    for event in schema["events"]:
        name = f"tband_{event['name']}"
        if event["group"] in user_groups and name in symbols:
            hooks[name] = symbols[name]
    shared = {name: symbols[name] for name in SHARED_USER_BODY if name in symbols}
    return hooks, shared


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elf", type=Path, required=True)
    parser.add_argument("--map", type=Path, required=True)
    parser.add_argument("--descriptor", type=Path, help="the schema descriptor: list the generated hooks' sizes")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()

    report: dict = {"image": section_sizes(args.elf), "by_origin": by_origin(args.map)}
    print(f"{args.elf.name}: .text {report['image']['text']}, .data {report['image']['data']}, "
          f".bss {report['image']['bss']}")
    print("| Origin | .text + .rodata | .data | .bss |\n| --- | --- | --- | --- |")
    for origin, sizes in report["by_origin"].items():
        print(f"| {origin} | {sizes['text']} | {sizes['data']} | {sizes['bss']} |")
    if args.descriptor:
        hooks, shared = hook_sizes(args.elf, args.descriptor)
        report["hooks"], report["shared_body"] = hooks, shared
        print("\n| Generated hook | bytes |\n| --- | --- |")
        for name, size in hooks.items():
            print(f"| `{name}` | {size} |")
        for name, size in shared.items():
            print(f"| shared, once: `{name}` | {size} |")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
