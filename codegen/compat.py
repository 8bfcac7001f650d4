"""`tband-codegen compat OLD NEW`: what changes between two schemas mean for
traces. A change is breaking when a decoder built from NEW would misread, or
fail on, a trace written by firmware built from OLD: an id now used by another
event, a removed event or field, a field whose type, order or presence
changed, an enum value that changed or went away. Added events, added enum
values and optional fields appended at the end are compatible.

Display rules, titles and descriptions are not compared: they do not change
how a trace decodes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Location, SchemaError, SchemaErrors
from .validate import compose_schema, load_schema

# Every kind of change, and whether it breaks old traces.
KINDS = {
    "id-reused": True,
    "event-removed": True,
    "event-moved": True,
    "metadata-changed": True,
    "field-removed": True,
    "field-type-changed": True,
    "field-order-changed": True,
    "field-added": True,
    "field-made-required": True,
    "default-changed": True,
    "enum-value-changed": True,
    "enum-value-removed": True,
    "event-added": False,
    "field-added-optional": False,
    "field-made-optional": False,
    "enum-value-added": False,
}


@dataclass(frozen=True)
class WireField:
    name: str
    type: str  # a scalar type, str, or an enum's name
    optional: bool
    default: Any
    where: str


@dataclass(frozen=True)
class WireEvent:
    name: str
    id: int
    metadata: bool
    fields: tuple[WireField, ...]  # wire order, without the implicit timestamp
    where: str


@dataclass(frozen=True)
class WireSchema:
    """What decoding depends on, from a schema or a descriptor."""

    label: str
    events: dict[int, WireEvent]
    enums: dict[str, dict[str, tuple[int, str]]]  # enum -> value name -> (number, where)
    enum_where: dict[str, str]


@dataclass(frozen=True)
class Change:
    kind: str
    where: str
    message: str

    @property
    def breaking(self) -> bool:
        return KINDS[self.kind]

    def line(self) -> str:
        return f"{self.where}: {'breaking' if self.breaking else 'compatible'}: {self.message}"


def _from_schema(schema, label: str) -> WireSchema:
    events = {
        e.id: WireEvent(
            e.name,
            e.id,
            e.metadata,
            tuple(WireField(f.name, f.type.name, f.optional, f.default, str(f.location)) for f in e.explicit_fields),
            str(e.location),
        )
        for e in schema.events
    }
    enums = {e.name: {v.name: (v.value, str(v.location)) for v in e.values} for e in schema.enums}
    return WireSchema(label, events, enums, {e.name: str(e.location) for e in schema.enums})


def _from_descriptor(path: Path, display: str) -> WireSchema:
    def bad(message: str) -> SchemaErrors:
        return SchemaErrors([SchemaError(Location(display, 1, 1), message)])

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise bad(f"cannot read the descriptor: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise SchemaErrors([SchemaError(Location(display, exc.lineno, exc.colno), f"invalid JSON: {exc.msg}")]) from exc
    except RecursionError as exc:
        raise bad("invalid JSON: nested too deeply") from exc
    except ValueError as exc:  # a number beyond Python's int-string limit (4300 digits)
        raise bad(f"invalid JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != "tband-schema-descriptor":
        raise bad("not a tband schema descriptor (its \"format\" is not \"tband-schema-descriptor\")")
    try:
        events = {}
        for e in data["events"]:
            fields = tuple(
                WireField(f["name"], f["type"], f.get("optional", False), f.get("default"), display)
                for f in e["fields"]
                if not f.get("implicit", False)
            )
            events[e["id"]] = WireEvent(e["name"], e["id"], e.get("metadata", False), fields, display)
        enums = {e["name"]: {v["name"]: (v["value"], display) for v in e["values"]} for e in data["enums"]}
    except (KeyError, TypeError) as exc:
        raise bad(f"malformed descriptor ({exc!r} missing or of the wrong type)") from exc
    return WireSchema(display, events, enums, {name: display for name in enums})


def load_wire_schema(path_text: str, builtin_dir: Path | None = None) -> WireSchema:
    """A schema descriptor (*.json), a complete schema folder (one holding
    base.yaml, like tband's schema/), or a user's schema file or folder, which
    is composed with the built-in groups. Raises SchemaErrors."""
    path = Path(path_text)
    if path.is_file() and path.suffix == ".json":
        return _from_descriptor(path, path_text)
    if path.is_dir() and (path / "base.yaml").is_file():
        return _from_schema(load_schema(path, path_text.rstrip("/")), path_text)
    return _from_schema(compose_schema([(path, path_text)], builtin_dir), path_text)


def _same_default(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def _event_label(event: WireEvent) -> str:
    return f"event '{event.name}' (0x{event.id:02X})"


def _compare_fields(old: WireEvent, new: WireEvent, changes: list[Change]) -> None:
    label = _event_label(new)
    new_index = {f.name: i for i, f in enumerate(new.fields)}
    # Fields both have, in each one's order: a removed or inserted field is
    # reported as such, not as every later field moving.
    kept_old = [f.name for f in old.fields if f.name in new_index]
    old_names = {f.name for f in old.fields}
    kept_new = [f.name for f in new.fields if f.name in old_names]
    for i, field in enumerate(old.fields):
        what = f"{label} field '{field.name}'"
        if field.name not in new_index:
            changes.append(Change("field-removed", field.where, f"{what} removed: old traces carry bytes for it"))
            continue
        j = new_index[field.name]
        now = new.fields[j]
        if kept_old.index(field.name) != kept_new.index(field.name):
            changes.append(
                Change("field-order-changed", now.where, f"{what} moved from position {i + 1} to {j + 1}")
            )
        if now.type != field.type:
            changes.append(
                Change("field-type-changed", now.where, f"{what} changed type from {field.type} to {now.type}")
            )
        if field.optional and not now.optional:
            changes.append(
                Change("field-made-required", now.where, f"{what} is now required: old traces may leave it out")
            )
        elif now.optional and not field.optional:
            changes.append(Change("field-made-optional", now.where, f"{what} is now optional"))
        elif now.optional and not _same_default(field.default, now.default):
            changes.append(
                Change(
                    "default-changed",
                    now.where,
                    f"{what}: default changed from {field.default!r} to {now.default!r}: "
                    "old traces that leave it out now decode to another value",
                )
            )
    for j, field in enumerate(new.fields):
        if field.name in old_names:
            continue
        what = f"{label} field '{field.name}'"
        appended = j >= len(old.fields) and all(f.name not in old_names for f in new.fields[j:])
        if field.optional and appended:
            changes.append(Change("field-added-optional", field.where, f"{what} added (optional, at the end)"))
        elif not field.optional:
            changes.append(
                Change("field-added", field.where, f"{what} added: old traces do not carry it (make it optional)")
            )
        else:
            changes.append(
                Change("field-added", field.where, f"{what} added before existing fields: old traces misread")
            )


def _compare_enums(old: WireSchema, new: WireSchema, changes: list[Change]) -> None:
    for name, old_values in old.enums.items():
        new_values = new.enums.get(name)
        if new_values is None:
            continue  # a field that used it has changed type; reported there
        new_by_number = {number: value for value, (number, _) in new_values.items()}
        old_numbers = {number for number, _ in old_values.values()}
        for value, (number, where) in old_values.items():
            if value in new_values:
                now, now_where = new_values[value]
                if now != number:
                    changes.append(
                        Change(
                            "enum-value-changed",
                            now_where,
                            f"enum '{name}' value {value} changed from {number} to {now}",
                        )
                    )
            elif number in new_by_number:
                renamed = new_by_number[number]
                changes.append(
                    Change(
                        "enum-value-changed",
                        new_values[renamed][1],
                        f"enum '{name}' value {number} renamed from {value} to {renamed}",
                    )
                )
            else:
                changes.append(
                    Change("enum-value-removed", where, f"enum '{name}' value {value} ({number}) removed")
                )
        for value, (number, where) in new_values.items():
            if value not in old_values and number not in old_numbers:
                changes.append(Change("enum-value-added", where, f"enum '{name}' value {value} ({number}) added"))


def compare(old: WireSchema, new: WireSchema) -> list[Change]:
    """Every change from old to new, breaking ones first, each in id order."""
    changes: list[Change] = []
    new_by_name = {e.name: e for e in new.events.values()}
    old_by_name = {e.name: e for e in old.events.values()}
    for event_id in sorted(old.events):
        event = old.events[event_id]
        now = new.events.get(event_id)
        if now is None:
            moved = new_by_name.get(event.name)
            if moved is not None:
                changes.append(
                    Change(
                        "event-moved",
                        moved.where,
                        f"event '{event.name}' moved from id 0x{event.id:02X} to 0x{moved.id:02X}: "
                        "old traces use the old id",
                    )
                )
            else:
                changes.append(
                    Change("event-removed", event.where, f"{_event_label(event)} removed: old traces that hold it fail")
                )
            continue
        if now.name != event.name:
            changes.append(
                Change(
                    "id-reused",
                    now.where,
                    f"id 0x{event_id:02X} was event '{event.name}', is now event '{now.name}': "
                    "old traces decode as the wrong event",
                )
            )
            continue
        if now.metadata != event.metadata:
            has = "no longer has" if now.metadata else "now has"
            changes.append(Change("metadata-changed", now.where, f"{_event_label(now)} {has} a timestamp"))
            continue
        _compare_fields(event, now, changes)
    for event_id in sorted(new.events):
        event = new.events[event_id]
        if event_id not in old.events and event.name not in old_by_name:
            changes.append(Change("event-added", event.where, f"{_event_label(event)} added"))
    _compare_enums(old, new, changes)
    return sorted(changes, key=lambda c: not c.breaking)
