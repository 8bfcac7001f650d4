"""The model built from schema/ matches the Tonbandgeraet event index, and the
model's derived values (timestamp, sizes, encoder overloads) are right."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from codegen.model import cobs_frame, cobs_max_framed_len, varlen
from codegen.errors import SchemaErrors
from codegen.validate import compose_schema, load_schema

from .support import SCHEMA_DIR

# From the seed's "Trace Events Index" (name: id, metadata, max unframed length
# without the string, has a string), plus queue_cur_length from the brief and
# tband's metadata_overflow, schema_id, link_integrity, compact_timestamps, the filter events and ctl_ack.
SEED_INDEX = {
    "core_id": (0x00, False, 16, False),
    "dropped_evt_cnt": (0x01, False, 16, False),
    "ts_resolution_ns": (0x02, True, 11, False),
    "isr_name": (0x03, True, 6, True),
    "isr_enter": (0x04, False, 16, False),
    "isr_exit": (0x05, False, 16, False),
    "evtmarker_name": (0x06, True, 6, True),
    "evtmarker": (0x07, False, 16, True),
    "evtmarker_begin": (0x08, False, 16, True),
    "evtmarker_end": (0x09, False, 16, False),
    "valmarker_name": (0x0A, True, 6, True),
    "valmarker": (0x0B, False, 26, False),
    # tband's own addition: metadata buffer overflow is reported, not silent.
    "metadata_overflow": (0x0C, False, 26, False),
    "schema_id": (0x0D, True, 11, True),
    # Link integrity (tband_configLINK_INTEGRITY): announced at every start.
    "link_integrity": (0x10, True, 11, False),
    # Compact timestamps (tband_configCOMPACT_TIMESTAMPS): announced at every start.
    "compact_timestamps": (0x11, True, 11, False),
    # tband's run-time filter changes and state (0x18-0x1F).
    "filter_ids": (0x18, False, 21, False),
    "filter_object_off": (0x19, False, 21, False),
    "filter_object_on": (0x1A, False, 21, False),
    "filter_ids_initial": (0x1B, True, 11, False),
    "filter_object_initial": (0x1C, True, 11, False),
    "filter_key_name": (0x1D, True, 6, True),
    # tband's control channel: the target's answer to a host command.
    "ctl_ack": (0x20, False, 26, False),
    "task_switched_in": (0x54, False, 16, False),
    "task_to_rdy_state": (0x55, False, 16, False),
    "task_resumed": (0x56, False, 16, False),
    "task_resumed_from_isr": (0x57, False, 16, False),
    "task_suspended": (0x58, False, 16, False),
    "curtask_delay": (0x59, False, 16, False),
    "curtask_delay_until": (0x5A, False, 16, False),
    "task_priority_set": (0x5B, False, 21, False),
    "task_priority_inherit": (0x5C, False, 21, False),
    "task_priority_disinherit": (0x5D, False, 21, False),
    "task_created": (0x5E, False, 16, False),
    "task_name": (0x5F, True, 6, True),
    "task_is_idle_task": (0x60, True, 11, False),
    "task_is_timer_task": (0x61, True, 6, False),
    "task_deleted": (0x62, False, 16, False),
    "queue_created": (0x63, False, 16, False),
    "queue_name": (0x64, True, 6, True),
    "queue_kind": (0x65, True, 7, False),
    "queue_send": (0x66, False, 21, False),
    "queue_send_from_isr": (0x67, False, 21, False),
    "queue_overwrite": (0x68, False, 21, False),
    "queue_overwrite_from_isr": (0x69, False, 21, False),
    "queue_receive": (0x6A, False, 21, False),
    "queue_receive_from_isr": (0x6B, False, 21, False),
    "queue_reset": (0x6C, False, 16, False),
    "curtask_block_on_queue_peek": (0x6D, False, 21, False),
    "curtask_block_on_queue_send": (0x6E, False, 21, False),
    "curtask_block_on_queue_receive": (0x6F, False, 21, False),
    "queue_cur_length": (0x70, False, 21, False),
    "task_evtmarker_name": (0x7A, True, 11, True),
    "task_evtmarker": (0x7B, False, 16, True),
    "task_evtmarker_begin": (0x7C, False, 16, True),
    "task_evtmarker_end": (0x7D, False, 16, False),
    "task_valmarker_name": (0x7E, True, 11, True),
    "task_valmarker": (0x7F, False, 26, False),
    "task_notify": (0x80, False, 23, False),
    "task_notify_from_isr": (0x81, False, 23, False),
    "curtask_block_on_notify_take": (0x82, False, 17, False),
    "curtask_block_on_notify_wait": (0x83, False, 17, False),
    "curtask_notify_take": (0x84, False, 22, False),
    "curtask_notify_wait": (0x85, False, 23, False),
    "event_group_created": (0x88, False, 16, False),
    "event_group_name": (0x89, True, 6, True),
    "event_group_set_bits": (0x8A, False, 26, False),
    "event_group_clear_bits": (0x8B, False, 26, False),
    "event_group_set_bits_from_isr": (0x8C, False, 21, False),
    "event_group_clear_bits_from_isr": (0x8D, False, 21, False),
    "curtask_block_on_event_group_wait": (0x8E, False, 26, False),
    "curtask_block_on_event_group_sync": (0x8F, False, 26, False),
    "curtask_event_group_wait_end": (0x90, False, 22, False),
    "event_group_deleted": (0x91, False, 16, False),
    "stream_buffer_created": (0x92, False, 22, False),
    "stream_buffer_name": (0x93, True, 6, True),
    "stream_buffer_deleted": (0x94, False, 16, False),
    "stream_buffer_reset": (0x95, False, 16, False),
    "stream_buffer_send": (0x96, False, 26, False),
    "stream_buffer_send_from_isr": (0x97, False, 26, False),
    "stream_buffer_receive": (0x98, False, 26, False),
    "stream_buffer_receive_from_isr": (0x99, False, 26, False),
    "curtask_block_on_stream_buffer_send": (0x9A, False, 21, False),
    "curtask_block_on_stream_buffer_receive": (0x9B, False, 21, False),
    "stream_buffer_send_failed": (0x9C, False, 16, False),
    "stream_buffer_receive_failed": (0x9D, False, 16, False),
    "stream_buffer_create_failed": (0x9E, False, 12, False),
    "timer_created": (0xA0, False, 22, False),
    "timer_name": (0xA1, True, 6, True),
    "timer_create_failed": (0xA2, False, 11, False),
    "timer_command_send": (0xA3, False, 23, False),
    "timer_command_received": (0xA4, False, 22, False),
    "timer_expired": (0xA5, False, 16, False),
    "queue_set_send": (0xA8, False, 26, False),
    "queue_set_add": (0xA9, False, 21, False),
    "queue_set_remove": (0xAA, False, 21, False),
    "queue_set_select": (0xAB, False, 21, False),
    "queue_set_select_from_isr": (0xAC, False, 21, False),
}


class RealSchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.schema = load_schema(SCHEMA_DIR, "schema")

    def test_event_set_matches_the_seed_index(self) -> None:
        got = {e.name: (e.id, e.metadata, e.max_fixed_len, e.str_field is not None) for e in self.schema.events}
        self.assertEqual(got, SEED_INDEX)

    def test_groups_and_id_ranges(self) -> None:
        by_group = {g.name: [e.id for e in g.events] for g in self.schema.groups}
        self.assertTrue(all(i <= 0x53 for i in by_group["base"]))
        self.assertTrue(all(0x54 <= i <= 0xBF for i in by_group["freertos"]))

    def test_timestamp_is_implicit_and_first_for_non_metadata_events(self) -> None:
        for event in self.schema.events:
            with self.subTest(event=event.name):
                has_ts = bool(event.fields) and event.fields[0].name == "ts"
                self.assertEqual(has_ts, not event.metadata)
                if has_ts:
                    self.assertTrue(event.fields[0].implicit)
                    self.assertEqual(event.fields[0].type.wire, "u64")
                self.assertEqual(sum(f.implicit for f in event.fields), 1 if has_ts else 0)

    def test_enums(self) -> None:
        enums = {e.name: [(v.value, v.name) for v in e.values] for e in self.schema.enums}
        self.assertEqual(
            enums["FrQueueKind"],
            [
                (0, "FRQK_QUEUE"),
                (1, "FRQK_COUNTING_SEMPHR"),
                (2, "FRQK_BINARY_SEMPHR"),
                (3, "FRQK_MUTEX"),
                (4, "FRQK_RECURSIVE_MUTEX"),
                (5, "FRQK_QUEUE_SET"),
            ],
        )
        self.assertEqual(
            enums["FrStreamBufferKind"],
            [(0, "FRSBK_STREAM_BUFFER"), (1, "FRSBK_MESSAGE_BUFFER"), (2, "FRSBK_STREAM_BATCHING_BUFFER")],
        )
        kind = next(e for e in self.schema.events if e.name == "queue_kind").fields[1]
        self.assertEqual((kind.type.wire, kind.type.enum.name), ("u8", "FrQueueKind"))

    def test_filter_keys_and_groups_come_from_the_schema(self) -> None:
        self.assertEqual(self.schema.filter_keys, ("isr_id", "evtmarker_id", "valmarker_id", "task_id", "queue_id"))
        by_name = {e.name: e for e in self.schema.events}
        self.assertEqual(self.schema.filter_key_number(by_name["isr_exit"]), 1)
        self.assertEqual(self.schema.filter_key_number(by_name["queue_send"]), 5)
        self.assertEqual(self.schema.filter_key_number(by_name["isr_name"]), 0)  # metadata: never filtered
        groups = dict(self.schema.filter_groups)
        self.assertEqual(list(groups)[:2], ["base", "freertos"])
        self.assertEqual(groups["key:isr_id"], (1 << 0x04 | 1 << 0x05, 0, 0, 0, 0, 0, 0, 0))
        # A schema group holds its events that are not metadata, and only those.
        base_ids = {i for i in range(256) if groups["base"][i >> 5] >> (i & 31) & 1}
        self.assertEqual(base_ids, {e.id for e in self.schema.events if e.group == "base" and not e.metadata})

    def test_every_event_and_field_is_described(self) -> None:
        for event in self.schema.events:
            self.assertTrue(event.description)
            for field in event.fields:
                self.assertTrue(field.description, f"{event.name}.{field.name}")

    def test_cobs_worst_case(self) -> None:
        self.assertEqual([cobs_max_framed_len(n) for n in (0, 1, 16, 254, 255, 508)], [2, 3, 18, 256, 258, 511])


def cobs_decode(frame: bytes) -> bytes:
    """Plain COBS decoding of one delimited frame, to check the generator's framing."""
    assert frame[-1] == 0 and 0 not in frame[:-1]
    out = bytearray()
    pos = 0
    body = frame[:-1]
    while pos < len(body):
        code = body[pos]
        out += body[pos + 1 : pos + code]
        pos += code
        if code != 0xFF and pos < len(body):
            out.append(0)
    return bytes(out)


class SchemaIdFrameTest(unittest.TestCase):
    """The schema_id frame the generator writes into tband_encode.hpp (the
    C++ round-trip tests compare it with the target encoder's)."""

    def test_cobs_frame_blocks(self) -> None:
        self.assertEqual(cobs_frame(b"\x0d\x00\x05"), b"\x02\x0d\x02\x05\x00")
        self.assertEqual(cobs_frame(b"\x0d\x00"), b"\x02\x0d\x01\x00")
        full = bytes(range(1, 255))  # 254 bytes: one full block, no further code byte
        self.assertEqual(cobs_frame(full), b"\xff" + full + b"\x00")
        self.assertEqual(cobs_frame(full + b"\x07"), b"\xff" + full + b"\x02\x07\x00")
        self.assertEqual(cobs_frame(full + b"\x00"), b"\xff" + full + b"\x01\x01\x00")

    def test_cobs_frame_decodes_back_within_the_worst_case(self) -> None:
        for raw in (b"\x0d", b"\x00", b"\x0d" + b"a" * 300, b"\x0d\x00" + b"b" * 600 + b"\x00", b"\x0d" + b"c" * 508):
            with self.subTest(length=len(raw)):
                frame = cobs_frame(raw)
                self.assertEqual(cobs_decode(frame), raw)
                self.assertLessEqual(len(frame), cobs_max_framed_len(len(raw)))

    def test_varlen(self) -> None:
        self.assertEqual(varlen(0), b"\x00")
        self.assertEqual(varlen(0x7F), b"\x7f")
        self.assertEqual(varlen(0x80), b"\x80\x01")
        self.assertEqual(varlen(2**64 - 1), b"\xff" * 9 + b"\x01")

    def test_frame_of_a_schema_with_user_groups(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            names = [f"group_{i:03}" for i in range(30)]  # 299 bytes of names: several COBS blocks
            for i, name in enumerate(names):
                (Path(tmp) / f"{name}.yaml").write_text(
                    f"group: {name}\ntitle: G{i}\ndescription: A group.\nevents:\n  - name: ev_{i}\n    id: {0xC0 + i}\n"
                    "    description: An event.\n    fields: []\n"
                )
            schema = compose_schema([(Path(tmp), "groups")])
        self.assertEqual(schema.user_group_names, ",".join(sorted(names)))
        raw = b"\x0d" + varlen(schema.trace_id) + schema.user_group_names.encode()
        self.assertEqual(cobs_decode(schema.schema_id_frame), raw)
        self.assertEqual(len(schema.schema_id_frame), cobs_max_framed_len(len(raw)))


class OptionalFieldsTest(unittest.TestCase):
    def test_encoder_overloads_drop_optional_fields_from_the_end(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "s.yaml").write_text(
                "group: demo\ntitle: Demo\ndescription: Optional fields.\nevents:\n"
                "  - name: sample\n    id: 1\n    description: One.\n    fields:\n"
                "      - {name: a, type: u32, description: Required.}\n"
                "      - {name: b, type: u8, optional: true, description: First optional.}\n"
                "      - {name: c, type: s64, optional: true, description: Second optional.}\n"
            )
            event = load_schema(Path(tmp), "s").events[0]
        self.assertEqual(
            [[f.name for f in fields] for fields in event.encode_overloads],
            [["ts", "a"], ["ts", "a", "b"], ["ts", "a", "b", "c"]],
        )
        self.assertEqual(event.max_fixed_len, 1 + 10 + 5 + 1 + 10)
        self.assertEqual([f.note for f in event.fields], ["implicit", "required", "optional", "optional"])


class TypeNamesTest(unittest.TestCase):
    SCHEMA = (
        "group: demo\ntitle: Demo\ndescription: Names.\n"
        "enums:\n  - name: BmsFault\n    description: A fault.\n    values:\n"
        "      - {name: BMS_FAULT_HOT, value: 1, description: Hot.}\n{extra}"
        "events:\n  - name: bms_fault\n    id: 1\n    description: One.\n    fields:\n"
        "      - {name: fault, type: BmsFault, description: Which.}\n"
        "  - name: bms_level\n    id: 2\n    description: Two.\n    fields:\n"
        "      - {name: level, type: u8, description: How full.}\n"
    )

    def load(self, extra: str = ""):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "s.yaml").write_text(self.SCHEMA.replace("{extra}", extra))
            return load_schema(Path(tmp), "s")

    def test_an_event_named_like_an_enum_takes_the_suffix_event(self) -> None:
        schema = self.load()
        self.assertEqual([e.cpp_name for e in schema.events], ["BmsFaultEvent", "BmsLevel"])
        self.assertEqual([e.cpp_name for g in schema.groups for e in g.enums], ["BmsFault"])

    def test_a_name_that_still_clashes_is_an_error(self) -> None:
        extra = "  - name: BmsFaultEvent\n    description: Taken.\n    values:\n" \
                "      - {name: TAKEN, value: 1, description: Taken.}\n"
        with self.assertRaises(SchemaErrors) as caught:
            self.load(extra)
        self.assertIn("C++ type name 'BmsFaultEvent' is already used by enum 'BmsFaultEvent'", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
