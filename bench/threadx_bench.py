"""Conversion speed of a ThreadX trace buffer (issue 25) next to tband's own
format, in the same run: a 1 M-entry buffer made by tiling the entries of
the real kernel's buffer tests/threadx/vectors/linux_le32.trx (each copy
later by the span of the one before, so time goes on), and the benchmark mix
of the same event count (tband_make_trace mix). For each: median wall time
of --runs runs after a warm-up, entries (events) per second, peak RSS.

  python3 bench/threadx_bench.py --build build --entries 1000000 --runs 3
"""
import argparse
import struct
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_bench import load_average, measure  # noqa: E402  (the same measurement as the CLI benchmark)

ROOT = Path(__file__).resolve().parents[1]


def tiled_buffer(entries: int) -> bytes:
    """The vector's header and registry, and `entries` entries: its own, in
    time order, repeated with their time stamps moved on."""
    data = (ROOT / "tests/threadx/vectors/linux_le32.trx").read_bytes()
    h = list(struct.unpack_from("<4I2H7I", data, 0))
    base, start, end, current = h[2], h[7] - h[2], h[8] - h[2], h[9] - h[2]
    n = (end - start) // 32
    ordered = [struct.unpack_from("<8I", data, start + (current - start + 32 * i) % (end - start)) for i in range(n)]
    first, span = ordered[0][3], ordered[-1][3] - ordered[0][3] + 1000
    out = bytearray(data[:start])
    for i in range(entries):
        e = list(ordered[i % n])
        e[3] = (first + (i // n) * span + (e[3] - first)) & 0xFFFFFFFF
        out += struct.pack("<8I", *e)
    h[8] = base + start + 32 * entries  # entries' end
    h[9] = base + start                  # current: the oldest is the first
    struct.pack_into("<4I2H7I", out, 0, *h)
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tband = Path(args.build) / "host/cli/tband"
    make_trace = Path(args.build) / "tools/tband_make_trace"
    with tempfile.TemporaryDirectory(prefix="tband_threadx_bench_") as tmp:
        trx, mix, out = Path(tmp) / "big.trx", Path(tmp) / "mix.bin", Path(tmp) / "out.pftrace"
        trx.write_bytes(tiled_buffer(args.entries))
        import subprocess
        subprocess.run([make_trace, "mix", str(args.entries), mix], check=True)
        print(f"load average before: {load_average():.2f}")
        print(f"{'input':<34} {'MB':>7} {'wall s':>8} {'M events/s':>11} {'peak RSS MB':>12}")
        for name, path in ((f"ThreadX buffer, {args.entries} entries", trx), (f"tband mix, {args.entries} events", mix)):
            for command in ("conv", "stats"):
                cmd = [tband, "-q", command, path] + (["-o", out] if command == "conv" else [])
                wall, rss, _, _ = measure(cmd, args.runs)
                size = path.stat().st_size / 1e6
                print(f"{name + ' ' + command:<34} {size:7.1f} {wall:8.3f} {args.entries / wall / 1e6:11.2f} {rss:12.1f}")


if __name__ == "__main__":
    main()
