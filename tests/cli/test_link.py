"""Link integrity end to end through `tband`: a trace whose frames carry a
per-core sequence number and a CRC-16/CCITT-FALSE (firmware built with
tband_configLINK_INTEGRITY), with frames dropped, one corrupted and one
duplicated: stats gives link.lost_frames, link.corrupt_frames and
link.stale_frames, conv reports them as diagnostics, and conv --strict fails
on them unless --allow lets them through. A trace without integrity is the
other CLI tests' business: it decodes as before."""
import json
import unittest

from tests.cli.support import SchemaEncoder, crc16, run
from tests.cli.test_cli import CliTestCase


def cobs_decode(frame):
    out, i, end = bytearray(), 0, len(frame) - 1  # frame ends with its 0x00
    while i < end:
        code = frame[i]
        out += frame[i + 1:i + code]
        i += code
        if code != 0xFF and i < end:
            out.append(0)
    return bytes(out)


def with_trailer(encoder, line, seq):
    raw = cobs_decode(encoder.encode(line)) + bytes([seq & 0xFF, seq >> 8])
    crc = crc16(raw)
    return encoder.cobs(raw + bytes([crc & 0xFF, crc >> 8]))


def link_trace():
    """200 ISR entries and exits on core 0 after the start's frames; frames
    with sequence numbers 50-52 dropped, 100 corrupted, 150 sent twice."""
    enc = SchemaEncoder()
    frames = [with_trailer(enc, {"event": "link_integrity", "fields": {"seq_bits": 16, "crc_bits": 16}}, 0)]
    start = [
        {"event": "ts_resolution_ns", "fields": {"ns_per_ts": 10}},
        {"event": "core_id", "ts": 0, "fields": {"core_id": 0}},
        {"event": "isr_name", "fields": {"isr_id": 3, "name": "uart"}},
    ]
    body = [{"event": "isr_enter" if i % 2 == 0 else "isr_exit", "ts": 100 + i, "fields": {"isr_id": 3}}
            for i in range(200)]
    for seq, line in enumerate(start + body):
        if seq in (50, 51, 52):
            continue
        frame = bytearray(with_trailer(enc, line, seq))
        if seq == 100:
            frame[2] ^= 0x04  # a data byte; never a 0x00 (checked below)
            assert 0 not in frame[:-1]
        frames.append(bytes(frame))
        if seq == 150:
            frames.append(bytes(frame))
    return b"".join(frames)


class LinkIntegrityCli(CliTestCase):
    def setUp(self):
        super().setUp()
        self.path = self.tmp / "link.bin"
        self.path.write_bytes(link_trace())

    def test_stats_counts_lost_corrupt_and_stale_frames(self):
        proc = run(["stats", "--json", str(self.path)])
        self.assertExit(proc, 0)
        figures = json.loads(proc.stdout)["figures"]
        self.assertEqual(figures["link.lost_frames"], 3)
        self.assertEqual(figures["link.corrupt_frames"], 1)
        self.assertEqual(figures["link.stale_frames"], 1)
        self.assertEqual(figures["decode_errors"], 0, "a corrupt frame is never decoded")
        # The announcement, 3 start frames and 200 ISR events, less 3 lost and 1 corrupt (the stale copy is not decoded).
        self.assertEqual(figures["events"], 1 + 3 + 200 - 3 - 1)

    def test_conv_reports_them_and_strict_fails_unless_allowed(self):
        proc = run(["conv", str(self.path), "-o", str(self.tmp / "t.pftrace")])
        self.assertExit(proc, 0)
        self.assertIn("frames lost on the link [link_lost]", proc.stderr)
        self.assertIn("3 frame(s) of core 0 lost on the link", proc.stderr)
        self.assertIn("corrupt frames on the link [link_corrupt]", proc.stderr)
        self.assertExit(run(["conv", "--strict", str(self.path)]), 1)
        allowed = ["--allow", "link_lost", "--allow", "link_corrupt", "--allow", "link_stale"]
        self.assertExit(run(["conv", "--strict", *allowed, str(self.path)]), 0)

    def test_a_trace_cut_before_the_announcement_is_plain(self):
        # Without its link_integrity frame the trailers are not taken off: the
        # frames fail to decode (trailing bytes), they are not silently accepted.
        data = link_trace()
        plain = data[data.index(b"\x00") + 1:]
        self.path.write_bytes(plain)
        proc = run(["stats", "--json", str(self.path)])
        self.assertExit(proc, 0)
        figures = json.loads(proc.stdout)["figures"]
        self.assertEqual(figures["link.lost_frames"], 0)
        self.assertGreater(figures["decode_errors"], 190)


if __name__ == "__main__":
    unittest.main()
