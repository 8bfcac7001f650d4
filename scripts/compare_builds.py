#!/usr/bin/env python3
"""Checks that a change left tband's outputs as they were: runs the tband of
two builds (the code before a change and after it) on the same inputs with
the same commands, and compares every output file, stdout, stderr and exit
code byte for byte.

  scripts/compare_builds.py --base /tmp/tband-base/build --new build

Inputs: the traces tband_make_trace writes (bare-metal, FreeRTOS, two cores,
user events with their descriptor), the reference vectors and the fuzz
corpora of the conversion, stats and run-time schema paths. Commands: conv
to Perfetto and JSON (both modes), dump, dump --stats, stats (text and
JSON), check with the fuzz rules files' first valid one, and report.
Prints one line per difference and exits 1 if there is any.
"""
import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_traces(build: Path, out: Path) -> list[Path]:
    tool = build / "tools" / "tband_make_trace"
    made: list[Path] = []
    for kind in ("baremetal", "freertos"):
        subprocess.run([tool, kind, out / f"{kind}.bin"], check=True, capture_output=True)
        made.append(out / f"{kind}.bin")
    subprocess.run([tool, "mix", "20000", out / "mix.bin"], check=True, capture_output=True)
    made.append(out / "mix.bin")
    subprocess.run([tool, "dualcore", out / "dual"], check=True, capture_output=True)
    made += sorted(out.glob("dual*"))
    return made


def corpus(build: Path, work: Path) -> list[Path]:
    inputs = make_traces(build, work)
    inputs += sorted((ROOT / "tests" / "vectors").glob("*.bin"))
    for name in ("corpus_conversion", "corpus_stats", "corpus_runtime", "corpus_postmortem", "corpus_text_inputs"):
        inputs += sorted(p for p in (ROOT / "tests" / "fuzz" / name).iterdir() if p.is_file())
    return inputs


def commands(trace: Path) -> list[tuple[str, list[str], list[str]]]:
    """(label, arguments, output files the command writes)."""
    t = str(trace)
    return [
        ("conv", ["conv", "--no-progress", t, "-o", "out.pftrace", "--json", "out.json"], ["out.pftrace", "out.json"]),
        ("conv-bm", ["conv", "--no-progress", "--mode", "bare-metal", t, "-o", "out.pftrace"], ["out.pftrace"]),
        ("dump", ["dump", t], []),
        ("dump-stats", ["dump", "--stats", t], []),
        ("stats", ["stats", t], []),
        ("stats-json", ["stats", "--json", t], []),
        ("report", ["report", t, "-o", "out.html"], ["out.html"]),
    ]


def run(tband: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(tband), *args], cwd=cwd, capture_output=True, timeout=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, required=True, help="build directory of the code before the change")
    parser.add_argument("--new", type=Path, required=True, help="build directory of the code after it")
    args = parser.parse_args()
    args.base, args.new = args.base.resolve(), args.new.resolve()
    base_tband = args.base / "host" / "cli" / "tband"
    new_tband = args.new / "host" / "cli" / "tband"
    differences = 0
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "traces").mkdir()
        inputs = corpus(args.base, tmp / "traces")
        for trace in inputs:
            for label, argv, files in commands(trace):
                results = []
                for side, tband in (("base", base_tband), ("new", new_tband)):
                    cwd = tmp / side
                    shutil.rmtree(cwd, ignore_errors=True)
                    cwd.mkdir()
                    results.append((cwd, run(tband, argv, cwd)))
                runs += 1
                (base_dir, base), (new_dir, new) = results
                where = f"{trace.name} {label}"
                if base.returncode != new.returncode:
                    print(f"{where}: exit {base.returncode} before, {new.returncode} after")
                    differences += 1
                if base.stdout != new.stdout:
                    print(f"{where}: stdout differs ({len(base.stdout)} vs {len(new.stdout)} bytes)")
                    differences += 1
                if base.stderr.replace(bytes(args.base), b"") != new.stderr.replace(bytes(args.new), b""):
                    print(f"{where}: stderr differs:\n  before: {base.stderr[:300]!r}\n  after:  {new.stderr[:300]!r}")
                    differences += 1
                for name in files:
                    a, b = base_dir / name, new_dir / name
                    if a.exists() != b.exists() or (a.exists() and not filecmp.cmp(a, b, shallow=False)):
                        print(f"{where}: {name} differs")
                        differences += 1
    print(f"{len(inputs)} inputs, {runs} commands run by both builds: {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
