"""Command line: validate the schema and write, check or list generated files."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import __version__
from .errors import SchemaErrors
from .render import OUTPUTS, GeneratedFile, render
from .validate import load_schema


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tband-codegen",
        description="Generate the tband target encoder, host decoder, event reference "
        "and round-trip tests from the YAML event schema.",
        epilog="examples:\n"
        "  tband-codegen                       # regenerate ./generated from ./schema\n"
        "  tband-codegen --check               # fail if ./generated is stale\n"
        "  tband-codegen --schema-dir s --out build/gen",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--schema-dir", default="schema", help="folder of *.yaml schema files (default: schema)")
    parser.add_argument("--out", default="generated", help="output folder (default: generated)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and name the stale files if --out differs from what the schema gives",
    )
    mode.add_argument("--list-outputs", action="store_true", help="print the output paths, one per line, and exit")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    parser.add_argument("--version", action="version", version=f"tband-codegen {__version__}")
    return parser


def _write(out_dir: Path, files: list[GeneratedFile]) -> list[str]:
    """Writes files whose content changed (unchanged files keep their mtime)."""
    written = []
    for f in files:
        target = out_dir / f.path
        data = f.text.encode("utf-8")
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(f.path)
    return written


def _stale(out_dir: Path, files: list[GeneratedFile]) -> list[str]:
    """Lines naming every output that is missing, different, or not generated at all."""
    problems = []
    expected = {f.path for f in files}
    for f in files:
        target = out_dir / f.path
        if not target.is_file():
            problems.append(f"{out_dir / f.path}: missing")
        elif target.read_bytes() != f.text.encode("utf-8"):
            problems.append(f"{out_dir / f.path}: differs from what the schema gives")
    if out_dir.is_dir():
        for path in sorted(out_dir.rglob("*")):
            relative = path.relative_to(out_dir).as_posix()
            if path.is_file() and relative not in expected:
                problems.append(f"{path}: not produced by the generator")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.list_outputs:
        print("\n".join(OUTPUTS))
        return 0
    try:
        schema = load_schema(Path(args.schema_dir), args.schema_dir.rstrip("/"))
        files = render(schema)
        out_dir = Path(args.out)
        if args.check:
            problems = _stale(out_dir, files)
            if problems:
                print("\n".join(problems), file=sys.stderr)
                print(
                    f"tband-codegen: {len(problems)} stale file(s) in {out_dir}; "
                    f"regenerate with `python3 -m codegen --out {out_dir}` and commit",
                    file=sys.stderr,
                )
                return 1
            if not args.quiet:
                print(f"tband-codegen: {out_dir} is up to date ({len(schema.events)} events)")
            return 0
        written = _write(out_dir, files)
        if not args.quiet:
            print(f"tband-codegen: {len(schema.events)} events, {len(written)} of {len(files)} files updated in {out_dir}")
        return 0
    except SchemaErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        print(f"tband-codegen: {len(exc.errors)} error(s) in the schema", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - anything else is our bug, not the user's
        print("tband-codegen: internal error; please report it with the schema that caused it:", file=sys.stderr)
        traceback.print_exc()
        return 2
