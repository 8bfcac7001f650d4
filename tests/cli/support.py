"""Helpers for the tband CLI tests: running the programs, reading a .pftrace
through `protoc --decode` as a user would see it, re-encoding `dump --json`
lines with the schema."""
import os
import re
import subprocess
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
TBAND = os.environ.get("TBAND_EXE", str(ROOT / "build/host/cli/tband"))
MAKE_TRACE = os.environ.get("TBAND_MAKE_TRACE", str(ROOT / "build/tools/tband_make_trace"))
PROTOC = os.environ.get("TBAND_PROTOC", "protoc")
PROTO = Path(os.environ.get("TBAND_PROTO", str(ROOT / "host/perfetto/perfetto_trace.proto")))


def run(args, stdin=None, timeout=60, env=None):
    """Runs tband with args (and `env` added to the environment, from which
    TBAND_SCHEMA_PATH is removed); returns CompletedProcess (bytes stdout,
    text stderr)."""
    environment = {k: v for k, v in os.environ.items() if k != "TBAND_SCHEMA_PATH"}
    environment.update(env or {})
    proc = subprocess.run([TBAND, *args], input=stdin, capture_output=True, timeout=timeout, env=environment)
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    return proc


def make_trace(*args):
    subprocess.run([MAKE_TRACE, *map(str, args)], check=True)


class TempDir:
    def __init__(self):
        self._dir = tempfile.TemporaryDirectory(prefix="tband_cli_")
        self.path = Path(self._dir.name)

    def __truediv__(self, name):
        return self.path / name

    def cleanup(self):
        self._dir.cleanup()


def served_port(first_line: str) -> int:
    """The port a `serve --port 0` (or `conv --serve --port 0`) took, from the
    link it prints first: the server binds it itself, so no other process can
    take it between a test's pick and the bind."""
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", first_line)
    if match is None:
        raise AssertionError(f"no http://127.0.0.1:PORT/ link in {first_line!r}")
    return int(match.group(1))


# ---- protoc text format -> nested dicts -------------------------------------------

def _parse_scalar(text):
    if text.startswith('"'):
        return bytes(text[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text  # enum names


def parse_text_format(text):
    """protoc's text output as {field: [values]}, messages as nested dicts."""
    root = {}
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            child = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(child)
            stack.append(child)
        else:
            key, _, value = line.partition(":")
            stack[-1].setdefault(key.strip(), []).append(_parse_scalar(value.strip()))
    return root


def one(msg, key, default=None):
    values = msg.get(key)
    return values[0] if values else default


def protoc_decode(path):
    with open(path, "rb") as trace:
        out = subprocess.run(
            [PROTOC, f"--proto_path={PROTO.parent}", "--decode=perfetto.protos.Trace", PROTO.name],
            stdin=trace, capture_output=True, check=True)
    return out.stdout.decode("utf-8", "replace")


class TraceView:
    """Tracks, slices, instants and counters of a .pftrace, resolved from
    protoc's decoding (interned names, incremental clock)."""

    def __init__(self, path):
        trace = parse_text_format(protoc_decode(path))
        self.tracks = {}
        names, arg_names, clock, default_clock = {}, {}, 0, 6
        open_slices = {}
        for packet in trace.get("packet", []):
            defaults = one(packet, "trace_packet_defaults")
            if defaults:
                default_clock = one(defaults, "timestamp_clock_id")
            snapshot = one(packet, "clock_snapshot")
            if snapshot:
                for c in snapshot["clocks"]:
                    if one(c, "is_incremental"):
                        clock = one(c, "timestamp", 0)
            interned = one(packet, "interned_data")
            if interned:
                for n in interned.get("event_names", []):
                    names[one(n, "iid")] = one(n, "name")
                for n in interned.get("debug_annotation_names", []):
                    arg_names[one(n, "iid")] = one(n, "name")
            desc = one(packet, "track_descriptor")
            if desc:
                uuid = one(desc, "uuid")
                t = self.tracks.setdefault(uuid, {"slices": [], "instants": [], "counter": []})
                process = one(desc, "process")
                # Perfetto's rule for a track described again: a process and a
                # track that never merges with its siblings take the new name,
                # any other keeps its first.
                if process or "name" not in t or one(desc, "sibling_merge_behavior") == "SIBLING_MERGE_BEHAVIOR_NONE":
                    t["name"] = one(process, "process_name") if process else one(desc, "name")
                t["is_process"] = bool(process)
                t["is_counter"] = "counter" in desc
                t["parent"] = one(desc, "parent_uuid", 0)
                continue
            event = one(packet, "track_event")
            if not event:
                continue
            ts = one(packet, "timestamp", 0)
            if one(packet, "timestamp_clock_id", default_clock) >= 64:
                clock += ts
                ts = clock
            t = self.tracks[one(event, "track_uuid")]
            kind = one(event, "type")
            name = names.get(one(event, "name_iid"))
            if kind == "TYPE_SLICE_BEGIN":
                t["slices"].append({"name": name, "begin": ts, "end": None})
                open_slices.setdefault(id(t), []).append(t["slices"][-1])
            elif kind == "TYPE_SLICE_END":
                open_slices[id(t)].pop()["end"] = ts
            elif kind == "TYPE_INSTANT":
                t["instants"].append({"name": name, "ts": ts})
            elif kind == "TYPE_COUNTER":
                value = one(event, "double_counter_value")
                t["counter"].append((ts, float(value) if value is not None else one(event, "counter_value", 0)))
            if kind in ("TYPE_SLICE_BEGIN", "TYPE_INSTANT") and "debug_annotations" in event:
                target = t["slices"][-1] if kind == "TYPE_SLICE_BEGIN" else t["instants"][-1]
                target["args"] = {arg_names.get(one(a, "name_iid")): self._arg_value(a)
                                  for a in event["debug_annotations"]}
        for t in self.tracks.values():
            parent = self.tracks.get(t["parent"]) if t["parent"] else None
            t["process"] = parent["name"] if parent else ""

    @staticmethod
    def _arg_value(annotation):
        for key in ("string_value", "int_value", "uint_value", "double_value", "bool_value"):
            if key in annotation:
                value = one(annotation, key)
                return float(value) if key == "double_value" else value
        return None

    def track(self, name, process=None):
        found = [t for t in self.tracks.values()
                 if t["name"] == name and (process is None or t["process"] == process)]
        if len(found) != 1:
            raise AssertionError(f"{len(found)} tracks named {name!r} in {process!r}: "
                                 f"{sorted((t['name'], t['process']) for t in self.tracks.values())}")
        return found[0]

    def process_names(self):
        return sorted(t["name"] for t in self.tracks.values() if t["is_process"])


# ---- a schema-driven encoder, to re-encode `dump --json` lines -----------------------

class SchemaEncoder:
    def __init__(self, schema_dir=ROOT / "schema"):
        self.events, enums = {}, {}
        docs = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(Path(schema_dir).glob("*.yaml"))]
        for doc in docs:
            for e in doc.get("enums", []):
                enums[e["name"]] = {v["name"]: v["value"] for v in e["values"]}
        for doc in docs:
            for e in doc["events"]:
                self.events[e["name"]] = (e["id"], e.get("metadata", False), e.get("fields", []))
        self.enums = enums

    @staticmethod
    def _varint(value):
        out = bytearray()
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                return bytes(out)

    @staticmethod
    def cobs(data):
        out, block = bytearray(), bytearray()
        for b in data:
            if b == 0:
                out += bytes([len(block) + 1]) + block
                block = bytearray()
            else:
                block.append(b)
                if len(block) == 254:
                    out += b"\xff" + block
                    block = bytearray()
        out += bytes([len(block) + 1]) + block + b"\x00"
        return bytes(out)

    def encode(self, line):
        """One frame from a `dump --json` line (a string field's exact bytes
        from "bytes_hex" when it has them), or from a dict like one whose
        string fields may be bytes."""
        event_id, metadata, fields = self.events[line["event"]]
        exact = line.get("bytes_hex", {})
        data = bytearray([event_id])
        if not metadata:
            data += self._varint(line["ts"])
        for f in fields:
            if f["name"] not in line["fields"]:
                continue  # an optional field left out
            value, kind = line["fields"][f["name"]], f["type"]
            if kind == "u8":
                data.append(value)
            elif kind in ("u32", "u64"):
                data += self._varint(value)
            elif kind == "s64":
                data += self._varint(1 if value == -2**63 else (abs(value) << 1) | (value < 0))
            elif kind == "str":
                if f["name"] in exact:
                    data += bytes.fromhex(exact[f["name"]])
                else:
                    data += value if isinstance(value, bytes) else value.encode("utf-8")
            else:
                data.append(self.enums[kind][value] if isinstance(value, str) else value)
        return self.cobs(bytes(data))


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, bit by bit: the check of link integrity and of
    control-channel frames (the firmware and the host use a table,
    target/include/tband/crc16.h)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc
