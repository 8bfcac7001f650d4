"""A trace of firmware with run-time filters (tband_configUSE_FILTERS): the
filter's changes and starting state on the core's "Filter" track in words,
`dump` showing the filter events, and `stats`/`check` counting no loss for
the events the filter left out."""
import json

from tests.cli.support import SchemaEncoder, TraceView, run
from tests.cli.test_cli import CliTestCase


def filtered_trace():
    """Core 0: isr 3 left out at start (object), then isr_enter and isr_exit
    left out by id, then traced again; the periodic dropped count stays 0."""
    enc = SchemaEncoder()
    lines = [
        {"event": "ts_resolution_ns", "fields": {"ns_per_ts": 10}},
        {"event": "filter_key_name", "fields": {"key": 1, "name": "isr_id"}},
        {"event": "filter_object_initial", "fields": {"object_id": 3, "key": 1}},
        {"event": "isr_name", "fields": {"isr_id": 4, "name": "uart"}},
        {"event": "isr_name", "fields": {"isr_id": 3, "name": "spi"}},
        {"event": "evtmarker_name", "fields": {"evtmarker_id": 1, "name": "app"}},
        {"event": "core_id", "ts": 0, "fields": {"core_id": 0}},
        {"event": "dropped_evt_cnt", "ts": 1, "fields": {"cnt": 0}},
        {"event": "isr_enter", "ts": 2, "fields": {"isr_id": 4}},
        {"event": "isr_exit", "ts": 3, "fields": {"isr_id": 4}},
        {"event": "filter_ids", "ts": 5, "fields": {"word": 0, "enabled": 0xFFFFFFCF}},
        {"event": "evtmarker", "ts": 6, "fields": {"evtmarker_id": 1, "msg": "while isrs are filtered"}},
        {"event": "filter_ids", "ts": 8, "fields": {"word": 0, "enabled": 0xFFFFFFFF}},
        {"event": "filter_object_on", "ts": 9, "fields": {"object_id": 3, "key": 1}},
        {"event": "isr_enter", "ts": 10, "fields": {"isr_id": 3}},
        {"event": "isr_exit", "ts": 11, "fields": {"isr_id": 3}},
        {"event": "dropped_evt_cnt", "ts": 12, "fields": {"cnt": 0}},
    ]
    return b"".join(enc.encode(line) for line in lines)


class Filters(CliTestCase):
    def setUp(self):
        super().setUp()
        self.path = self.tmp / "filtered.bin"
        self.path.write_bytes(filtered_trace())

    def test_filter_track_says_what_was_left_out_and_when(self):
        out = self.tmp / "filtered.pftrace"
        proc = run(["conv", str(self.path), "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertNotIn("warning", proc.stderr)
        track = TraceView(out).track("Filter", "Core 0")
        self.assertEqual([(i["ts"], i["name"]) for i in track["instants"]], [
            (0, "filter at start: left out isr_id 3"),
            (50, "filter: left out isr_enter, isr_exit"),
            (80, "filter: traced again isr_enter, isr_exit"),
            (90, "filter: traced again isr_id 3"),
        ])

    def test_dump_shows_the_filter_events(self):
        proc = run(["dump", str(self.path)])
        self.assertExit(proc, 0)
        text = proc.stdout.decode()
        self.assertIn("filter_ids", text)
        self.assertIn("enabled=4294967247", text)
        self.assertIn("filter_object_initial", text)
        self.assertIn('name="isr_id"', text)

    def test_stats_and_check_count_no_loss(self):
        proc = run(["stats", "--json", str(self.path)])
        self.assertExit(proc, 0)
        figures = json.loads(proc.stdout)["figures"]
        self.assertEqual(figures["dropped"], 0)
        rules = self.tmp / "rules.yaml"
        rules.write_text("rules:\n  - dropped == 0\n  - isr.spi.count == 1\n")
        proc = run(["check", "--rules", str(rules), str(self.path)])
        self.assertExit(proc, 0)
        self.assertIn("3 passed, 0 failed", proc.stdout.decode())  # and no diagnostics: nothing lost
