"""Turns loaded schema files into the model, reporting every problem with its location.

Two stages, each reporting all errors it finds:
1. structure, per file: known keys only, required keys present, value types;
2. meaning, across files: names, ids, types, field order, enums.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ErrorCollector, Location, SchemaError, SchemaErrors
from .descriptor import wire_hash
from .display import DISPLAY_KEYS, DisplayChecker
from .loader import LocatedDict, LocatedList, load_yaml
from .model import (
    BUILTIN_TYPES,
    FLOAT_TYPES,
    INTEGER_RANGES,
    TIMESTAMP_TYPE,
    USER_ID_RANGE,
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
    "display": ("mapping", False),
}
FIELD_KEYS = {
    "name": ("name", True),
    "type": ("name", True),
    "description": ("text", True),
    "optional": ("bool", False),
    "default": ("any", False),
    "filter_key": ("bool", False),
}

F32_MAX = 3.4028234663852886e38

# C and other languages' names for the schema's types, for "did you mean".
TYPE_ALIASES = {
    **{f"int{n}": f"s{n}" for n in (8, 16, 32, 64)},
    **{f"int{n}_t": f"s{n}" for n in (8, 16, 32, 64)},
    **{f"uint{n}": f"u{n}" for n in (8, 16, 32, 64)},
    **{f"uint{n}_t": f"u{n}" for n in (8, 16, 32, 64)},
    **{f"i{n}": f"s{n}" for n in (8, 16, 32, 64)},
    "float": "f32",
    "double": "f64",
    "float32": "f32",
    "float64": "f64",
    "boolean": "bool",
    "string": "str",
    "char": "u8",
    "byte": "u8",
}

# The firmware's compact encoder (encode_fields) takes at most 8 integer fields.
MAX_USER_INTEGER_FIELDS = 8

# Names a user group may not take: their switch would clash with one of
# tband's own (tband_configMARKER_TRACE_ENABLE, ...).
RESERVED_GROUP_NAMES = frozenset("base freertos freertos_task freertos_queue marker isr metadata backend".split())

# tband_* names of the C API, the FreeRTOS layer and the ports (without the
# tband_ prefix; built-in events' hooks aside, their names are taken anyway):
# a user event's hook tband_<event> must not take one. An installed generator
# has no target/ tree to read them from; tests/codegen/test_reserved_names.py
# compares this list with the headers.
RESERVED_HOOK_NAMES = frozenset(
    """
    tracing_enabled tracing_finished tracing_backend_finished get_dropped_evt_cnt
    gather_system_metadata get_metadata_buf get_metadata_buf_amnt start_streaming
    restart_streaming stop_streaming flush_streaming trigger_snapshot stop_snapshot reset_snapshot
    get_core_snapshot_buf get_core_snapshot_buf_amnt start_post_mortem stop_post_mortem
    get_post_mortem_buf get_post_mortem_buf_size submit_to_backend fn fn_begin fn_end
    rx_feed rx_poll rx_get_counts rx_counts
    crc16 crc16_update crc16_nibble_table
    """.split()
)
# Whole families: tband_freertos_* is the FreeRTOS layer's (it grows with the
# kernel objects it traces), tband_filter_* the run-time filters', the others the ports'.
RESERVED_HOOK_PREFIXES = ("freertos_", "filter_", "port_", "host_", "posix_", "cm4_")


def hook_clash(name: str) -> str | None:
    """Why event `name`'s hook tband_<name>() cannot exist, or None."""
    if name in RESERVED_HOOK_NAMES:
        return f"its hook tband_{name}() would clash with the tband C API function of that name"
    prefix = next((p for p in RESERVED_HOOK_PREFIXES if name.startswith(p)), None)
    if prefix is not None:
        return f"its hook tband_{name}() would be in tband's own tband_{prefix}* names; choose another prefix"
    return None


KIND_WORDS = {
    "name": "a name",
    "text": "a one-line text",
    "int": "an integer",
    "bool": "true or false",
    "list": "a list",
    "mapping": "a mapping",
    "range": "a list of two ids [first, last]",
    "any": "a single value (a number, true/false or a name)",
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
    if kind == "any":
        return value is not None and not isinstance(value, (dict, list))
    if kind == "list":
        return isinstance(value, LocatedList)
    if kind == "mapping":
        return isinstance(value, LocatedDict)
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
        elif kind == "text" and (bad := _unprintable(value)) is not None:
            errors.add(node.value_loc[key], f"{what}: '{key}' must be printable text, not hold {bad}")
            usable = False
    return node if usable else None


def _unprintable(text: str) -> str | None:
    """The first character that no generated file can carry as it is, named, or None.
    Control characters (a carriage return, a tab, NUL), line and paragraph
    separators, and invisible format characters such as bidi overrides (GCC
    warns about those in comments) are refused; so are lone surrogates, which
    UTF-8 cannot hold."""
    start = len(text) - len(text.lstrip())  # surrounding whitespace is stripped, never generated
    for index, char in enumerate(text.strip(), start):
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            name = unicodedata.name(char, "a control character" if char < "\xa0" else "a surrogate")
            return f"U+{ord(char):04X} ({name.lower()}) at character {index + 1}"
    return None


def _a(type_name: str) -> str:
    """The type name with its article, as it is read aloud: a u8, an s8, an f32."""
    return f"an {type_name}" if type_name[0] in "aefhilmnorsx" else f"a {type_name}"


def _float_text(text: str) -> Any:
    """A float written as text (inf, nan, 1.0e39), or the text itself."""
    lowered = text.strip().lower().replace(".inf", "inf").replace(".nan", "nan")
    try:
        return float(lowered)
    except ValueError:
        return text


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
    events: list[tuple[LocatedDict, list[LocatedDict], LocatedDict | None]]  # event, its fields, its display


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
        display = None
        if "display" in event_map:
            display = _check_mapping(
                event_map["display"], DISPLAY_KEYS, f"{what} display", event_map.value_loc["display"], errors
            )
            fields_ok &= display is not None
        if fields_ok:
            raw.events.append((event_map, fields, display))
    return raw


# ---- Stage 2: meaning --------------------------------------------------------


def _check_name(name: str, where: Location, what: str, pattern, style: str, errors: ErrorCollector) -> bool:
    if not pattern.fullmatch(name):
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
        self.builtin_ranges: list[tuple[int, int, str, Location]] = []
        self.display = DisplayChecker(errors)

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
            hint = [TYPE_ALIASES[type_name]] if type_name in TYPE_ALIASES else difflib.get_close_matches(
                type_name, [*BUILTIN_TYPES, *self.enums], n=1
            )
            did_you_mean = f"did you mean '{hint[0]}'? " if hint else ""
            self.errors.add(
                type_loc,
                f"{what}: unknown type '{type_name}' ({did_you_mean}expected {', '.join(BUILTIN_TYPES)} "
                f"or an enum: {enums})",
            )
            return None
        optional = node.get("optional", False)
        if optional and field_type.is_str:
            self.errors.add(
                node.value_loc["optional"],
                f"{what}: a str field cannot be optional (it may already be empty)",
            )
            return None
        default = None
        if "default" in node:
            default_loc = node.value_loc["default"]
            if not optional:
                self.errors.add(
                    default_loc, f"{what}: only an optional field can have a default (add 'optional: true')"
                )
                return None
            default = self.check_default(what, field_type, node["default"], default_loc)
            if default is None:
                return None
        filter_key = bool(node.get("filter_key", False))
        if filter_key and (optional or not (field_type.enum or field_type.name in ("u8", "u16", "u32"))):
            self.errors.add(
                node.value_loc["filter_key"],
                f"{what}: a filter key must be a required u8, u16, u32 or enum field "
                f"(the run-time filter compares it with an object id), not {'an optional ' if optional else ''}{field_type.name}",
            )
            return None
        return Field(
            name, field_type, node["description"].strip(), optional, False, name_loc, default, filter_key,
            node.value_loc["filter_key"] if filter_key else None,
        )

    def check_default(self, what: str, field_type: FieldType, value: Any, where: Location) -> Any:
        """The default converted to the field's type, or None after reporting why it does not fit."""
        type_name = field_type.name
        if field_type.enum:
            names = [v.name for v in field_type.enum.values]
            if isinstance(value, str) and value in names:
                return value
            self.errors.add(
                where,
                f"{what}: default {_describe_value(value)} is not a value of enum '{type_name}' "
                f"(one of: {', '.join(names)})",
            )
            return None
        if type_name == "bool":
            if isinstance(value, bool):
                return value
            self.errors.add(
                where, f"{what}: default of a bool field must be true or false, not {_describe_value(value)}"
            )
            return None
        if type_name in FLOAT_TYPES:
            if isinstance(value, str):
                value = _float_text(value)  # YAML 1.1 reads 1.0e39 (no exponent sign) and nan as text
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                as_float = float(value)
                if type_name == "f32" and math.isfinite(as_float) and abs(as_float) > F32_MAX:
                    self.errors.add(
                        where, f"{what}: default {value} is too large for an f32 (the largest is 3.4028235e38)"
                    )
                    return None
                return as_float
            self.errors.add(
                where,
                f"{what}: default of {_a(type_name)} field must be a number, inf, -inf or nan, "
                f"not {_describe_value(value)}",
            )
            return None
        low, high = INTEGER_RANGES[type_name]
        if not isinstance(value, int) or isinstance(value, bool):
            self.errors.add(
                where, f"{what}: default of {_a(type_name)} field must be an integer, not {_describe_value(value)}"
            )
            return None
        if not low <= value <= high:
            self.errors.add(where, f"{what}: default {value} is outside the range of {type_name} ({low}..{high})")
            return None
        return value

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
        self,
        node: LocatedDict,
        field_nodes: list[LocatedDict],
        display_node: LocatedDict | None,
        group: str,
        id_range: tuple[int, int],
        builtin: bool,
    ) -> Event | None:
        name = node["name"]
        what = f"event '{name}'"
        name_loc = node.value_loc["name"]
        if not _check_name(name, name_loc, what, SNAKE_CASE, SNAKE_STYLE, self.errors):
            return None
        if name in self.event_names:
            self.errors.add(name_loc, f"{what}: the name is already used ({self.event_names[name]})")
            return None
        clash = None if builtin else hook_clash(name)
        if clash:
            self.errors.add(name_loc, f"{what}: {clash}")
            return None
        self.event_names[name] = name_loc
        # An event may share its natural name with an enum (bms_fault and
        # BmsFault): its type then takes the suffix Event.
        cpp_type = pascal_case(name) + "Event" if pascal_case(name) in self.enums else None
        self.claim_type_name(cpp_type or pascal_case(name), what, name_loc)
        event_id = node["id"]
        id_loc = node.value_loc["id"]
        ok = True
        if not 0 <= event_id <= 255:
            self.errors.add(id_loc, f"{what}: id {event_id} is outside 0..255 (ids are u8)")
            ok = False
        elif not builtin and not USER_ID_RANGE[0] <= event_id <= USER_ID_RANGE[1]:
            self.errors.add(id_loc, f"{what}: {self.outside_user_range(event_id)}")
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
        elif (owner := self.other_groups_range(group, event_id)) is not None:
            self.errors.add(
                id_loc,
                f"{what}: id 0x{event_id:02X} of group '{group}', which declares no id_range, lies inside the "
                f"id_range of group '{owner[2]}' (0x{owner[0]:02X}..0x{owner[1]:02X}, {owner[3]})",
            )
            ok = False
        else:
            self.event_ids[event_id] = (name, name_loc)
        metadata = node.get("metadata", False)
        fields = [self.build_field(what, f) for f in field_nodes]
        if any(f is None for f in fields) or not ok:
            return None
        self.check_field_order(what, fields)  # type: ignore[arg-type]
        for index, field in enumerate(fields):
            if field.filter_key and (index != 0 or metadata):  # type: ignore[union-attr]
                self.errors.add(
                    field.filter_key_loc,  # type: ignore[union-attr, arg-type]
                    f"{what} field '{field.name}': only the first field of an event that is not metadata "  # type: ignore[union-attr]
                    "can be its filter key",
                )
                return None
        integer_fields = sum(1 for f in fields if not f.type.is_str) + (0 if metadata else 1)  # type: ignore[union-attr]
        if not builtin and integer_fields > MAX_USER_INTEGER_FIELDS:
            self.errors.add(
                name_loc,
                f"{what}: {integer_fields} fields besides the string{'' if metadata else ' (the timestamp included)'}; "
                f"a user event may have at most {MAX_USER_INTEGER_FIELDS} (the firmware's compact encoder takes no more)",
            )
            return None
        if not metadata:
            timestamp = Field(
                "ts", TIMESTAMP_TYPE, "Time of the event in timestamp ticks.", False, True, name_loc
            )
            fields.insert(0, timestamp)
        display = None
        if display_node is not None:
            display = self.display.build(what, display_node, fields, metadata)
            if display is None:
                return None
        return Event(
            name, event_id, group, metadata, node["description"].strip(), tuple(fields), name_loc, display, cpp_type
        )

    def other_groups_range(self, group: str, event_id: int) -> tuple[int, int, str, Location] | None:
        """The declared id_range of another group that holds event_id, when `group` declares none
        (a group with an id_range keeps its ids inside it, and ranges do not overlap)."""
        if any(r[2] == group for r in self.ranges):
            return None
        return next((r for r in self.ranges if r[0] <= event_id <= r[1]), None)

    def outside_user_range(self, event_id: int) -> str:
        """Why a user event cannot have this id, naming the built-in group (and event) that own it."""
        message = (
            f"id 0x{event_id:02X} is outside the range for user events "
            f"(0x{USER_ID_RANGE[0]:02X}..0x{USER_ID_RANGE[1]:02X})"
        )
        owner = next((r for r in self.builtin_ranges if r[0] <= event_id <= r[1]), None)
        if owner is not None:
            message += f"; it belongs to tband's group '{owner[2]}' ({owner[3]})"
        if event_id in self.event_ids:
            other_name, other_loc = self.event_ids[event_id]
            message += f", whose event '{other_name}' has it ({other_loc})"
        return message

    def build_group_header(self, raw: _RawFile, builtin: bool) -> tuple[str, tuple[int, int]] | None:
        """Checks the group name and id range. Returns (name, id range) or None."""
        top = raw.top
        group = top["group"]
        group_loc = top.value_loc["group"]
        if not _check_name(group, group_loc, "group", SNAKE_CASE, SNAKE_STYLE, self.errors):
            return None
        if group in self.groups:
            self.errors.add(group_loc, f"group '{group}' is already defined ({self.groups[group]})")
            return None
        if not builtin and group in RESERVED_GROUP_NAMES:
            self.errors.add(
                group_loc,
                f"group '{group}': the name is reserved for tband's own groups and switches "
                f"(tband_config{group.upper()}_TRACE_ENABLE); choose another",
            )
            return None
        self.groups[group] = group_loc
        default_range = (0, 255) if builtin else USER_ID_RANGE
        if "id_range" not in top:
            return group, default_range
        first, last = top["id_range"]
        range_loc = top.value_loc["id_range"]
        if not 0 <= first <= last <= 255:
            self.errors.add(
                range_loc, f"group '{group}': id_range [{first}, {last}] must satisfy 0 <= first <= last <= 255"
            )
            return None
        if not builtin and not (USER_ID_RANGE[0] <= first and last <= USER_ID_RANGE[1]):
            self.errors.add(
                range_loc,
                f"group '{group}': id_range [0x{first:02X}, 0x{last:02X}] must lie inside the range for user "
                f"events (0x{USER_ID_RANGE[0]:02X}..0x{USER_ID_RANGE[1]:02X}); lower ids belong to tband's own groups",
            )
            return None
        for other_first, other_last, other_group, other_loc in self.ranges:
            if first <= other_last and other_first <= last:
                self.errors.add(
                    range_loc, f"group '{group}': id_range overlaps the range of group '{other_group}' ({other_loc})"
                )
        self.ranges.append((first, last, group, range_loc))
        if builtin:
            self.builtin_ranges.append((first, last, group, range_loc))
        return group, (first, last)

    def build_group(
        self, raw: _RawFile, source: str, builtin: bool, group: str, id_range: tuple[int, int]
    ) -> Group:
        """Builds a group's events; every file's enums must already be built."""
        events = []
        for event_node, field_nodes, display_node in raw.events:
            event = self.build_event(event_node, field_nodes, display_node, group, id_range, builtin)
            if event is not None:
                events.append(event)
        top = raw.top
        return Group(
            group,
            top["title"].strip(),
            top["description"].strip(),
            id_range,
            source,
            builtin,
            tuple(e for e in self.enums.values() if e.group == group),
            tuple(sorted(events, key=lambda e: e.id)),
        )


@dataclass(frozen=True)
class SchemaSource:
    """One schema file to read."""

    path: Path
    display: str  # how errors name it
    builtin: bool  # one of tband's own groups
    label: str  # how generated files name it: schema/<name> for built-in files, <name> for a user's


def schema_files(schema_dir: Path) -> list[Path]:
    return sorted(p for p in schema_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def schema_hash(sources: list[SchemaSource]) -> str:
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.label.encode() + b"\0" + source.path.read_bytes() + b"\0")
    return digest.hexdigest()


def load_sources(sources: list[SchemaSource]) -> Schema:
    """Loads and validates the files, built-in ones first. Raises SchemaErrors."""
    errors = ErrorCollector()
    raws: list[tuple[_RawFile, SchemaSource]] = []
    for source in sources:
        bad = _unprintable(source.label)
        if bad is not None:  # the name goes into generated comments and docs
            errors.add(Location(source.display, 1, 1), f"the file's name must be printable text, not hold {bad}")
            continue
        try:
            data = load_yaml(source.path, source.display)
        except SchemaError as exc:
            errors.errors.append(exc)
            continue
        raw = _check_file_structure(source.display, data, errors)
        if raw is not None:
            raws.append((raw, source))
    errors.raise_if_any()

    builder = _Builder(errors)
    headers = [(raw, source, builder.build_group_header(raw, source.builtin)) for raw, source in raws]
    headers = [(raw, source, header) for raw, source, header in headers if header is not None]
    # Enums of every file first, so that any file may use an enum another one defines.
    for raw, _, (group, _) in headers:
        for enum_node in raw.enums:
            builder.build_enum(enum_node, group)
    groups = tuple(builder.build_group(raw, source.label, source.builtin, *header) for raw, source, header in headers)
    builder.display.check_spans()
    errors.raise_if_any()
    return Schema(groups, tuple(s.label for s in sources), schema_hash(sources), wire_hash(groups))


def schema_dir_sources(schema_dir: Path, display_dir: str | None = None) -> list[SchemaSource]:
    """The files of a complete schema: every *.yaml file in schema_dir, with
    no built-in groups added. Raises SchemaErrors."""
    display_dir = str(schema_dir) if display_dir is None else display_dir
    if not schema_dir.is_dir():
        raise SchemaErrors([SchemaError(Location(display_dir, 1, 1), "schema directory does not exist")])
    files = schema_files(schema_dir)
    if not files:
        raise SchemaErrors([SchemaError(Location(display_dir, 1, 1), "no *.yaml schema files found")])
    return [SchemaSource(p, f"{display_dir}/{p.name}", True, f"schema/{p.name}") for p in files]


def load_schema(schema_dir: Path, display_dir: str | None = None) -> Schema:
    """A complete schema (tband's own schema/, and test schemas). Raises SchemaErrors."""
    return load_sources(schema_dir_sources(schema_dir, display_dir))


def compose_schema(user_paths: list[tuple[Path, str]], builtin_dir: Path | None = None) -> Schema:
    """tband's built-in groups plus the user's schema files. user_paths: (path,
    display) of *.yaml files or of folders holding them. Raises SchemaErrors."""
    return load_sources(composed_sources(user_paths, builtin_dir))


def composed_sources(user_paths: list[tuple[Path, str]], builtin_dir: Path | None = None) -> list[SchemaSource]:
    """The files compose_schema() reads, built-in ones first. Raises SchemaErrors."""
    builtin_dir = builtin_schema_dir() if builtin_dir is None else builtin_dir
    sources = [
        SchemaSource(p, _display_path(p), True, f"schema/{p.name}") for p in schema_files(builtin_dir)
    ]
    problems = []
    for path, display in user_paths:
        if path.is_dir():
            files = schema_files(path)
            if not files:
                problems.append(SchemaError(Location(display, 1, 1), "no *.yaml schema files in this folder"))
            sources += [SchemaSource(p, f"{display.rstrip('/')}/{p.name}", False, p.name) for p in files]
        elif path.is_file():
            sources.append(SchemaSource(path, display, False, path.name))
        else:
            problems.append(SchemaError(Location(display, 1, 1), "no such schema file or folder"))
    if problems:
        raise SchemaErrors(problems)
    seen: dict[Path, str] = {}
    for source in sources:
        resolved = source.path.resolve()
        if resolved in seen:
            raise SchemaErrors([SchemaError(Location(source.display, 1, 1), f"given twice (also as {seen[resolved]})")])
        seen[resolved] = source.display
    return sources


def builtin_schema_dir() -> Path:
    """Where tband's own groups (base.yaml, freertos.yaml) are: next to the
    installed package, or in a checkout's schema/ folder."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "schema", here.parent / "schema"):
        if (candidate / "base.yaml").is_file():
            return candidate
    raise SchemaErrors([SchemaError(Location(str(here), 1, 1), "tband's built-in schema (base.yaml) is missing")])


def _display_path(path: Path) -> str:
    """A path relative to the working folder when it lies below it, else absolute."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path.resolve())
