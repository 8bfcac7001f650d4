"""The immutable event model that every template renders from.

Everything a template needs is computed here (ids, C++ names, sizes, the field
list with the implicit timestamp, encoder overloads), so templates only format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .display import Display
from .errors import Location
from .naming import pascal_case


@dataclass(frozen=True)
class ScalarType:
    """A built-in scalar field type and how it goes on the wire."""

    name: str
    max_len: int  # longest encoding in bytes
    cpp_type: str  # C++ value type (target parameters, host struct members)
    c_type: str  # C type of a generated hook's parameter
    encoding: str  # byte (one byte as is), uvar (unsigned varlen), svar (sign-magnitude varlen)
    # The compact encoder's width for the value it is given (enc::FieldWidth):
    # kU8 writes one byte, kU32 and kU64 a varlen of at most 5 and 10 bytes.
    compact_width: str
    doc: str  # one line for the docs: what the bytes are


# Every multi-byte type is a varlen, so that the firmware's compact encoder
# knows only three field widths. Floats are their IEEE-754 bits as a varlen:
# one byte more than raw for most values, but no fourth encoding on the chip.
SCALAR_TYPES = {
    t.name: t
    for t in (
        ScalarType("u8", 1, "std::uint8_t", "uint8_t", "byte", "kU8", "one byte as is"),
        ScalarType("u16", 3, "std::uint16_t", "uint16_t", "uvar", "kU32", "unsigned varlen, at most 3 bytes"),
        ScalarType("u32", 5, "std::uint32_t", "uint32_t", "uvar", "kU32", "unsigned varlen, at most 5 bytes"),
        ScalarType("u64", 10, "std::uint64_t", "uint64_t", "uvar", "kU64", "unsigned varlen, at most 10 bytes"),
        ScalarType("s8", 1, "std::int8_t", "int8_t", "byte", "kU8", "one byte, two's complement"),
        ScalarType("s16", 3, "std::int16_t", "int16_t", "svar", "kU32", "sign-magnitude varlen, at most 3 bytes"),
        ScalarType("s32", 5, "std::int32_t", "int32_t", "svar", "kU32", "sign-magnitude varlen, at most 5 bytes"),
        ScalarType("s64", 10, "std::int64_t", "int64_t", "svar", "kU64",
                   "sign-magnitude varlen, at most 10 bytes; INT64_MIN is negative zero (0x01)"),
        ScalarType("bool", 1, "bool", "bool", "byte", "kU8", "one byte, 0 or 1"),
        ScalarType("f32", 5, "float", "float", "uvar", "kU32",
                   "the IEEE-754 binary32 bits as an unsigned varlen, at most 5 bytes"),
        ScalarType("f64", 10, "double", "double", "uvar", "kU64",
                   "the IEEE-754 binary64 bits as an unsigned varlen, at most 10 bytes"),
    )
}
STR_TYPE = "str"
BUILTIN_TYPES = (*SCALAR_TYPES, STR_TYPE)
INTEGER_RANGES = {
    "u8": (0, 0xFF),
    "u16": (0, 0xFFFF),
    "u32": (0, 0xFFFFFFFF),
    "u64": (0, 0xFFFFFFFFFFFFFFFF),
    "s8": (-0x80, 0x7F),
    "s16": (-0x8000, 0x7FFF),
    "s32": (-0x80000000, 0x7FFFFFFF),
    "s64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF),
}
FLOAT_TYPES = ("f32", "f64")

# tband_configMAX_STR_LEN's default; the docs quote framed sizes for it.
DEFAULT_MAX_STR_LEN = 20


def cobs_max_framed_len(n: int) -> int:
    """Longest COBS frame of an n-byte event, trailing 0x00 included."""
    return 2 if n == 0 else n + 1 + (n + 253) // 254


def cobs_frame(raw: bytes) -> bytes:
    """raw framed as the target encoder frames it: COBS blocks of at most 254
    data bytes (a full block has code 0xFF and no zero after it; a frame that
    ends with one gets no further code byte), then the 0x00 delimiter."""
    out = bytearray()
    block = bytearray()
    ends_full_block = False
    for byte in raw:
        if byte == 0:
            out += bytes([len(block) + 1]) + block
            block.clear()
            ends_full_block = False
            continue
        block.append(byte)
        ends_full_block = len(block) == 254
        if ends_full_block:
            out += b"\xff" + block
            block.clear()
    if not ends_full_block:
        out += bytes([len(block) + 1]) + block
    return bytes(out + b"\x00")


def varlen(value: int) -> bytes:
    """An unsigned varlen: 7 bits a byte, least significant first, high bit = more follows."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


@dataclass(frozen=True)
class EnumValue:
    name: str
    value: int
    description: str
    location: Location


@dataclass(frozen=True)
class EnumType:
    """A u8 enumeration; on the wire it is one byte."""

    name: str
    description: str
    group: str
    values: tuple[EnumValue, ...]
    location: Location

    @property
    def cpp_name(self) -> str:
        return self.name


@dataclass(frozen=True)
class FieldType:
    """A field's type: a built-in scalar, str, or an enum (a u8 on the wire)."""

    name: str
    enum: EnumType | None = None

    @property
    def wire(self) -> str:
        """The scalar type that lays the value out (u8 for enums), or str."""
        return "u8" if self.enum else self.name

    @property
    def is_str(self) -> bool:
        return self.name == STR_TYPE

    @property
    def scalar(self) -> ScalarType | None:
        return None if self.is_str else SCALAR_TYPES[self.wire]

    @property
    def is_float(self) -> bool:
        return self.name in FLOAT_TYPES

    @property
    def max_len(self) -> int | None:
        """Longest encoding in bytes; None for str, whose length is bounded by config."""
        return None if self.is_str else SCALAR_TYPES[self.wire].max_len

    @property
    def cpp_value_type(self) -> str:
        """Type of the value in C++ (target parameters and host struct members)."""
        if self.enum:
            return self.enum.cpp_name
        if self.is_str:
            return "std::string_view"
        return SCALAR_TYPES[self.name].cpp_type

    @property
    def c_param_type(self) -> str:
        """Type of the value as a generated C hook's parameter."""
        if self.enum:
            return f"tband_{self.enum.name}"
        if self.is_str:
            return "const char*"
        return SCALAR_TYPES[self.name].c_type

    @property
    def reflect_kind(self) -> str:
        """The host's FieldType enumerator: kU8, kU16, ..., kStr, kEnum."""
        if self.enum:
            return "kEnum"
        return "k" + self.name.capitalize()

    @property
    def fits_hook_value(self) -> bool:
        """Whether the compact encoder's integer for this type fits 32 bits, the
        built-in hook body's first field (an s32's sign-magnitude form needs 33)."""
        return not self.is_str and (self.enum is not None or self.name not in ("u64", "s32", "s64", "f64"))

    @property
    def doc_name(self) -> str:
        return f"u8 enum {self.enum.name}" if self.enum else self.name


TIMESTAMP_TYPE = FieldType("u64")


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    description: str
    optional: bool
    implicit: bool  # added by the generator (the timestamp), not written in the schema
    location: Location
    # For an optional field: what a decoder reports when the frame leaves the
    # field out (int, float, bool, or an enum value's name); None: "absent".
    default: int | float | bool | str | None = None
    # The run-time filter's object key (schema attribute filter_key): the
    # event's objects can be filtered one by one on this field's value.
    filter_key: bool = False
    filter_key_loc: Location | None = field(default=None, compare=False)

    @property
    def note(self) -> str:
        """One word for docs: implicit, required, optional or varlen."""
        if self.implicit:
            return "implicit"
        if self.type.is_str:
            return "varlen"
        if self.optional:
            return "optional" if self.default is None else f"optional, default {self.default_text}"
        return "required"

    def compact_expr(self, ns: str) -> str:
        """The C++ expression for the compact encoder's integer of this field
        (detail helpers qualified with ns, e.g. "enc::")."""
        if self.type.enum:
            return f"static_cast<std::uint8_t>({self.name})"
        return compact_value(self.type.wire, self.name).replace("detail::", f"{ns}detail::")

    @property
    def default_text(self) -> str:
        """The default as the schema would write it."""
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        return str(self.default)

    @property
    def cpp_default(self) -> str:
        """The default as a C++ expression of the field's value type."""
        assert self.default is not None
        if self.type.enum:
            return f"{self.type.enum.cpp_name}::{self.default}"
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if self.type.is_float:
            text = repr(float(self.default))
            if text in ("inf", "-inf", "nan"):
                limit = f"std::numeric_limits<{self.type.cpp_value_type}>"
                return {"inf": f"{limit}::infinity()", "-inf": f"-{limit}::infinity()"}.get(
                    text, f"{limit}::quiet_NaN()"
                )
            return text + ("f" if self.type.name == "f32" else "")
        if self.type.name == "s64" and self.default == INTEGER_RANGES["s64"][0]:
            return "INT64_MIN"
        suffix = "ull" if self.type.name == "u64" else ("ll" if self.type.name == "s64" else "")
        return f"{self.default}{suffix}"


@dataclass(frozen=True)
class SharedHookCall:
    """The arguments of a generated hook's trace_hook() call (C++ expressions)."""

    kind: str
    value: str
    payload: str


@dataclass(frozen=True)
class Event:
    name: str
    id: int
    group: str
    metadata: bool
    description: str
    fields: tuple[Field, ...]  # wire order, implicit timestamp included
    location: Location
    display: Display | None = None  # how the host shows it when it decodes it at run time
    # Its C++ type's name when PascalCase of its name is an enum's (see cpp_name).
    cpp_type: str | None = None

    @property
    def cpp_name(self) -> str:
        """PascalCase of its name (motor_fault: MotorFault), or with the suffix
        Event when an enum of the schema has that name (MotorFaultEvent)."""
        return self.cpp_type if self.cpp_type is not None else pascal_case(self.name)

    @property
    def id_hex(self) -> str:
        return f"0x{self.id:02X}"

    @property
    def hook_name(self) -> str:
        """The generated C hook of a user event."""
        return f"tband_{self.name}"

    @property
    def shared_hook_call(self) -> SharedHookCall | None:
        """Built for size, the trace_hook() call that sends this user event
        through the built-in hooks' body, when its fields fit that body's
        shapes; None when they do not (the hook then uses trace_user_event())."""
        ints = [f for f in self.explicit_fields if not f.type.is_str]
        text = self.str_field
        value = payload = None
        if len(ints) == 2 and text is None and ints[0].type.fits_hook_value:
            value, payload = ints
        elif len(ints) == 1 and ints[0].type.fits_hook_value:
            value = ints[0]
        elif len(ints) == 1 and text is None and self.metadata:
            payload = ints[0]  # the one field of a metadata event may be 64 bits wide
        elif ints:
            return None
        flags = []
        if self.metadata:
            flags.append("hook::kFromValue" if payload is None or value is not None else "hook::kFromPayload")
        if text is not None:
            flags.append("hook::kString")
        return SharedHookCall(
            kind=" | ".join([f"enc::{self.cpp_name}::kSpec", *flags]),
            value=f"static_cast<std::uint32_t>({value.compact_expr('enc::')})" if value else "0",
            payload=(
                f"hook::as_payload({text.name})"
                if text is not None
                else f"static_cast<std::uint64_t>({payload.compact_expr('enc::')})" if payload else "0"
            ),
        )

    @property
    def filter_key(self) -> str | None:
        """The name of the field the run-time filter keys this event's objects on, if any."""
        return next((f.name for f in self.fields if f.filter_key), None)

    @property
    def str_field(self) -> Field | None:
        return next((f for f in self.fields if f.type.is_str), None)

    @property
    def explicit_fields(self) -> tuple[Field, ...]:
        """The fields a caller gives: all but the implicit timestamp."""
        return tuple(f for f in self.fields if not f.implicit)

    @property
    def required_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if not f.optional)

    @property
    def optional_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.optional)

    @property
    def has_float(self) -> bool:
        return any(f.type.is_float for f in self.fields)

    @property
    def max_fixed_len(self) -> int:
        """Longest unframed encoding without the string: id byte plus every non-str field."""
        return 1 + sum(f.type.max_len for f in self.fields if not f.type.is_str)

    @property
    def max_framed_len_default(self) -> int:
        """Longest framed length with strings at DEFAULT_MAX_STR_LEN."""
        raw = self.max_fixed_len + (DEFAULT_MAX_STR_LEN if self.str_field else 0)
        return cobs_max_framed_len(raw)

    def layout_name(self, fields: tuple[Field, ...]) -> str:
        return "_".join(layout_of(fields))

    @property
    def encode_overloads(self) -> tuple[tuple[Field, ...], ...]:
        """Field lists of the encoder overloads: required fields, then each prefix of the optional ones."""
        required = self.required_fields
        optional = self.optional_fields
        return tuple(required + optional[:n] for n in range(len(optional) + 1))

    @property
    def compact_widths(self) -> tuple[str, ...]:
        """The compact encoder's width of every integer field (all but str), wire order."""
        return tuple(f.type.scalar.compact_width for f in self.fields if not f.type.is_str)


@dataclass(frozen=True)
class Layout:
    """A list of field types (timestamp included) that several encoder overloads
    share; the target encoder writes each layout once, with the event id as a
    parameter, so that firmware built for size can share one body."""

    wires: tuple[str, ...]
    users: tuple[str, ...]  # events with an overload of this layout

    @property
    def name(self) -> str:
        return "_".join(self.wires)

    @property
    def has_str(self) -> bool:
        return STR_TYPE in self.wires

    @property
    def max_fixed_len(self) -> int:
        """Longest unframed encoding without the string: id byte plus every non-str field."""
        return 1 + sum(SCALAR_TYPES[w].max_len for w in self.wires if w != STR_TYPE)

    @property
    def params(self) -> tuple[tuple[str, str], ...]:
        """(C++ type, name) of each field parameter: f0, f1, ...; a str field is data and length."""
        out: list[tuple[str, str]] = []
        for i, wire in enumerate(self.wires):
            if wire == STR_TYPE:
                out += [("const char*", f"f{i}"), ("std::size_t", f"f{i}_len")]
            else:
                out.append((SCALAR_TYPES[wire].cpp_type, f"f{i}"))
        return tuple(out)

    @property
    def compact_fields(self) -> tuple[tuple[str, str], ...]:
        """(width, value expression) of each integer field for the compact encoder."""
        out = []
        for i, wire in enumerate(self.wires):
            if wire != STR_TYPE:
                out.append((SCALAR_TYPES[wire].compact_width, compact_value(wire, f"f{i}")))
        return tuple(out)


def compact_value(wire: str, name: str) -> str:
    """The C++ expression that turns a field's value into the compact encoder's integer."""
    scalar = SCALAR_TYPES[wire]
    if scalar.encoding == "svar":
        return f"detail::sign_magnitude({name})"
    if wire == "s8":
        return f"static_cast<std::uint8_t>({name})"
    if wire == "f32":
        return f"detail::float_bits({name})"
    if wire == "f64":
        return f"detail::double_bits({name})"
    return name


def layout_of(fields: tuple[Field, ...]) -> tuple[str, ...]:
    return tuple(f.type.wire for f in fields)


# Ids 0xC0-0xFF belong to user groups; 0x00-0xBF to the built-in ones.
USER_ID_RANGE = (0xC0, 0xFF)


@dataclass(frozen=True)
class Group:
    name: str
    title: str
    description: str
    id_range: tuple[int, int]
    source: str  # schema file the group comes from (its name)
    builtin: bool  # one of tband's own groups (base, freertos), not a user's
    enums: tuple[EnumType, ...]
    events: tuple[Event, ...]  # sorted by id

    @property
    def cpp_name(self) -> str:
        return pascal_case(self.name)

    @property
    def switch_macro(self) -> str:
        """The tband_config switch that compiles a user group's hooks in (1) or out (0)."""
        return f"tband_config{self.name.upper()}_TRACE_ENABLE"

    @property
    def max_fixed_len(self) -> int:
        return max((e.max_fixed_len for e in self.events), default=1)

    @property
    def has_str(self) -> bool:
        return any(e.str_field for e in self.events)


@dataclass(frozen=True)
class Schema:
    groups: tuple[Group, ...]
    sources: tuple[str, ...]  # schema file names in the order read (built-in ones first)
    hash: str  # sha256 over the schema files' names and bytes
    wire_hash: str  # sha256 over what decoding depends on (see descriptor.wire_identity)

    @cached_property
    def events(self) -> tuple[Event, ...]:
        return tuple(sorted((e for g in self.groups for e in g.events), key=lambda e: e.id))

    @cached_property
    def enums(self) -> tuple[EnumType, ...]:
        return tuple(e for g in self.groups for e in g.enums)

    @cached_property
    def builtin_groups(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.builtin)

    @cached_property
    def user_groups(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if not g.builtin)

    @cached_property
    def user_enums(self) -> tuple[EnumType, ...]:
        return tuple(e for g in self.user_groups for e in g.enums)

    @cached_property
    def layouts(self) -> tuple[Layout, ...]:
        """Every field layout of an encoder overload, in order of first use."""
        users: dict[tuple[str, ...], list[str]] = {}
        for event in self.events:
            for fields in event.encode_overloads:
                names = users.setdefault(layout_of(fields), [])
                if event.name not in names:
                    names.append(event.name)
        return tuple(Layout(wires, tuple(names)) for wires, names in users.items())

    @property
    def short_hash(self) -> str:
        return self.hash[:16]

    @property
    def trace_id(self) -> int:
        """What the schema_id event carries: the wire hash's first 64 bits."""
        return int(self.wire_hash[:16], 16)

    @property
    def user_group_names(self) -> str:
        """What schema_id carries after the identity: the user groups' names, comma-separated."""
        return ",".join(g.name for g in self.user_groups)

    @property
    def schema_id_frame(self) -> bytes | None:
        """The schema_id frame the target encoder writes for this schema
        (trace_id, user_group_names uncut), trailing 0x00 included; None for
        a schema without schema_id (test schemas without tband's base group)."""
        event = next((e for e in self.events if e.name == "schema_id"), None)
        if event is None:
            return None
        wires = [f.type.wire for f in event.fields]
        if wires != ["u64", STR_TYPE]:
            raise ValueError(f"schema_id's fields are {wires}, the generator frames u64 then str")
        return cobs_frame(bytes([event.id]) + varlen(self.trace_id) + self.user_group_names.encode())

    @property
    def max_fixed_len(self) -> int:
        return max(e.max_fixed_len for e in self.events)

    @property
    def builtin_max_fixed_len(self) -> int:
        return max(g.max_fixed_len for g in self.builtin_groups)

    @cached_property
    def filter_keys(self) -> tuple[str, ...]:
        """The filter keys' names in order of first use by id: key k (1-based) is filter_keys[k - 1]."""
        keys: list[str] = []
        for event in self.events:
            if event.filter_key and event.filter_key not in keys:
                keys.append(event.filter_key)
        return tuple(keys)

    def event_by_id(self, event_id: int) -> Event | None:
        return next((e for e in self.events if e.id == event_id), None)

    @cached_property
    def filter_groups(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The run-time filter's groups: each schema group (its events that are
        not metadata), then each filter key's events ("key:task_id"); with the
        256-bit enable set's words of their ids."""

        def mask(events: list[Event]) -> tuple[int, ...]:
            words = [0] * 8
            for event in events:
                words[event.id >> 5] |= 1 << (event.id & 31)
            return tuple(words)

        groups = [(g.name, mask([e for e in g.events if not e.metadata])) for g in self.groups]
        groups += [(f"key:{k}", mask([e for e in self.events if e.filter_key == k])) for k in self.filter_keys]
        return tuple(groups)

    def filter_key_number(self, event: Event) -> int:
        """The event's filter key as the firmware numbers it (0: none)."""
        return self.filter_keys.index(event.filter_key) + 1 if event.filter_key else 0

    @cached_property
    def hook_enums(self) -> tuple[EnumType, ...]:
        """Enums a generated C hook takes: the user groups' own and the built-in ones their events use."""
        used = {f.type.enum.name for g in self.user_groups for e in g.events for f in e.fields if f.type.enum}
        return tuple(e for e in self.enums if e.name in used or e in self.user_enums)
