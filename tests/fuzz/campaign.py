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
exit 1, but for a timeout that was the machine's, not the input's: a nice-19
fuzzer beside busy builds can wait more than the 10 s limit for a core. A
timeout's input is therefore run again on its own (at most 120 s of wall
time); if it then finishes cleanly in less than 10 s of CPU time, the
campaign notes it beside the artifact (ARTIFACT.rerun) and goes on.

`summary` reads every session's log in DIR and prints, per target, the
executions (libFuzzer's `stat::number_of_executed_units`, summed), the
sessions, the best session's executions per second and the findings
(a timeout whose rerun finished is listed apart, as starved).
"""
import argparse
import datetime
import os
import pathlib
import re
import resource
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent

# What every campaign runs with (tests/RELIABILITY.md says why):
#  - no allocation stacks in an ASan report and a smaller quarantine: a
#    finding is rerun with the defaults to get its stacks;
#  - no rereading of the corpus folder each second (one process per folder).
ASAN_OPTIONS = "malloc_context_size=0:quarantine_size_mb=32"
TIMEOUT_LIMIT_S = 10  # a run longer than this (wall time) is a finding
FUZZER_FLAGS = [f"-timeout={TIMEOUT_LIMIT_S}", "-rss_limit_mb=2048", "-max_len=4096", "-reload=0", "-print_final_stats=1"]

FINDING = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                     r"SUMMARY: libFuzzer: (deadly|crash|timeout|out-of-memory)|ERROR: libFuzzer:")
RERUN_WALL_LIMIT_S = 120
ARTIFACT = re.compile(r"Test unit written to (\S+)")


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
        same_second = 1
        while (work / f"{args.target}.{stamp}.log").exists():  # a session restarted within the second
            same_second += 1
            stamp = f"{stamp.split('-')[0]}-{same_second}"
        log = work / f"{args.target}.{stamp}.log"
        command = ["nice", "-n", "19", str(binary), *FUZZER_FLAGS, f"-max_total_time={left}",
                   f"-artifact_prefix={work}/{args.target}-{stamp}-", str(folder), str(corpus)]
        with log.open("w") as out:
            out.write("# " + " ".join(command) + "\n")
            out.flush()
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
        text = log.read_text(errors="replace")
        if FINDING.search(text):
            starved = starved_timeout(binary, text, env)
            if starved is None:
                print(f"campaign: {args.target} found something, see {log}", file=sys.stderr)
                return 1
            print(f"campaign: {args.target}: a timeout that was the machine's ({starved}); going on", file=sys.stderr)
            continue
        if status != 0:
            print(f"campaign: {args.target} exited {status} without a finding, see {log}", file=sys.stderr)
            return 1


def only_a_timeout(text: str) -> bool:
    kinds = {match.group(0) for match in FINDING.finditer(text)}
    return "SUMMARY: libFuzzer: timeout" in kinds and kinds <= {"SUMMARY: libFuzzer: timeout", "ERROR: libFuzzer:"}


def rerun_note(log_text: str) -> pathlib.Path | None:
    """Where the note of a timeout's rerun goes, beside the session's artifact; None if not a timeout."""
    artifact = ARTIFACT.search(log_text)
    return pathlib.Path(artifact.group(1) + ".rerun") if artifact and only_a_timeout(log_text) else None


def starved_timeout(binary: pathlib.Path, log_text: str, env: dict) -> str | None:
    """For a session that ended on a timeout and nothing else: its input run again alone. Returns what the
    rerun took when it finished cleanly within the limits (the note written beside the artifact), else None."""
    artifact = ARTIFACT.search(log_text)
    if not only_a_timeout(log_text) or artifact is None or not pathlib.Path(artifact.group(1)).is_file():
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        rerun = subprocess.run([str(binary), artifact.group(1)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env, timeout=RERUN_WALL_LIMIT_S)
    except subprocess.TimeoutExpired:
        return None
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if rerun.returncode != 0 or cpu >= TIMEOUT_LIMIT_S:
        return None
    note = f"reran alone in {cpu:.2f} s of CPU, {wall:.2f} s of wall time, exit 0"
    rerun_note(log_text).write_text(note + "\n")
    return note


def summary(args: argparse.Namespace) -> int:
    work = pathlib.Path(args.work)
    targets: dict[str, dict] = {}
    for log in sorted(work.glob("*.log")):
        target = log.name.split(".")[0]
        text = log.read_text(errors="replace")
        entry = targets.setdefault(target, {"executions": 0, "sessions": 0, "best": 0, "findings": [],
                                            "starved": []})
        entry["sessions"] += 1
        runs = re.search(r"stat::number_of_executed_units:\s+(\d+)", text)
        rate = re.search(r"stat::average_exec_per_sec:\s+(\d+)", text)
        entry["executions"] += int(runs.group(1)) if runs else 0
        entry["best"] = max(entry["best"], int(rate.group(1)) if rate else 0)
        if (note := rerun_note(text)) is not None and note.is_file():
            entry["starved"].append(log.name)
        elif FINDING.search(text):
            entry["findings"].append(log.name)
        if not runs:
            entry["findings"].append(f"{log.name} (no final stats: killed, or still running)")
    for target, entry in sorted(targets.items()):
        print(f"{target}: {entry['executions']:,} executions in {entry['sessions']} sessions, "
              f"best {entry['best']}/s, findings: {', '.join(entry['findings']) or 'none'}"
              + (f"; timeouts that reran in time (starved): {', '.join(entry['starved'])}" if entry["starved"] else ""))
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
