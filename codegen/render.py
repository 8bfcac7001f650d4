"""Renders the model through the templates. Returns files; never writes them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import __version__
from .model import DEFAULT_MAX_STR_LEN, Schema

TEMPLATE_DIR = Path(__file__).parent / "templates"

# Output path (relative to the output directory) -> template. One template
# folder per kind of output.
OUTPUTS = {
    "target/tband_encode.hpp": "cpp_target/tband_encode.hpp.j2",
    "host/tband_events.hpp": "cpp_host/tband_events.hpp.j2",
    "host/tband_events.cpp": "cpp_host/tband_events.cpp.j2",
    "docs/events.md": "markdown/events.md.j2",
    "tests/roundtrip_test.cpp": "tests/roundtrip_test.cpp.j2",
    "tests/encoder_compile_check.cpp": "tests/encoder_compile_check.cpp.j2",
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
    return env


def render(schema: Schema) -> list[GeneratedFile]:
    env = make_environment()
    context = {
        "schema": schema,
        "generator": f"tband-codegen {__version__}",
        "sources": ", ".join(f"schema/{name}" for name in schema.sources),
        "default_max_str_len": DEFAULT_MAX_STR_LEN,
    }
    files = []
    for path, template in OUTPUTS.items():
        text = env.get_template(template).render(context)
        files.append(GeneratedFile(path, text.rstrip("\n") + "\n"))
    return files
