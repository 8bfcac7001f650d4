"""Command line: validate the schema and write, check or list generated files."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import __version__
from .errors import SchemaErrors
from .render import OUTPUTS, GeneratedFile, render
from .validate import compose_schema, load_schema


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tband-codegen",
        description="Generate the tband target encoder, C hooks for user events, host decoder, schema "
        "descriptor, event reference and round-trip tests from the YAML event schema.",
        epilog="examples:\n"
        "  tband-codegen --schema app.yaml --out build/tband   # your events next to tband's built-in ones\n"
        "  tband-codegen --schema schemas/ --out gen --check   # fail if gen/ is stale\n"
        "  tband-codegen compat old/ new/                      # breaking changes between two schemas\n"
        "  tband-codegen --schema-dir schema                   # tband's own build: schema/ -> generated/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--schema",
        action="append",
        metavar="PATH",
        help="a user schema file, or a folder of *.yaml files, to compose with tband's built-in groups "
        "(base, freertos); repeatable",
    )
    source.add_argument(
        "--schema-dir",
        metavar="DIR",
        help="a complete schema folder, without the built-in groups added (default: ./schema "
        "when --schema is not given)",
    )
    parser.add_argument(
        "--builtin-dir", metavar="DIR", help="where the built-in groups are (default: the copy installed with the generator)"
    )
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


def _load(args: argparse.Namespace):
    if args.schema:
        builtin = Path(args.builtin_dir) if args.builtin_dir else None
        return compose_schema([(Path(p), p) for p in args.schema], builtin)
    schema_dir = args.schema_dir or "schema"
    return load_schema(Path(schema_dir), schema_dir.rstrip("/"))


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
        schema = _load(args)
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
