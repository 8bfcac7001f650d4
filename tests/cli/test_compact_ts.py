"""Compact timestamps end to end through `tband`: the same events written
with the reference's timestamps and with compact ones (firmware built with
tband_configCOMPACT_TIMESTAMPS: a compact_timestamps announcement, then each
time as a tagged delta from the last absolute timestamp or a tagged absolute
one) dump to the same events at the same times, with no flag. Without the
frame of an absolute timestamp, the events whose time depended on it are
reported (a decode error each, "time unknown") and every other event keeps
its time; with link integrity too, any lost frame counts as a lost anchor."""
import json
import unittest

from tests.cli.support import SchemaEncoder, run
from tests.cli.test_cli import CliTestCase
from tests.cli.test_link import with_trailer

SHORT, LONGEST = 1 << 12, 1 << 19  # target/src/compact_ts.hpp


def compact_fields(times):
    """The ts fields the firmware writes for these times (one core), and
    which of them are absolute: the policy of target/src/compact_ts.hpp."""
    fields, absolute = [], []
    anchor, last, epoch, valid, was_far = 0, 0, 0, False, False
    for ts in times:
        delta, far = ts - anchor, ts - last < 0 or ts - last >= SHORT
        sparse, last, was_far = far and was_far, ts, far
        if valid and 0 <= delta and (delta < SHORT or (sparse and delta < LONGEST)):
            fields.append(delta << 2 | epoch)
            absolute.append(False)
        else:
            anchor, valid, epoch = ts, True, epoch ^ 2
            fields.append(ts << 2 | epoch | 1)
            absolute.append(True)
    return fields, absolute


def workload():
    """The start's frames, then 400 ISR entries and exits: 0 to 996 ticks
    apart, now and then 5,000 to 25,000."""
    start = [
        {"event": "ts_resolution_ns", "fields": {"ns_per_ts": 1}},
        {"event": "core_id", "ts": 0, "fields": {"core_id": 0}},
        {"event": "isr_name", "fields": {"isr_id": 3, "name": "uart"}},
    ]
    body, ts, x = [], 1000, 1
    for i in range(400):
        x = (x * 1103515245 + 12345) % 2**32
        r = x >> 16
        ts += 5000 + r % 20000 if r % 8 == 0 else r % 997
        body.append({"event": "isr_enter" if i % 2 == 0 else "isr_exit", "ts": ts, "fields": {"isr_id": 3}})
    return start, body


def traces(lose=None):
    """(default trace, compact trace, absolute flags of the body), the compact
    one without body frame `lose`."""
    enc = SchemaEncoder()
    start, body = workload()
    default = b"".join(enc.encode(line) for line in start + body)
    fields, absolute = compact_fields([line["ts"] for line in body])
    announce = {"event": "compact_timestamps", "fields": {"tag_bits": 2, "delta_bits": 19}}
    compact = [enc.encode(announce)] + [enc.encode(line) for line in start]
    compact += [enc.encode(dict(line, ts=field)) for i, (line, field) in enumerate(zip(body, fields)) if i != lose]
    return default, b"".join(compact), absolute


def dumped(path):
    """(process, events without their byte offsets, errors) of `tband dump --json`."""
    proc = run(["dump", "--json", str(path)])
    lines = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.strip()]
    events = [{k: v for k, v in e.items() if k != "offset"} for e in lines if "error" not in e]
    return proc, events, [e["error"] for e in lines if "error" in e]


class CompactTimestampsCli(CliTestCase):
    def test_dump_gives_the_default_modes_times(self):
        default, compact, absolute = traces()
        (self.tmp / "default.bin").write_bytes(default)
        (self.tmp / "compact.bin").write_bytes(compact)
        self.assertLess(len(compact), len(default))
        self.assertGreater(sum(absolute), 5)
        proc_d, ref, _ = dumped(self.tmp / "default.bin")
        proc_c, got, errors = dumped(self.tmp / "compact.bin")
        self.assertExit(proc_d, 0)
        self.assertExit(proc_c, 0)
        self.assertEqual(errors, [])
        self.assertEqual(got[0]["event"], "compact_timestamps")
        self.assertEqual(got[1:], ref)

    def test_a_lost_absolute_timestamp_leaves_times_unknown_never_shifted(self):
        _, _, absolute = traces()
        lose = next(i for i in range(50, len(absolute)) if absolute[i])
        following = next(i for i in range(lose + 1, len(absolute)) if absolute[i])
        default, compact, _ = traces(lose)
        (self.tmp / "default.bin").write_bytes(default)
        (self.tmp / "lossy.bin").write_bytes(compact)
        _, ref, _ = dumped(self.tmp / "default.bin")
        _, got, errors = dumped(self.tmp / "lossy.bin")
        self.assertEqual(len(errors), following - lose - 1)
        self.assertTrue(all("time unknown" in e for e in errors), errors)
        start = 3  # the start's frames come first
        expected = ref[:start + lose] + ref[start + following:]
        self.assertEqual(got[1:], expected)
        stats = run(["stats", "--json", str(self.tmp / "lossy.bin")])
        self.assertEqual(json.loads(stats.stdout)["figures"]["decode_errors"], following - lose - 1)

    def test_with_link_integrity_a_gap_is_a_lost_anchor(self):
        """A lost delta frame: with link integrity the host cannot tell what
        the gap held, so the deltas after it wait for the next absolute
        timestamp."""
        enc = SchemaEncoder()
        start, body = workload()
        fields, absolute = compact_fields([line["ts"] for line in body])
        lose = next(i for i in range(50, len(absolute)) if not absolute[i] and not absolute[i + 1])
        following = next(i for i in range(lose + 1, len(absolute)) if absolute[i])
        lines = [{"event": "link_integrity", "fields": {"seq_bits": 16, "crc_bits": 16}},
                 {"event": "compact_timestamps", "fields": {"tag_bits": 2, "delta_bits": 19}}] + start
        lines += [dict(line, ts=field) for line, field in zip(body, fields)]
        frames = [with_trailer(enc, line, max(seq - 1, 0)) for seq, line in enumerate(lines)]
        del frames[len(lines) - len(body) + lose]
        (self.tmp / "link.bin").write_bytes(b"".join(frames))
        _, got, errors = dumped(self.tmp / "link.bin")
        self.assertEqual(sum("1 frame(s) of core 0 lost on the link" in e for e in errors), 1)
        self.assertEqual(sum("time unknown" in e for e in errors), following - lose - 1)
        times = [line["ts"] for line in body]
        got_times = [e["ts"] for e in got if e["event"] in ("isr_enter", "isr_exit")]
        self.assertEqual(got_times, times[:lose] + times[following:])


if __name__ == "__main__":
    unittest.main()
