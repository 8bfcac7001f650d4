"""Renders the model through the templates. Returns files; never writes them."""

from __future__ import annotations

import re
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


# Schema texts (titles, descriptions) reach C and C++ comments and string
# literals and Markdown. Validation has already refused line breaks and other
# control or invisible characters; what is left is made safe per output here.

def _break_trigraphs(text: str) -> str:
    """'??' written as '?\\?': no '??/' (a backslash in C before C++17 and in
    C89/C99 modes) or other trigraph can form. In a string literal '\\?' is '?'."""
    return re.sub(r"\?(?=\?)", r"?\\", text)


def _cpp_string(text: str) -> str:
    """A C or C++ string literal's body: escapes backslashes, quotes and trigraphs."""
    return _break_trigraphs(text.replace("\\", "\\\\").replace('"', '\\"'))


def _c_comment(text: str) -> str:
    """Text that stays inside a // or /* */ comment: '*/' cannot end it and
    '/*' cannot open one; no trigraph or final backslash (which continues a //
    comment onto the next generated line) is left."""
    text = _break_trigraphs(text.replace("*/", "* /").replace("/*", "/ *"))
    return text + "." if text.endswith("\\") else text


_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


def _md_inline(text: str, cell: bool = False) -> str:
    """Markdown text that shows as written: outside code spans (kept, as a
    description may use them) backslashes, '&', '<' (raw HTML, an HTML
    comment) and link brackets are escaped; in a table cell every '|' is
    escaped, with the backslashes right before one in a code span doubled
    (else '\\|' would end the cell)."""
    parts = []
    end = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(text[end : span.start()])
        parts.append(span.group(0))
        end = span.end()
    parts.append(text[end:])
    for i, part in enumerate(parts):
        if i % 2 == 0:
            part = part.replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;")
            part = part.replace("[", "\\[").replace("]", "\\]")
            parts[i] = part.replace("|", "\\|") if cell else part
        elif cell:
            parts[i] = re.sub(r"(\\*)\|", lambda m: m.group(1) * 2 + "\\|", part)
    return "".join(parts)


def _md_code(text: str) -> str:
    """A code span showing text as it is, fenced with more backticks than any run it holds."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_cell(text: str) -> str:
    """Text that cannot break a Markdown table row."""
    return _md_inline(text, cell=True)


_MD_BLOCK_START = re.compile(r"[-#>+*=~|_]|```|\d+(?=[.)])")  # one backtick opens a code span: kept


def _md_line(text: str) -> str:
    """A paragraph that starts a line: a leading '#', '-', '>', '1.', ... would
    make it a heading, list, quote or fence, so that character is escaped."""
    text = _md_inline(text)
    start = _MD_BLOCK_START.match(text)
    if start is None:
        return text
    if start.group(0)[0].isdigit():  # "1. x": escape the '.' or ')'
        return text[: start.end()] + "\\" + text[start.end() :]
    return "\\" + text


def _md_heading(text: str) -> str:
    """A heading's text: a final '#' would be read as the closing sequence."""
    text = _md_inline(text)
    return text[:-1] + "\\#" if text.endswith("#") else text


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
    env.filters["c_comment"] = _c_comment
    env.filters["md_cell"] = _md_cell
    env.filters["md_line"] = _md_line
    env.filters["md_heading"] = _md_heading
    env.filters["md_code"] = _md_code
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
