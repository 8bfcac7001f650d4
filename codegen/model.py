"""The immutable event model that every template renders from.

Everything a template needs is computed here (ids, C++ names, sizes, the field
list with the implicit timestamp, encoder overloads), so templates only format.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import Location
from .naming import pascal_case

# Wire encodings of the scalar field types: the longest encoding in bytes, the
# C++ value type, and the suffix of the encoder/decoder helper that handles it.
SCALAR_TYPES = {
    "u8": (1, "std::uint8_t"),
    "u32": (5, "std::uint32_t"),
    "u64": (10, "std::uint64_t"),
    "s64": (10, "std::int64_t"),
}
STR_TYPE = "str"
BUILTIN_TYPES = (*SCALAR_TYPES, STR_TYPE)

# tband_configMAX_STR_LEN's default; the docs quote framed sizes for it.
DEFAULT_MAX_STR_LEN = 20


def cobs_max_framed_len(n: int) -> int:
    """Longest COBS frame of an n-byte event, trailing 0x00 included."""
    return 2 if n == 0 else n + 1 + (n + 253) // 254


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
    """A field's type: one of the built-in wire types or an enum (a u8)."""

    name: str
    enum: EnumType | None = None

    @property
    def wire(self) -> str:
        """u8, u32, u64, s64 or str: how the value is laid out on the wire."""
        return "u8" if self.enum else self.name

    @property
    def is_str(self) -> bool:
        return self.name == STR_TYPE

    @property
    def max_len(self) -> int | None:
        """Longest encoding in bytes; None for str, whose length is bounded by config."""
        return None if self.is_str else SCALAR_TYPES[self.wire][0]

    @property
    def cpp_value_type(self) -> str:
        """Type of the value in C++ (target parameters and host struct members)."""
        if self.enum:
            return self.enum.cpp_name
        if self.is_str:
            return "std::string_view"
        return SCALAR_TYPES[self.name][1]

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

    @property
    def note(self) -> str:
        """One word for docs: implicit, required, optional or varlen."""
        if self.implicit:
            return "implicit"
        if self.type.is_str:
            return "varlen"
        return "optional" if self.optional else "required"


@dataclass(frozen=True)
class Event:
    name: str
    id: int
    group: str
    metadata: bool
    description: str
    fields: tuple[Field, ...]  # wire order, implicit timestamp included
    location: Location

    @property
    def cpp_name(self) -> str:
        return pascal_case(self.name)

    @property
    def id_hex(self) -> str:
        return f"0x{self.id:02X}"

    @property
    def str_field(self) -> Field | None:
        return next((f for f in self.fields if f.type.is_str), None)

    @property
    def required_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if not f.optional)

    @property
    def optional_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.optional)

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


@dataclass(frozen=True)
class Layout:
    """A list of wire types (timestamp included) that several encoder overloads
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
        return 1 + sum(SCALAR_TYPES[w][0] for w in self.wires if w != STR_TYPE)

    @property
    def params(self) -> tuple[tuple[str, str], ...]:
        """(C++ type, name) of each field parameter: f0, f1, ...; a str field is data and length."""
        out: list[tuple[str, str]] = []
        for i, wire in enumerate(self.wires):
            if wire == STR_TYPE:
                out += [("const char*", f"f{i}"), ("std::size_t", f"f{i}_len")]
            else:
                out.append((SCALAR_TYPES[wire][1], f"f{i}"))
        return tuple(out)


def layout_of(fields: tuple[Field, ...]) -> tuple[str, ...]:
    return tuple(f.type.wire for f in fields)


@dataclass(frozen=True)
class Group:
    name: str
    title: str
    description: str
    id_range: tuple[int, int]
    source: str  # schema file the group comes from
    enums: tuple[EnumType, ...]
    events: tuple[Event, ...]  # sorted by id

    @property
    def cpp_name(self) -> str:
        return pascal_case(self.name)


@dataclass(frozen=True)
class Schema:
    groups: tuple[Group, ...]
    sources: tuple[str, ...]  # schema file names, sorted
    hash: str  # sha256 over the schema files' names and bytes

    @cached_property
    def events(self) -> tuple[Event, ...]:
        return tuple(sorted((e for g in self.groups for e in g.events), key=lambda e: e.id))

    @cached_property
    def enums(self) -> tuple[EnumType, ...]:
        return tuple(e for g in self.groups for e in g.enums)

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
    def max_fixed_len(self) -> int:
        return max(e.max_fixed_len for e in self.events)
