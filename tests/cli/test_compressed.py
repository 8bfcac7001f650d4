"""Compressed traces (issue 28): every command reads zstd and gzip inputs,
recognised by their magic whatever the name, from files and pipes, the same
as the raw trace; a truncated one is read up to where it was cut, with a
warning naming the byte offset; garbage behind a good magic is an input
error. `tband record --compress` writes zstd frames that survive `kill -9`,
and rotation parts that decode alone. The zstd command line (Debian's
`zstd`) makes and checks .zst files independently of tband."""

from __future__ import annotations

import gzip
import json
import subprocess
import unittest
from pathlib import Path

from .recording import Recording, TraceServer, file_size, wait_for
from .support import TBAND, TempDir, make_trace, run
from .test_robust_inputs import postmortem_block, ram_image

EXIT_INPUT = 3  # an input that cannot be read (tband --help)


def zstd(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["zstd", "-q", *map(str, args)], input=stdin, capture_output=True, check=False)


def zstd_frame(data: bytes) -> bytes:
    result = zstd("-3", "-c", stdin=data)
    assert result.returncode == 0, result.stderr
    return result.stdout


class CompressedTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = TempDir()
        cls.raw_path = cls.tmp / "mix.bin"
        make_trace("mix", 20000, cls.raw_path)
        cls.raw = cls.raw_path.read_bytes()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def write(self, name: str, data: bytes) -> Path:
        path = self.tmp / name
        path.write_bytes(data)
        return path

    def conv(self, source, *args, stdin: bytes | None = None, verbose: bool = False
             ) -> tuple[subprocess.CompletedProcess, bytes]:
        out = self.tmp / "out.pftrace"
        if out.exists():
            out.unlink()
        result = run([*(["-v"] if verbose else []), "conv", "--mode", "bare-metal", str(source), "-o", str(out), *args],
                     stdin=stdin)
        return result, out.read_bytes() if out.exists() else b""

    @staticmethod
    def events(dump_json: bytes) -> int:
        return json.loads(dump_json)["total"]["events"]

    @staticmethod
    def figures(output: bytes) -> dict:
        """What dump --stats or stats says of the trace: not the input's name or byte count."""
        data = json.loads(output)
        if "inputs" in data:
            return {k: v for k, v in data["inputs"][0].items() if k not in ("bytes", "input")}
        return data["figures"]


class CompressedInputs(CompressedTestCase):
    def test_conv_gives_the_raw_trace_perfetto_output_byte_for_byte(self) -> None:
        raw_result, expected = self.conv(self.raw_path, "--strict")
        self.assertEqual(raw_result.returncode, 0, raw_result.stderr)
        half = len(self.raw) // 2
        inputs = {
            # Named neither .zst nor .gz: sniffed by the magic. Several frames/members.
            "zstd": self.write("mix.z1", zstd_frame(self.raw[:half]) + zstd_frame(self.raw[half:])),
            "gzip": self.write("mix.g1", gzip.compress(self.raw[:half]) + gzip.compress(self.raw[half:])),
        }
        for name, path in inputs.items():
            with self.subTest(name):
                result, got = self.conv(path, "--strict", verbose=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(got, expected)
                self.assertIn(f"format bin, {name}-compressed", result.stderr)
                # The same through a pipe.
                result, got = self.conv("-", "--strict", stdin=path.read_bytes())
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(got, expected)

    def test_zero_padding_after_gzip_is_skipped_and_said(self) -> None:
        # A .gz copied off a block device or a flash page ends in zero bytes;
        # gzip(1) skips them, and so does tband (zstd(1) does not, nor tband).
        _, expected = self.conv(self.raw_path, "--strict")
        half = len(self.raw) // 2
        packed = gzip.compress(self.raw[:half]) + bytes(100) + gzip.compress(self.raw[half:]) + bytes(4096)
        for source, stdin in ((self.write("padded.gz", packed), None), ("-", packed)):
            with self.subTest(str(source)):
                result, got = self.conv(source, "--strict", stdin=stdin, verbose=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(got, expected)
                self.assertIn("gzip-compressed (4196 zero byte(s) of padding after gzip data skipped)", result.stderr)
        good = zstd_frame(self.raw)
        result, got = self.conv(self.write("padded.zst", good + bytes(4096)), "--strict")
        self.assertEqual(result.returncode, EXIT_INPUT, result.stderr)
        self.assertIn(f"padded.zst: not valid zstd data in the frame that starts at byte {len(good)}", result.stderr)

    def test_dump_stats_and_check_read_them(self) -> None:
        packed = self.write("mix.zst", zstd_frame(self.raw))
        for args in (["dump", "--stats", "--json"], ["stats", "--json", "--mode", "bare-metal"]):
            with self.subTest(args[0]):
                raw = run([*args, str(self.raw_path)])
                got = run([*args, str(packed)])
                self.assertEqual(raw.returncode, 0, raw.stderr)
                self.assertEqual(got.returncode, 0, got.stderr)
                self.assertEqual(self.figures(got.stdout), self.figures(raw.stdout))
                self.assertGreater(len(self.figures(got.stdout)), 5)
        rules = self.write("rules.yaml", b"rules:\n  - decode_errors == 0\n  - diagnostics.truncated_end == 0\n")
        result = run(["check", "--mode", "bare-metal", "--rules", str(rules), str(packed)])
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout.decode())
        cut = self.write("check-cut.zst", zstd_frame(self.raw)[:-100])
        result = run(["check", "--mode", "bare-metal", "--rules", str(rules), str(cut)])
        self.assertEqual(result.returncode, 1, result.stderr + result.stdout.decode())
        self.assertIn("compressed input cut short", result.stdout.decode() + result.stderr)

    def test_cut_short_reads_what_came_before_and_says_where(self) -> None:
        half = len(self.raw) // 2
        first = zstd_frame(self.raw[:half])
        second = zstd_frame(self.raw[half:])
        cut = len(first) + len(second) // 2
        path = self.write("cut.zst", (first + second)[:cut])
        result, got = self.conv(path)
        self.assertEqual(result.returncode, 0, result.stderr)
        message = (f"cut.zst: compressed input cut short: the zstd frame that starts at byte {len(first)} is "
                   f"incomplete (the input ends at byte {cut})")
        self.assertIn(message, result.stderr)
        self.assertEqual(result.stderr.count("compressed input cut short"), 1, result.stderr)
        self.assertGreater(len(got), 1000)
        # Every event of the first frame is there.
        stats = run(["dump", "--stats", "--json", str(path)])
        self.assertIn("compressed input cut short", stats.stderr)
        whole = run(["dump", "--stats", "--json", str(self.write("first.bin", self.raw[:half]))])
        self.assertGreaterEqual(self.events(stats.stdout), self.events(whole.stdout))
        # --strict fails on it, as on any truncated end; --allow truncated_end tolerates it.
        self.assertEqual(self.conv(path, "--strict")[0].returncode, 1)
        self.assertEqual(self.conv(path, "--strict", "--allow", "truncated_end")[0].returncode, 0)
        # gzip likewise.
        gz = gzip.compress(self.raw)
        result, _ = self.conv(self.write("cut.gz", gz[:len(gz) // 2]))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("the gzip member that starts at byte 0 is incomplete", result.stderr)

    def test_a_post_mortem_block_past_the_first_mib_of_a_compressed_dump(self) -> None:
        # --format auto searches the decompressed dump (in windows of 1 MiB) for the block.
        dump = self.write("ram.bin", ram_image((1 << 20) + 4096, 5) + postmortem_block(self.raw) + ram_image(4096, 6))
        packed = self.write("ram.img", zstd_frame(dump.read_bytes()))
        auto = run(["dump", str(packed)])
        explicit = run(["dump", "--format", "postmortem", str(dump)])
        self.assertEqual(auto.returncode, 0, auto.stderr)
        self.assertEqual(explicit.returncode, 0, explicit.stderr)
        self.assertEqual(auto.stdout, explicit.stdout)
        self.assertIn(b"isr_enter", auto.stdout)

    def test_memory_stays_flat(self) -> None:
        # 300 MiB of zeros in 10 KB of zstd: not COBS frames, so --format auto looks
        # through all of it for a post-mortem block, decompressing it once more from
        # the file rather than holding it (as it would a pipe's, up to 256 MiB).
        zeros = self.tmp / "zeros.zst"
        subprocess.run(f"head -c {300 << 20} /dev/zero | zstd -q -c > {zeros}", shell=True, check=True)
        timed = subprocess.run(["/usr/bin/time", "-f", "%M", TBAND, "dump", "--stats", str(zeros)],
                               capture_output=True, text=True, check=False)
        self.assertEqual(timed.returncode, EXIT_INPUT, timed.stderr)  # zeros hold no event
        self.assertIn("no valid events in the input", timed.stderr)
        peak_mb = int(timed.stderr.strip().splitlines()[-1]) / 1024
        self.assertLess(peak_mb, 200, "peak RSS (MB) reading 300 MiB of compressed zeros")

    def test_garbage_behind_a_good_magic_is_an_input_error(self) -> None:
        missing = run(["conv", str(self.tmp / "missing.zst"), "-o", str(self.tmp / "x.pftrace")])
        self.assertEqual(missing.returncode, EXIT_INPUT)
        good = zstd_frame(self.raw)
        garbage = bytes(b ^ 0x5A for b in good[4:])
        for name, data in (("garbage.zst", good[:4] + garbage), ("after.zst", good + good[:4] + garbage),
                           ("garbage.gz", gzip.compress(self.raw)[:10] + garbage)):
            with self.subTest(name):
                result, got = self.conv(self.write(name, data))
                self.assertEqual(result.returncode, EXIT_INPUT, result.stderr)
                kind = "gzip" if name.endswith(".gz") else "zstd"
                start = len(good) if name == "after.zst" else 0
                self.assertIn(f"{name}: not valid {kind} data in the ", result.stderr)
                self.assertIn(f"starts at byte {start}", result.stderr)
                self.assertEqual(got, b"", "no output written for an unreadable input")


class CompressedRecording(CompressedTestCase):
    def out(self, name: str) -> Path:
        for p in self.tmp.path.glob(name.split(".")[0] + "*"):
            p.unlink()
        return self.tmp / name

    def test_kill_9_keeps_every_complete_frame(self) -> None:
        server = TraceServer()
        out = self.out("live.bin")
        rec = Recording([server.source, "-o", out, "--compress", "--mode", "bare-metal", "--status-interval", "1s"])
        try:
            conn = server.accept(rec)
            packed = self.tmp / "live.bin.zst"
            half = len(self.raw) // 2
            conn.sendall(self.raw[:half])
            # A frame ends within a second of its first byte: wait for it on disk, then more bytes, then SIGKILL.
            wait_for(lambda: file_size(packed) > 0, "the first zstd frame", process=rec)
            conn.sendall(self.raw[half:])
        finally:
            rec.kill()
            conn.close()
            server.close()
        data = packed.read_bytes()
        decoded = zstd("-d", "-c", stdin=data).stdout  # what an independent decoder gets, up to the cut
        self.assertGreater(len(decoded), 0)
        self.assertEqual(decoded, self.raw[:len(decoded)])
        result, got = self.conv(packed)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertGreater(len(got), 100)
        if zstd("-t", stdin=data).returncode != 0:  # killed while a frame was being written
            self.assertIn("compressed input cut short", result.stderr)
        # tband reads as many events from the .zst as from the bytes zstd decoded from it.
        from_zst = run(["dump", "--stats", "--json", str(packed)])
        from_raw = run(["dump", "--stats", "--json", "-"], stdin=decoded)
        self.assertGreater(self.events(from_raw.stdout), 0)
        self.assertEqual(self.events(from_zst.stdout), self.events(from_raw.stdout))

    def test_rotation_parts_are_each_a_complete_zst(self) -> None:
        out = self.out("rot.bin")
        result = run(["record", "-", "-o", str(out), "--rotate", "16k", "--compress"], stdin=self.raw)
        self.assertEqual(result.returncode, 0, result.stderr)
        parts = [self.tmp / "rot.bin.zst"] + [self.tmp / f"rot.{i}.bin.zst" for i in range(1, 1000)
                                               if (self.tmp / f"rot.{i}.bin.zst").exists()]
        self.assertGreater(len(parts), 5)
        self.assertFalse(out.exists())
        self.assertIn(" ".join(str(p) for p in parts), result.stderr)
        decoded = b""
        for p in parts:
            self.assertEqual(zstd("-t", p).returncode, 0, f"{p.name} is not a complete .zst")
            decoded += zstd("-d", "-c", p).stdout
            dumped = run(["dump", "--stats", "--json", str(p)])
            self.assertEqual(dumped.returncode, 0, dumped.stderr)
            self.assertIn('"decode_errors": 0', dumped.stdout.decode(), p.name)
        self.assertEqual(decoded, self.raw)
        # Concatenated .zst parts are one .zst: converted together, with the names of the first.
        result, got = self.conv("-", "--strict", stdin=b"".join(p.read_bytes() for p in parts))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(got, self.conv(self.raw_path)[1])

    def test_names_and_conversion_at_the_end(self) -> None:
        out = self.out("named.zst")
        pftrace = self.tmp / "named.pftrace"
        result = run(["record", "-", "-o", str(out), "--compress", "--mode", "bare-metal", "--pftrace", str(pftrace)],
                     stdin=self.raw)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(zstd("-d", "-c", out).stdout, self.raw)  # .zst given: kept as it is
        self.assertIn("converted 20004 events", result.stderr)
        self.assertEqual(pftrace.read_bytes(), self.conv(self.raw_path)[1])
        self.assertLess(file_size(out), len(self.raw) / 2)


if __name__ == "__main__":
    unittest.main()
