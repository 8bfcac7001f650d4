#!/usr/bin/env python3
"""Draws signals of a VCD that `tband conv --vcd` wrote as an SVG waveform
picture (the README's), standard library only:

    scripts/waveform_svg.py t.vcd out.svg --from 3600000 --to 4800000 \\
        Core_0.isr.active Core_0.isr.tick_1kHz acquire ...

Signals are scope paths without the top scope `tband`. 1-bit signals are
drawn as levels, others as buses with their values, named through the
translate filters beside the VCD (FILE.isrs.filter for isr.active,
FILE.tasks.filter for Running_task_id, FILE.filter for *_name). `z` (no
handler or task) and name code 0 (no slice open) are drawn as a mid line. scripts/make_waveform_picture.sh
makes docs/waveform.svg from the QEMU demo's trace."""
import argparse
import html
from pathlib import Path

ROW, LABEL, WIDTH, TOP = 30, 190, 960, 34


def read_vcd(path, wanted):
    """({path: [(t, value)]}, {path: width}) for the wanted signals; values
    as strings ('0', '1', 'z', 'x', or the number in decimal, or a real's text)."""
    changes, widths = {p: [] for p in wanted}, {}
    ids, scope, now, body = {}, [], 0, False
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if not body:
                if words[0] == "$scope":
                    scope.append(words[2])
                elif words[0] == "$upscope":
                    scope.pop()
                elif words[0] == "$var":
                    name = ".".join(scope[1:] + [words[4]])
                    if name in changes:
                        ids.setdefault(words[3], []).append(name)
                        widths[name] = int(words[2])
                elif words[0] == "$enddefinitions":
                    body = True
                continue
            head = words[0]
            if head[0] == "#":
                now = int(head[1:])
                continue
            if head[0] in "bBrR":
                ident, raw = words[1], head[1:].lower()
                value = raw if head[0] in "rR" else ("z" if set(raw) == {"z"} else "x" if "x" in raw
                                                     else str(int(raw, 2)))
            elif head[0] in "01xzXZ":
                ident, value = head[1:], head[0].lower()
            else:
                continue
            for name in ids.get(ident, ()):
                changes[name].append((now, value))
    missing = [p for p, c in changes.items() if not c]
    if missing:
        raise SystemExit(f"{path}: no such signal(s) or no values: {', '.join(missing)}")
    return changes, widths


def read_filter(path):
    """A translate filter's decimal entries: {"5": "name"}."""
    names = {}
    if Path(path).is_file():
        for line in Path(path).read_text().splitlines():
            value, _, name = line.partition(" ")
            if not line.startswith("#") and len(value) != 8:
                names[value] = name
    return names


def filter_for(vcd, signal):
    if signal.endswith("isr.active"):
        return read_filter(f"{vcd}.isrs.filter")
    if signal.endswith("Running_task_id"):
        return read_filter(f"{vcd}.tasks.filter")
    if signal.endswith("_name"):
        return read_filter(f"{vcd}.filter")
    return {}


def segments(changes, start, end):
    """(from, to, value) pieces covering [start, end]."""
    value, out = "x", []
    for t, v in changes:
        if t <= start:
            value = v
        elif t < end:
            out.append(t)
            out.append(v)
    pieces, t0 = [], start
    for i in range(0, len(out), 2):
        pieces.append((t0, out[i], value))
        t0, value = out[i], out[i + 1]
    pieces.append((t0, end, value))
    return [p for p in pieces if p[1] > p[0] or p[0] == start]


def draw(vcd, out, start, end, signals, title):
    changes, widths = read_vcd(vcd, signals)
    span = WIDTH - LABEL - 20

    def x(t):
        return LABEL + (t - start) * span / (end - start)

    height = TOP + ROW * len(signals) + 34
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'font-family="monospace" font-size="12">',
           f'<rect width="{WIDTH}" height="{height}" fill="#111"/>',
           f'<text x="10" y="20" fill="#ddd" font-size="13">{html.escape(title)}</text>']
    step = 10 ** len(str((end - start) // 10)) // 10 or 1
    for tick in range((start // step + 1) * step, end, step):
        svg.append(f'<line x1="{x(tick):.1f}" y1="{TOP - 4}" x2="{x(tick):.1f}" y2="{height - 26}" stroke="#333"/>')
        svg.append(f'<text x="{x(tick):.1f}" y="{height - 10}" fill="#999" text-anchor="middle">'
                   f'{tick / 1e6:g} ms</text>')
    for row, signal in enumerate(signals):
        y0 = TOP + row * ROW
        hi, lo, mid = y0 + 6, y0 + ROW - 6, y0 + ROW / 2
        svg.append(f'<text x="{LABEL - 8}" y="{mid + 4}" fill="#ddd" text-anchor="end">{html.escape(signal)}</text>')
        names = filter_for(vcd, signal)
        pieces = segments(changes[signal], start, end)
        one_bit = widths[signal] == 1
        none = "0" if signal.endswith("_name") else "z"  # name code 0: no slice open
        for a, b, v in pieces:
            xa, xb = x(a), x(b)
            if one_bit:
                y = hi if v == "1" else lo
                svg.append(f'<line x1="{xa:.1f}" y1="{y}" x2="{xb:.1f}" y2="{y}" stroke="#4e4" stroke-width="1.5"/>')
                if a != start:
                    svg.append(f'<line x1="{xa:.1f}" y1="{hi}" x2="{xa:.1f}" y2="{lo}" stroke="#4e4" stroke-width="1.5"/>')
            elif v in ("z", "x", none):
                svg.append(f'<line x1="{xa:.1f}" y1="{mid}" x2="{xb:.1f}" y2="{mid}" stroke="#c93"/>')
            else:
                svg.append(f'<polygon points="{xa:.1f},{mid} {min(xa + 3, xb):.1f},{hi} {max(xb - 3, xa):.1f},{hi} '
                           f'{xb:.1f},{mid} {max(xb - 3, xa):.1f},{lo} {min(xa + 3, xb):.1f},{lo}" '
                           f'fill="#143" stroke="#4e4"/>')
                text = names.get(v, v)
                if len(text) * 7.3 + 8 < xb - xa:
                    svg.append(f'<text x="{(xa + xb) / 2:.1f}" y="{mid + 4}" fill="#fff" text-anchor="middle">'
                               f'{html.escape(text)}</text>')
    svg.append("</svg>")
    Path(out).write_text("\n".join(svg) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vcd")
    parser.add_argument("svg")
    parser.add_argument("signals", nargs="+")
    parser.add_argument("--from", dest="start", type=int, required=True, help="first time shown, ns")
    parser.add_argument("--to", dest="end", type=int, required=True, help="last time shown, ns")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    if args.end <= args.start:
        raise SystemExit("--to must be after --from")
    draw(args.vcd, args.svg, args.start, args.end, args.signals, args.title)


if __name__ == "__main__":
    main()
