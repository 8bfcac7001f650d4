"""Reads traces through the tband CLI (`dump --json`) and checks what a user
would check by eye: counts, nesting, interrupt rates, drops."""

from __future__ import annotations

import json
import math
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Trace:
    events: list[dict]
    decode_errors: list[dict] = field(default_factory=list)

    def of(self, name: str, core: int | None = None) -> list[dict]:
        return [e for e in self.events if e["event"] == name and (core is None or e["core"] == core)]

    def counts(self, core: int | None = None) -> Counter:
        return Counter(e["event"] for e in self.events if core is None or e["core"] == core)

    def values(self, valmarker_id: int, core: int | None = None) -> list[int]:
        return [e["fields"]["val"] for e in self.of("valmarker", core) if e["fields"]["valmarker_id"] == valmarker_id]


def dump(cli: Path, *inputs: str, extra: tuple[str, ...] = ()) -> Trace:
    """Every event of the inputs, as `tband dump --json` gives them."""
    result = subprocess.run([str(cli), "dump", "--json", *extra, *inputs], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        raise AssertionError(f"tband dump failed ({result.returncode}): {result.stderr}")
    trace = Trace([])
    for line in result.stdout.splitlines():
        item = json.loads(line)
        (trace.decode_errors if "error" in item else trace.events).append(item)
    return trace


def convert(cli: Path, out: Path, *inputs: str, extra: tuple[str, ...] = (), strict: bool = True) -> str:
    """Converts to Perfetto, by default with --strict (any warning fails); returns the summary."""
    flags = ["--strict"] if strict else []
    result = subprocess.run([str(cli), "conv", *flags, "--mode", "bare-metal", "-o", str(out), *extra, *inputs],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(f"tband conv failed ({result.returncode}):\n{result.stderr}")
    return result.stderr


def stats(cli: Path, *inputs: str, extra: tuple[str, ...] = ()) -> dict:
    """`tband stats --json` of the inputs: {"figures": {name: value}, "rows": [...]}."""
    result = subprocess.run([str(cli), "stats", "--json", "--mode", "bare-metal", *extra, *inputs],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(f"tband stats failed ({result.returncode}):\n{result.stderr}")
    return json.loads(result.stdout)


def nearest_rank(values: list[int], percent: float) -> int:
    """The percentile as tband defines it: the value at rank ceil(p/100 * n)."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(percent / 100 * len(ordered))) - 1]


def span_problems(trace: Trace, core: int | None = None) -> list[str]:
    """Event-marker spans that do not nest: an end with no begin, or spans left open."""
    problems = []
    depth: dict[int, int] = defaultdict(int)
    for e in trace.events:
        if core is not None and e["core"] != core:
            continue
        if e["event"] == "evtmarker_begin":
            depth[e["fields"]["evtmarker_id"]] += 1
        elif e["event"] == "evtmarker_end":
            marker = e["fields"]["evtmarker_id"]
            if depth[marker] == 0:
                problems.append(f"end of marker {marker} at {e.get('ts')} without a begin")
            else:
                depth[marker] -= 1
    problems += [f"marker {m}: {d} span(s) left open" for m, d in depth.items() if d]
    return problems


def isr_intervals(trace: Trace, isr_id: int, core: int | None = None) -> list[tuple[int, int]]:
    """(enter, exit) times in ticks of one interrupt; fails on unpaired events."""
    out = []
    open_at = None
    for e in trace.events:
        if (core is not None and e["core"] != core) or e["event"] not in ("isr_enter", "isr_exit"):
            continue
        if e["fields"]["isr_id"] != isr_id:
            continue
        if e["event"] == "isr_enter":
            assert open_at is None, f"isr {isr_id} entered twice (at {open_at} and {e['ts']})"
            open_at = e["ts"]
        else:
            assert open_at is not None, f"isr {isr_id} exit at {e['ts']} without enter"
            out.append((open_at, e["ts"]))
            open_at = None
    return out


def events_inside(trace: Trace, intervals: list[tuple[int, int]], name: str, core: int | None = None) -> list[int]:
    """For each interval, how many `name` events lie inside it."""
    times = sorted(e["ts"] for e in trace.of(name, core))
    counts = []
    i = 0
    for begin, end in intervals:
        while i < len(times) and times[i] < begin:
            i += 1
        j = i
        while j < len(times) and times[j] <= end:
            j += 1
        counts.append(j - i)
        i = j
    return counts
