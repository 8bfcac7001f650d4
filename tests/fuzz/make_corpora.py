#!/usr/bin/env python3
"""Writes the seed corpora of the input-path fuzz targets (tests/fuzz/README.md).

Seeds: traces from tband_make_trace, the reference vector, post-mortem dumps
the runtime test leaves with TBAND_PM_SEED_DIR set, each as raw bytes, hex
text and a base64 firmware log, plus a few broken variants. The conversion
and stats corpora put an options byte first (fuzz_input.hpp).

usage: make_corpora.py MAKE_TRACE PM_SEED_DIR OUT_DIR
"""
import base64
import hashlib
import pathlib
import subprocess
import sys
import tempfile

MAX = 4096  # the campaign's -max_len: longer seeds would only be cut


def traces(make_trace, work):
    """name -> bytes of each real trace."""
    out = {}
    runs = [("baremetal", ["baremetal"]), ("freertos", ["freertos"]), ("mix40", ["mix", "40"]),
            ("user_mix20", ["user-mix", "20"]), ("lab", ["lab"]), ("lab_spans", ["lab-spans"])]
    for name, args in runs:
        path = work / name
        subprocess.run([make_trace, *args[:1], *args[1:], str(path)], check=True)
        out[name] = path.read_bytes()
    subprocess.run([make_trace, "dualcore", str(work / "dual")], check=True)
    for core in sorted(work.glob("dual*")):
        out[core.name] = core.read_bytes()
    here = pathlib.Path(__file__).resolve().parent
    out["reference_baremetal"] = (here.parent / "vectors" / "reference_baremetal.bin").read_bytes()
    return {k: v[:MAX] for k, v in out.items()}


def as_hex(data, per_line=16):
    lines = [" ".join(f"{b:02x}" for b in data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return ("\n".join(lines) + "\n").encode()


def as_log(data, per_line=48):
    lines = ["[00:00:00.000] boot: tracing to the console", "I (12) app: started"]
    for i in range(0, len(data), per_line):
        lines.append(base64.b64encode(data[i:i + per_line]).decode())
        if i % (per_line * 4) == 0:
            lines.append("W (40) app: a log line between trace lines")
    return ("\r\n".join(lines) + "\r\n").encode()


def write(folder, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    make_trace, pm_dir, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        bins = traces(make_trace, pathlib.Path(tmp))
    dumps = {p.name: p.read_bytes() for p in sorted(pm_dir.glob("pm_*.bin"))}

    # Text inputs: each trace as hex and as a log, and what goes wrong in text.
    text = out / "corpus_text_inputs"
    for data in bins.values():
        write(text, as_hex(data[:1024])[:MAX])
        write(text, as_log(data[:1024])[:MAX])
    for broken in [b"0", b"0g", b"00 1 22\n", b"AAAA\nnot base64\n", b"QUJD\nQUI=\nQQ==\n", b"====\n",
                   b"log only\nno trace here\n", b"\x00\x01\x02", b"A" * 400 + b"\n", b"ab\tcd\r\nef\f01\v23"]:
        write(text, broken)

    # Post-mortem dumps: the runtime's, cut short, and with a header word broken.
    pm = out / "corpus_postmortem"
    for data in dumps.values():
        write(pm, data[:MAX])
        write(pm, data[:len(data) // 2])
        magic = data.find(b"TBPM")
        for word in (1, 2, 3, 4, 5, 8):  # version, core count, sizes, a descriptor word
            at = magic + 4 * word
            write(pm, (data[:at] + b"\xff\xff\xff\x7f" + data[at + 4:])[:MAX])
    write(pm, b"TBPM")
    write(pm, b"MPBT" + bytes(60))

    # Whole conversions (and stats): options byte + input, over the modes.
    for name in ("corpus_conversion", "corpus_stats"):
        folder = out / name
        for trace_name, data in bins.items():
            bare = 0x01 if "baremetal" in trace_name else 0x00
            write(folder, bytes([bare]) + data)
            write(folder, bytes([bare | 0x04 | 0x02]) + data)   # two threads, lab schema given
            write(folder, bytes([bare | 0x80]) + data[:1500])   # stdin
            write(folder, bytes([bare | 0x40]) + data[:1500])   # two cores
            write(folder, bytes([bare]) + as_hex(data[:1000])[:MAX])
            write(folder, bytes([bare | 0x30]) + as_log(data[:1000])[:MAX])  # --format base64
            write(folder, bytes([bare]) + data[: len(data) // 3])  # cut mid-frame
        for data in dumps.values():
            write(folder, bytes([0x00]) + data[:MAX])
            write(folder, bytes([0x38 | 0x04]) + data[:MAX])  # --format postmortem, two threads
        write(folder, bytes([0x28]) + b"00 11 2")  # --format hex, odd digits
        write(folder, bytes([0x00]) + b"just text\n")


if __name__ == "__main__":
    main()
