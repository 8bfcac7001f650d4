#!/usr/bin/env python3
"""Worst-case stack use per function, from GCC's -fcallgraph-info=su output.

Reads the .ci files (VCG graphs: one node per function with its frame size,
one edge per call) of every object linked into an image, joins them by symbol
name, and follows every call chain from a function down to the leaves:
worst(f) = frame(f) + max(worst(callee)). Calls through function pointers and
recursion cannot be bounded this way; both are reported.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
FRAME = re.compile(r"\\n(\d+) bytes \((static|dynamic[^)]*)\)")


def symbol(title: str) -> str:
    """Node titles are "file:symbol" for functions defined in the unit, "symbol" otherwise."""
    return title.rsplit(":", 1)[-1]


@dataclass
class CallGraph:
    frames: dict[str, int] = field(default_factory=dict)
    dynamic: set[str] = field(default_factory=set)
    calls: dict[str, set[str]] = field(default_factory=dict)
    indirect: set[str] = field(default_factory=set)

    def read(self, path: Path) -> None:
        text = path.read_text()
        for title, label in NODE.findall(text):
            frame = FRAME.search(label)
            if frame:
                name = symbol(title)
                self.frames[name] = max(self.frames.get(name, 0), int(frame.group(1)))
                if frame.group(2) != "static":
                    self.dynamic.add(name)
        for source, target in EDGE.findall(text):
            if target == "__indirect_call":
                self.indirect.add(symbol(source))
            else:
                self.calls.setdefault(symbol(source), set()).add(symbol(target))

    def worst(self, name: str, path: tuple[str, ...] = ()) -> tuple[int, list[str], list[str]]:
        """Worst stack depth from `name`, the chain that reaches it, and problems found."""
        if name in path:
            return 0, [], [f"recursion through {name}"]
        problems = []
        if name not in self.frames:
            problems.append(f"no stack size for {name}")
        if name in self.dynamic:
            problems.append(f"{name} has a dynamic stack frame")
        if name in self.indirect:
            problems.append(f"{name} calls through a pointer")
        best, best_chain = 0, []
        for callee in sorted(self.calls.get(name, ())):
            depth, chain, callee_problems = self.worst(callee, path + (name,))
            problems += callee_problems
            if depth > best:
                best, best_chain = depth, chain
        return self.frames.get(name, 0) + best, [name] + best_chain, problems


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: stack_chains.py FUNCTION[,FUNCTION...] FILE.ci...", file=sys.stderr)
        return 2
    graph = CallGraph()
    for path in sys.argv[2:]:
        graph.read(Path(path))
    for name in sys.argv[1].split(","):
        depth, chain, problems = graph.worst(name)
        print(f"{name}\t{depth}\t{' > '.join(chain)}\t{'; '.join(sorted(set(problems)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
