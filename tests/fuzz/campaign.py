#!/usr/bin/env python3
"""Runs a libFuzzer campaign of one target and adds up what it ran.

  campaign.py run BUILD TARGET --until HH:MM [--work DIR]
  campaign.py summary [--work DIR]

`run` starts BUILD/tests/fuzz/fuzz_TARGET (a TBAND_LIBFUZZER build, see
README.md) with the folder DIR/TARGET for new inputs; the committed corpus
(tests/fuzz/corpus_TARGET) is read, never written. The fuzzer runs under
`nice` until the given UTC time, in a Unix session of its own whose
autogroup is niced too (under autogroup scheduling `nice` alone ranks a
process only within its session). A run that libFuzzer ends early without
a finding is started again. A finding (crash, sanitizer report, leak,
timeout, out of memory) stops the campaign with its artifact in DIR and
exit 1.

`summary` reads every session's log in DIR and prints, per target, the
executions (libFuzzer's `stat::number_of_executed_units`, summed), the
sessions, the best session's executions per second and the findings.
"""
import argparse
import datetime
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

# What every campaign runs with (tests/RELIABILITY.md says why):
#  - no allocation stacks in an ASan report and a smaller quarantine: a
#    finding is rerun with the defaults to get its stacks;
#  - no rereading of the corpus folder each second (one process per folder).
ASAN_OPTIONS = "malloc_context_size=0:quarantine_size_mb=32"
FUZZER_FLAGS = ["-timeout=10", "-rss_limit_mb=2048", "-max_len=4096", "-reload=0", "-print_final_stats=1"]

FINDING = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                     r"SUMMARY: libFuzzer: (deadly|crash|timeout|out-of-memory)|ERROR: libFuzzer:")


def default_work() -> pathlib.Path:
    return pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / "tband_fuzz"


def until_time(text: str) -> datetime.datetime:
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        hour, minute = (int(part) for part in text.split(":"))
        end = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    except ValueError:
        raise SystemExit(f"campaign: --until wants HH:MM (UTC), not {text!r}")
    if end <= now:
        end += datetime.timedelta(days=1)
    return end


def niced_autogroup() -> None:
    """Nices this process's autogroup, in a session of its own so that the
    caller's (a shell, ctest) is not niced with it."""
    if os.getsid(0) != os.getpid():
        try:
            os.setsid()
        except OSError:
            return  # a process group leader (a shell's job): `nice` alone, or start it with setsid
    try:
        pathlib.Path("/proc/self/autogroup").write_text("19")
    except OSError:
        pass  # no autogroup scheduling: `nice` is enough


def run(args: argparse.Namespace) -> int:
    end = until_time(args.until)
    binary = pathlib.Path(args.build) / "tests" / "fuzz" / f"fuzz_{args.target}"
    corpus = HERE / f"corpus_{args.target}"
    if not binary.is_file():
        raise SystemExit(f"campaign: {binary} not found: build it first (tests/fuzz/README.md)")
    if not corpus.is_dir():
        raise SystemExit(f"campaign: no committed corpus {corpus}")
    work = pathlib.Path(args.work)
    folder = work / args.target
    folder.mkdir(parents=True, exist_ok=True)
    niced_autogroup()
    env = dict(os.environ, ASAN_OPTIONS=ASAN_OPTIONS)
    while True:
        left = int((end - datetime.datetime.now(datetime.timezone.utc)).total_seconds())
        if left < 30:
            return 0
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        log = work / f"{args.target}.{stamp}.log"
        command = ["nice", "-n", "19", str(binary), *FUZZER_FLAGS, f"-max_total_time={left}",
                   f"-artifact_prefix={work}/{args.target}-{stamp}-", str(folder), str(corpus)]
        with log.open("w") as out:
            out.write("# " + " ".join(command) + "\n")
            out.flush()
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
        if FINDING.search(log.read_text(errors="replace")):
            print(f"campaign: {args.target} found something, see {log}", file=sys.stderr)
            return 1
        if status != 0:
            print(f"campaign: {args.target} exited {status} without a finding, see {log}", file=sys.stderr)
            return 1


def summary(args: argparse.Namespace) -> int:
    work = pathlib.Path(args.work)
    targets: dict[str, dict] = {}
    for log in sorted(work.glob("*.log")):
        target = log.name.split(".")[0]
        text = log.read_text(errors="replace")
        entry = targets.setdefault(target, {"executions": 0, "sessions": 0, "best": 0, "findings": []})
        entry["sessions"] += 1
        runs = re.search(r"stat::number_of_executed_units:\s+(\d+)", text)
        rate = re.search(r"stat::average_exec_per_sec:\s+(\d+)", text)
        entry["executions"] += int(runs.group(1)) if runs else 0
        entry["best"] = max(entry["best"], int(rate.group(1)) if rate else 0)
        if FINDING.search(text):
            entry["findings"].append(log.name)
        if not runs:
            entry["findings"].append(f"{log.name} (no final stats: killed, or still running)")
    for target, entry in sorted(targets.items()):
        print(f"{target}: {entry['executions']:,} executions in {entry['sessions']} sessions, "
              f"best {entry['best']}/s, findings: {', '.join(entry['findings']) or 'none'}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_parser = sub.add_parser("run", help="fuzz one target until a time")
    run_parser.add_argument("build", help="the TBAND_LIBFUZZER build folder")
    run_parser.add_argument("target", help="conversion, stats, postmortem, text_inputs or threadx")
    run_parser.add_argument("--until", required=True, help="UTC time to stop, HH:MM")
    run_parser.add_argument("--work", default=default_work(), help="corpus folders and logs (default $TMPDIR/tband_fuzz)")
    summary_parser = sub.add_parser("summary", help="add up the sessions' logs")
    summary_parser.add_argument("--work", default=default_work())
    args = parser.parse_args()
    return run(args) if args.command == "run" else summary(args)


if __name__ == "__main__":
    sys.exit(main())
