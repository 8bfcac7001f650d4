"""Command line: validate the schema and write, check or list generated files."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
import traceback
from pathlib import Path

from . import __version__
from .errors import SchemaErrors
from .render import OUTPUTS, GeneratedFile, render
from .validate import SchemaSource, compose_schema, composed_sources, load_schema, load_sources, schema_dir_sources


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tband-codegen",
        description="Generate the tband target encoder, C hooks for user events, host decoder, schema "
        "descriptor, event reference and round-trip tests from the YAML event schema.",
        epilog="examples:\n"
        "  tband-codegen --schema app.yaml --out build/tband   # your events next to tband's built-in ones\n"
        "  tband-codegen --schema schemas/ --out gen --check   # fail if gen/ is stale\n"
        "  tband-codegen compat old/ new/                      # breaking changes between two schemas\n"
        "  tband-codegen describe app.yaml > app.json          # the descriptor alone, on stdout\n"
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
    mode.add_argument(
        "--list-inputs",
        action="store_true",
        help="print every file the output depends on (the schema files read, built-in ones included, "
        "then the generator's own sources and templates), one absolute path per line, and exit",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    parser.add_argument("--version", action="version", version=f"tband-codegen {__version__}")
    return parser


def _sources(args: argparse.Namespace) -> list[SchemaSource]:
    if args.schema:
        builtin = Path(args.builtin_dir) if args.builtin_dir else None
        return composed_sources([(Path(p), p) for p in args.schema], builtin)
    schema_dir = args.schema_dir or "schema"
    return schema_dir_sources(Path(schema_dir), schema_dir.rstrip("/"))


def _generator_files() -> list[Path]:
    """The generator's own sources and templates: a change to any of them may change the output."""
    package = Path(__file__).resolve().parent
    return sorted(p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".j2"))


def _list_inputs(args: argparse.Namespace) -> None:
    """Build systems (tband_generate()) take their dependencies from here instead of globbing."""
    paths = [s.path.resolve() for s in _sources(args)] + _generator_files()
    print("\n".join(p.as_posix() for p in paths))


class OutputError(Exception):
    """An output file could not be written; every existing file is as it was."""


def _mode_for(target: Path) -> int:
    """The permissions the output gets: the old file's, or what the umask gives a new file."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _write(out_dir: Path, files: list[GeneratedFile]) -> list[str]:
    """Writes files whose content changed (unchanged files keep their mtime).

    Each goes to a temporary file in its own folder first; only when all are
    written are they moved over the old ones with os.replace, so a failure
    (a full disk, a folder that cannot be made) leaves every existing file as
    it was and removes only the temporary files this run made."""
    staged: list[tuple[str, Path]] = []  # (output path, its temporary file)
    try:
        for f in files:
            target = out_dir / f.path
            data = f.text.encode("utf-8")
            if target.is_file() and target.read_bytes() == data:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            staged.append((f.path, Path(temporary)))
            with os.fdopen(fd, "wb") as stream:
                stream.write(data)
            os.chmod(temporary, _mode_for(target))
        for path, temporary in staged:
            os.replace(temporary, out_dir / path)
    except OSError as exc:
        for _, temporary in staged:
            temporary.unlink(missing_ok=True)
        raise OutputError(f"cannot write {out_dir}: {exc}; no file was changed") from exc
    return [path for path, _ in staged]


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


def _compat_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tband-codegen compat",
        description="List the changes from OLD to NEW that matter to traces: breaking ones (a decoder built "
        "from NEW misreads or rejects traces written with OLD) and compatible ones. Exit 1 if any is breaking, "
        "2 if a schema cannot be read.",
        epilog="OLD and NEW are each a schema descriptor (*.json), a user's schema file or folder (composed "
        "with tband's built-in groups), or a complete schema folder holding base.yaml.",
    )
    parser.add_argument("old", metavar="OLD")
    parser.add_argument("new", metavar="NEW")
    parser.add_argument("--builtin-dir", metavar="DIR", help="where the built-in groups are")
    parser.add_argument("--json", action="store_true", help="print the changes as one JSON object")
    return parser


def _describe_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tband-codegen describe",
        description="Validate user schema files (composed with tband's built-in groups) and print their "
        "schema descriptor (JSON) on stdout; errors go to stderr as file:line:col. This is what "
        "`tband dump|conv --schema app.yaml` runs.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="schema files or folders; a folder holding "
                        "base.yaml is a complete schema, used as it is")
    parser.add_argument("--builtin-dir", metavar="DIR", help="where the built-in groups are")
    return parser


def _report_schema_errors(exc: SchemaErrors) -> None:
    for error in exc.errors:
        print(error, file=sys.stderr)
    print(f"tband-codegen: {len(exc.errors)} error(s) in the schema", file=sys.stderr)


def _internal_error() -> int:
    print("tband-codegen: internal error; please report it with the schema that caused it:", file=sys.stderr)
    traceback.print_exc()
    return 2


def _compat(argv: list[str]) -> int:
    from .compat import compare, load_wire_schema

    args = _compat_parser().parse_args(argv)
    builtin = Path(args.builtin_dir) if args.builtin_dir else None
    try:
        old = load_wire_schema(args.old, builtin)
        new = load_wire_schema(args.new, builtin)
        changes = compare(old, new)
    except SchemaErrors as exc:
        _report_schema_errors(exc)
        return 2
    except Exception:  # noqa: BLE001
        return _internal_error()
    breaking = sum(1 for c in changes if c.breaking)
    if args.json:
        print(json.dumps({
            "old": args.old,
            "new": args.new,
            "breaking": breaking,
            "compatible": len(changes) - breaking,
            "changes": [{"kind": c.kind, "breaking": c.breaking, "where": c.where, "message": c.message}
                        for c in changes],
        }, indent=1))
    else:
        for change in changes:
            print(change.line())
        summary = "no changes that affect traces" if not changes else (
            f"{breaking} breaking, {len(changes) - breaking} compatible change(s)")
        print(f"tband-codegen compat: {summary} from {args.old} to {args.new}")
    return 1 if breaking else 0


def _describe(argv: list[str]) -> int:
    from .descriptor import descriptor_json

    args = _describe_parser().parse_args(argv)
    builtin = Path(args.builtin_dir) if args.builtin_dir else None
    try:
        first = Path(args.paths[0])
        if len(args.paths) == 1 and first.is_dir() and (first / "base.yaml").is_file():
            schema = load_schema(first, args.paths[0].rstrip("/"))
        else:
            schema = compose_schema([(Path(p), p) for p in args.paths], builtin)
    except SchemaErrors as exc:
        _report_schema_errors(exc)
        return 1
    except Exception:  # noqa: BLE001
        return _internal_error()
    sys.stdout.write(descriptor_json(schema, f"tband-codegen {__version__}"))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "compat":
        return _compat(argv[1:])
    if argv and argv[0] == "describe":
        return _describe(argv[1:])
    args = _parser().parse_args(argv)
    if args.list_outputs:
        print("\n".join(OUTPUTS))
        return 0
    try:
        if args.list_inputs:
            _list_inputs(args)
            return 0
        schema = load_sources(_sources(args))
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
        _report_schema_errors(exc)
        return 1
    except OutputError as exc:
        print(f"tband-codegen: {exc}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - anything else is our bug, not the user's
        return _internal_error()
