"""tband-codegen: turns the tband YAML event schema into C++ and Markdown.

Pipeline: load (YAML with source locations) -> validate -> immutable model ->
thin Jinja2 templates. The generator returns (path, text) pairs; only the CLI
touches the disk.
"""

__version__ = "0.1.0"
