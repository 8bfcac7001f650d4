"""Renders the model through the templates. Returns files; never writes them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import __version__
from .descriptor import descriptor_json
from .model import DEFAULT_MAX_STR_LEN, USER_ID_RANGE, Field, Schema

TEMPLATE_DIR = Path(__file__).parent / "templates"

# Output path (relative to the output directory) -> template. One template
# folder per kind of output.
OUTPUTS = {
    "target/tband_encode.hpp": "cpp_target/tband_encode.hpp.j2",
    "target/tband_user_events.h": "c_hooks/tband_user_events.h.j2",
    "target/tband_user_events.cpp": "c_hooks/tband_user_events.cpp.j2",
    "host/tband_events.hpp": "cpp_host/tband_events.hpp.j2",
    "host/tband_events.cpp": "cpp_host/tband_events.cpp.j2",
    "docs/events.md": "markdown/events.md.j2",
    "tests/roundtrip_test.cpp": "tests/roundtrip_test.cpp.j2",
    "tests/encoder_compile_check.cpp": "tests/encoder_compile_check.cpp.j2",
    "descriptor/tband_schema.json": None,  # data, written by descriptor.py
}


@dataclass(frozen=True)
class GeneratedFile:
    path: str  # relative, with forward slashes
    text: str


def _cpp_string(text: str) -> str:
    """A C++ string literal body: escapes backslashes and quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _md_cell(text: str) -> str:
    """Text that cannot break a Markdown table row."""
    return text.replace("|", "\\|")


def _field_default(field: Field) -> str:
    """A host FieldInfo's FieldDefault initializer for the field."""
    value = field.default
    if value is None:
        return "{}"
    if field.type.enum:
        number = next(v.value for v in field.type.enum.values if v.name == value)
        return f"{{true, {number}u, 0, 0}}"
    if isinstance(value, bool):
        return f"{{true, {int(value)}u, 0, 0}}"
    if field.type.is_float:
        text = repr(float(value))
        cpp = {"inf": "std::numeric_limits<double>::infinity()", "-inf": "-std::numeric_limits<double>::infinity()",
               "nan": "std::numeric_limits<double>::quiet_NaN()"}.get(text, text)
        return f"{{true, 0, 0, {cpp}}}"
    if value < 0:
        return "{true, 0, INT64_MIN, 0}" if value == -(2**63) else f"{{true, 0, {value}, 0}}"
    if field.type.name.startswith("s"):
        return f"{{true, 0, {value}, 0}}"
    return f"{{true, {value}u, 0, 0}}"


def make_environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["cpp_string"] = _cpp_string
    env.filters["md_cell"] = _md_cell
    env.filters["field_default"] = _field_default
    return env


def render(schema: Schema) -> list[GeneratedFile]:
    env = make_environment()
    generator = f"tband-codegen {__version__}"
    context = {
        "schema": schema,
        "generator": generator,
        "sources": ", ".join(schema.sources),
        "default_max_str_len": DEFAULT_MAX_STR_LEN,
        "user_id_range": USER_ID_RANGE,
    }
    files = []
    for path, template in OUTPUTS.items():
        if template is None:
            text = descriptor_json(schema, generator)
        else:
            text = env.get_template(template).render(context)
        files.append(GeneratedFile(path, text.rstrip("\n") + "\n"))
    return files
