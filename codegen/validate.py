"""Turns loaded schema files into the model, reporting every problem with its location.

Two stages, each reporting all errors it finds:
1. structure, per file: known keys only, required keys present, value types;
2. meaning, across files: names, ids, types, field order, enums.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ErrorCollector, Location, SchemaError, SchemaErrors
from .loader import LocatedDict, LocatedList, load_yaml
from .model import (
    BUILTIN_TYPES,
    TIMESTAMP_TYPE,
    EnumType,
    EnumValue,
    Event,
    Field,
    FieldType,
    Group,
    Schema,
)
from .naming import PASCAL_CASE, SNAKE_CASE, UPPER_SNAKE_CASE, pascal_case, reserved_reason

# ---- Stage 1: structure ------------------------------------------------------

# key -> (kind, required). Kinds: name, text (one-line description), int, bool,
# list, range.
TOP_KEYS = {
    "group": ("name", True),
    "title": ("text", True),
    "description": ("text", True),
    "id_range": ("range", False),
    "enums": ("list", False),
    "events": ("list", True),
}
ENUM_KEYS = {"name": ("name", True), "description": ("text", True), "values": ("list", True)}
ENUM_VALUE_KEYS = {"name": ("name", True), "value": ("int", True), "description": ("text", True)}
EVENT_KEYS = {
    "name": ("name", True),
    "id": ("int", True),
    "description": ("text", True),
    "metadata": ("bool", False),
    "fields": ("list", False),
}
FIELD_KEYS = {
    "name": ("name", True),
    "type": ("name", True),
    "description": ("text", True),
    "optional": ("bool", False),
}

KIND_WORDS = {
    "name": "a name",
    "text": "a one-line text",
    "int": "an integer",
    "bool": "true or false",
    "list": "a list",
    "range": "a list of two ids [first, last]",
}

# C++ type names the generated host code defines itself; schema types must not reuse them.
RESERVED_TYPE_NAMES = frozenset(
    "Event EventInfo FieldInfo EnumInfo EnumValueInfo FieldType FieldValue DecodeResult "
    "DecodeError DecodeErrorKind FieldReader".split()
)
RESERVED_FIELD_NAMES = {
    "id": "it is the event id, which every event has",
    "ts": "the generator adds the timestamp of every non-metadata event",
    "buf": "it is the output buffer parameter of the generated encoder",
}


def _describe_value(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return f"{type(value).__name__} {value!r}"


def _kind_ok(kind: str, value: Any) -> bool:
    if kind in ("name", "text"):
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, LocatedList)
    if kind == "range":
        return (
            isinstance(value, LocatedList)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        )
    raise AssertionError(kind)


def _check_mapping(
    node: Any, spec: dict, what: str, where: Location, errors: ErrorCollector
) -> LocatedDict | None:
    """Checks keys and value kinds of one mapping. Returns it, or None if unusable."""
    if not isinstance(node, LocatedDict):
        errors.add(where, f"{what} must be a mapping, not {_describe_value(node)}")
        return None
    usable = True
    for key in node:
        if key not in spec:
            hint = difflib.get_close_matches(str(key), list(spec), n=1)
            suggestion = f" (did you mean '{hint[0]}'?)" if hint else f" (known keys: {', '.join(spec)})"
            errors.add(node.key_loc[key], f"unknown key '{key}' in {what}{suggestion}")
            usable = False
    for key, (kind, required) in spec.items():
        if key not in node:
            if required:
                errors.add(node.loc, f"{what} is missing the required key '{key}'")
                usable = False
            continue
        value = node[key]
        if not _kind_ok(kind, value):
            hint = ""
            if isinstance(value, bool) and kind in ("name", "text"):
                hint = " (quote it: YAML reads yes/no/on/off/true/false as booleans)"
            errors.add(
                node.value_loc[key],
                f"{what}: '{key}' must be {KIND_WORDS[kind]}, not {_describe_value(value)}{hint}",
            )
            usable = False
        elif kind == "text" and ("\n" in value.strip() or not value.strip()):
            errors.add(node.value_loc[key], f"{what}: '{key}' must be one non-empty line")
            usable = False
    return node if usable else None


def _item_name(node: Any, index: int, noun: str) -> str:
    if isinstance(node, dict) and isinstance(node.get("name"), str):
        return f"{noun} '{node['name']}'"
    return f"{noun} #{index + 1}"


@dataclass
class _RawFile:
    """One schema file after the structural stage: checked mappings only."""

    path: str
    top: LocatedDict
    enums: list[LocatedDict]
    events: list[tuple[LocatedDict, list[LocatedDict]]]  # event and its fields


def _check_file_structure(path: str, data: Any, errors: ErrorCollector) -> _RawFile | None:
    top = _check_mapping(data, TOP_KEYS, "the top level of the file", Location(path, 1, 1), errors)
    if top is None:
        return None
    raw = _RawFile(path, top, [], [])
    for i, enum_node in enumerate(top.get("enums", [])):
        what = _item_name(enum_node, i, "enum")
        enum_map = _check_mapping(enum_node, ENUM_KEYS, what, top["enums"].item_loc[i], errors)
        if enum_map is None:
            continue
        values_ok = True
        for j, value_node in enumerate(enum_map["values"]):
            value_what = f"{_item_name(value_node, j, 'value')} of {what}"
            where = enum_map["values"].item_loc[j]
            values_ok &= _check_mapping(value_node, ENUM_VALUE_KEYS, value_what, where, errors) is not None
        if values_ok:
            raw.enums.append(enum_map)
    for i, event_node in enumerate(top["events"]):
        what = _item_name(event_node, i, "event")
        event_map = _check_mapping(event_node, EVENT_KEYS, what, top["events"].item_loc[i], errors)
        if event_map is None:
            continue
        fields = []
        fields_ok = True
        for j, field_node in enumerate(event_map.get("fields", [])):
            field_what = f"{what} {_item_name(field_node, j, 'field')}"
            where = event_map["fields"].item_loc[j]
            field_map = _check_mapping(field_node, FIELD_KEYS, field_what, where, errors)
            fields_ok &= field_map is not None
            fields.append(field_map)
        if fields_ok:
            raw.events.append((event_map, fields))
    return raw


# ---- Stage 2: meaning --------------------------------------------------------


def _check_name(name: str, where: Location, what: str, pattern, style: str, errors: ErrorCollector) -> bool:
    if not pattern.match(name):
        errors.add(where, f"{what}: '{name}' is not a valid name (use {style})")
        return False
    reason = reserved_reason(name)
    if reason:
        errors.add(where, f"{what}: '{name}' {reason}")
        return False
    return True


SNAKE_STYLE = "lower snake_case: a-z, 0-9 and single underscores, starting with a letter"
PASCAL_STYLE = "PascalCase: a capital letter, then letters and digits"
UPPER_STYLE = "UPPER_SNAKE_CASE: A-Z, 0-9 and single underscores, starting with a letter"


class _Builder:
    """Checks meaning across all files and builds the model."""

    def __init__(self, errors: ErrorCollector) -> None:
        self.errors = errors
        self.enums: dict[str, EnumType] = {}
        self.event_ids: dict[int, tuple[str, Location]] = {}
        self.event_names: dict[str, Location] = {}
        self.type_names: dict[str, tuple[str, Location]] = {}
        self.groups: dict[str, Location] = {}
        self.ranges: list[tuple[int, int, str, Location]] = []

    def claim_type_name(self, cpp_name: str, owner: str, where: Location) -> None:
        if cpp_name in RESERVED_TYPE_NAMES:
            self.errors.add(where, f"{owner}: C++ type name '{cpp_name}' is reserved by the generated code")
        elif cpp_name in self.type_names:
            other, other_loc = self.type_names[cpp_name]
            self.errors.add(
                where, f"{owner}: C++ type name '{cpp_name}' is already used by {other} ({other_loc})"
            )
        else:
            self.type_names[cpp_name] = (owner, where)

    def build_enum(self, node: LocatedDict, group: str) -> None:
        name = node["name"]
        what = f"enum '{name}'"
        if not _check_name(name, node.value_loc["name"], what, PASCAL_CASE, PASCAL_STYLE, self.errors):
            return
        if name in self.enums:
            self.errors.add(node.value_loc["name"], f"{what} is already defined ({self.enums[name].location})")
            return
        self.claim_type_name(name, what, node.value_loc["name"])
        values: list[EnumValue] = []
        by_value: dict[int, str] = {}
        by_name: set[str] = set()
        for value_node in node["values"]:
            value_name = value_node["name"]
            value_what = f"{what} value '{value_name}'"
            name_loc = value_node.value_loc["name"]
            if not _check_name(value_name, name_loc, value_what, UPPER_SNAKE_CASE, UPPER_STYLE, self.errors):
                continue
            value = value_node["value"]
            value_loc = value_node.value_loc["value"]
            if value_name in by_name:
                self.errors.add(name_loc, f"{what}: value name '{value_name}' is already used")
            elif not 0 <= value <= 255:
                self.errors.add(value_loc, f"{value_what}: value {value} is outside 0..255 (enums are u8)")
            elif value in by_value:
                self.errors.add(value_loc, f"{value_what}: value {value} is already used by '{by_value[value]}'")
            else:
                by_name.add(value_name)
                by_value[value] = value_name
                values.append(EnumValue(value_name, value, value_node["description"].strip(), name_loc))
        if not node["values"]:
            self.errors.add(node.loc, f"{what} has no values")
        self.enums[name] = EnumType(
            name, node["description"].strip(), group, tuple(sorted(values, key=lambda v: v.value)), node.loc
        )

    def build_field(self, event_what: str, node: LocatedDict) -> Field | None:
        name = node["name"]
        what = f"{event_what} field '{name}'"
        name_loc = node.value_loc["name"]
        if not _check_name(name, name_loc, what, SNAKE_CASE, SNAKE_STYLE, self.errors):
            return None
        if name in RESERVED_FIELD_NAMES:
            self.errors.add(name_loc, f"{what}: '{name}' is reserved: {RESERVED_FIELD_NAMES[name]}")
            return None
        type_name = node["type"]
        type_loc = node.value_loc["type"]
        if type_name in BUILTIN_TYPES:
            field_type = FieldType(type_name)
        elif type_name in self.enums:
            field_type = FieldType(type_name, self.enums[type_name])
        else:
            enums = ", ".join(sorted(self.enums)) or "none defined"
            self.errors.add(
                type_loc,
                f"{what}: unknown type '{type_name}' (expected u8, u32, u64, s64, str or an enum: {enums})",
            )
            return None
        optional = node.get("optional", False)
        if optional and field_type.is_str:
            self.errors.add(
                node.value_loc["optional"],
                f"{what}: a str field cannot be optional (it may already be empty)",
            )
            return None
        return Field(name, field_type, node["description"].strip(), optional, False, name_loc)

    def check_field_order(self, what: str, fields: list[Field]) -> None:
        first_optional: Field | None = None
        names: dict[str, Field] = {}
        for index, field in enumerate(fields):
            field_what = f"{what} field '{field.name}'"
            if field.name in names:
                self.errors.add(field.location, f"{field_what}: a field with this name already exists")
            names[field.name] = field
            if field.type.is_str and index != len(fields) - 1:
                self.errors.add(field.location, f"{field_what}: a str field must be the last field")
            if field.optional and first_optional is None:
                first_optional = field
            if not field.optional and first_optional is not None and not field.type.is_str:
                self.errors.add(
                    field.location,
                    f"{field_what}: required field after optional field '{first_optional.name}'",
                )
            if field.type.is_str and first_optional is not None:
                self.errors.add(
                    field.location,
                    f"{field_what}: an event with optional fields ('{first_optional.name}') "
                    "cannot also have a str field",
                )
        for field in fields:
            if field.type.is_str and f"{field.name}_len" in names:
                clash = names[f"{field.name}_len"]
                self.errors.add(
                    clash.location,
                    f"{what} field '{clash.name}': name clashes with the length parameter "
                    f"the encoder generates for str field '{field.name}'",
                )

    def build_event(
        self, node: LocatedDict, field_nodes: list[LocatedDict], group: str, id_range: tuple[int, int]
    ) -> Event | None:
        name = node["name"]
        what = f"event '{name}'"
        name_loc = node.value_loc["name"]
        if not _check_name(name, name_loc, what, SNAKE_CASE, SNAKE_STYLE, self.errors):
            return None
        if name in self.event_names:
            self.errors.add(name_loc, f"{what}: the name is already used ({self.event_names[name]})")
            return None
        self.event_names[name] = name_loc
        self.claim_type_name(pascal_case(name), what, name_loc)
        event_id = node["id"]
        id_loc = node.value_loc["id"]
        ok = True
        if not 0 <= event_id <= 255:
            self.errors.add(id_loc, f"{what}: id {event_id} is outside 0..255 (ids are u8)")
            ok = False
        elif not id_range[0] <= event_id <= id_range[1]:
            self.errors.add(
                id_loc,
                f"{what}: id 0x{event_id:02X} is outside the range of group '{group}' "
                f"(0x{id_range[0]:02X}..0x{id_range[1]:02X})",
            )
            ok = False
        elif event_id in self.event_ids:
            other_name, other_loc = self.event_ids[event_id]
            self.errors.add(
                id_loc, f"{what}: id 0x{event_id:02X} is already used by event '{other_name}' ({other_loc})"
            )
            ok = False
        else:
            self.event_ids[event_id] = (name, name_loc)
        metadata = node.get("metadata", False)
        fields = [self.build_field(what, f) for f in field_nodes]
        if any(f is None for f in fields) or not ok:
            return None
        self.check_field_order(what, fields)  # type: ignore[arg-type]
        if not metadata:
            timestamp = Field(
                "ts", TIMESTAMP_TYPE, "Time of the event in timestamp ticks.", False, True, name_loc
            )
            fields.insert(0, timestamp)
        return Event(name, event_id, group, metadata, node["description"].strip(), tuple(fields), name_loc)

    def build_group_header(self, raw: _RawFile) -> tuple[str, tuple[int, int]] | None:
        """Checks the group name and id range. Returns (name, id range) or None."""
        top = raw.top
        group = top["group"]
        group_loc = top.value_loc["group"]
        if not _check_name(group, group_loc, "group", SNAKE_CASE, SNAKE_STYLE, self.errors):
            return None
        if group in self.groups:
            self.errors.add(group_loc, f"group '{group}' is already defined ({self.groups[group]})")
            return None
        self.groups[group] = group_loc
        if "id_range" not in top:
            return group, (0, 255)
        first, last = top["id_range"]
        range_loc = top.value_loc["id_range"]
        if not 0 <= first <= last <= 255:
            self.errors.add(
                range_loc, f"group '{group}': id_range [{first}, {last}] must satisfy 0 <= first <= last <= 255"
            )
            return None
        for other_first, other_last, other_group, other_loc in self.ranges:
            if first <= other_last and other_first <= last:
                self.errors.add(
                    range_loc, f"group '{group}': id_range overlaps the range of group '{other_group}' ({other_loc})"
                )
        self.ranges.append((first, last, group, range_loc))
        return group, (first, last)

    def build_group(self, raw: _RawFile, source: str, group: str, id_range: tuple[int, int]) -> Group:
        """Builds a group's events; every file's enums must already be built."""
        events = []
        for event_node, field_nodes in raw.events:
            event = self.build_event(event_node, field_nodes, group, id_range)
            if event is not None:
                events.append(event)
        top = raw.top
        return Group(
            group,
            top["title"].strip(),
            top["description"].strip(),
            id_range,
            source,
            tuple(e for e in self.enums.values() if e.group == group),
            tuple(sorted(events, key=lambda e: e.id)),
        )


def schema_files(schema_dir: Path) -> list[Path]:
    return sorted(p for p in schema_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def schema_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def load_schema(schema_dir: Path, display_dir: str | None = None) -> Schema:
    """Loads and validates every *.yaml file in schema_dir. Raises SchemaErrors."""
    display_dir = str(schema_dir) if display_dir is None else display_dir
    if not schema_dir.is_dir():
        raise SchemaErrors([SchemaError(Location(display_dir, 1, 1), "schema directory does not exist")])
    files = schema_files(schema_dir)
    if not files:
        raise SchemaErrors([SchemaError(Location(display_dir, 1, 1), "no *.yaml schema files found")])

    errors = ErrorCollector()
    raws: list[tuple[_RawFile, str]] = []
    for path in files:
        display = f"{display_dir}/{path.name}"
        try:
            data = load_yaml(path, display)
        except SchemaError as exc:
            errors.errors.append(exc)
            continue
        raw = _check_file_structure(display, data, errors)
        if raw is not None:
            raws.append((raw, path.name))
    errors.raise_if_any()

    builder = _Builder(errors)
    headers = [(raw, source, builder.build_group_header(raw)) for raw, source in raws]
    headers = [(raw, source, header) for raw, source, header in headers if header is not None]
    # Enums of every file first, so that any file may use an enum another one defines.
    for raw, _, (group, _) in headers:
        for enum_node in raw.enums:
            builder.build_enum(enum_node, group)
    groups = [builder.build_group(raw, source, *header) for raw, source, header in headers]
    errors.raise_if_any()
    return Schema(tuple(groups), tuple(p.name for p in files), schema_hash(files))
