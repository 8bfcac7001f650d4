"""Loads YAML while keeping the file, line and column of every key and value.

PyYAML's plain loaders throw the marks away; this one builds dict and list
subclasses that remember where each entry came from, and it rejects duplicate
keys, which PyYAML would otherwise resolve silently by keeping the last one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import Location, SchemaError


class LocatedDict(dict):
    """A YAML mapping. `loc` is where it starts; `key_loc`/`value_loc` per key."""

    loc: Location
    key_loc: dict[Any, Location]
    value_loc: dict[Any, Location]


class LocatedList(list):
    """A YAML sequence. `loc` is where it starts; `item_loc` per item."""

    loc: Location
    item_loc: list[Location]


# A schema is six levels deep (file, events, event, fields, field, value);
# PyYAML composes nodes recursively, so thousands of levels end in a
# RecursionError instead of a message.
MAX_DEPTH = 32

# No id or number in a schema needs more digits than a u64 in binary has;
# beyond Python's int-string limit (4300 digits) parsing or printing one fails.
MAX_INTEGER_CHARS = 100


# More keys than any schema mapping has, merged ones counted with repeats.
MAX_MERGED_ENTRIES = 1000


def _location(path: str, mark: yaml.Mark) -> Location:
    return Location(path, mark.line + 1, mark.column + 1)


def _make_loader_class(path: str) -> type:
    class _Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise SchemaError(
                        _location(path, self.peek_event().start_mark),
                        f"YAML nested more than {MAX_DEPTH} levels deep (a schema needs 6)",
                    )
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

        def construct_object(self, node, deep=False):  # type: ignore[no-untyped-def]
            # A scalar PyYAML cannot turn into a value (a date such as
            # 2024-13-01) raises ValueError, not a YAMLError: give its place.
            try:
                return super().construct_object(node, deep=deep)
            except (ValueError, OverflowError) as exc:
                raise SchemaError(_location(path, node.start_mark), f"cannot read this value: {exc}") from exc

    def construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
        text = loader.construct_scalar(node)
        if len(text) > MAX_INTEGER_CHARS:
            raise SchemaError(
                _location(path, node.start_mark),
                f"integer of {len(text)} characters is too long (at most {MAX_INTEGER_CHARS})",
            )
        return yaml.SafeLoader.construct_yaml_int(loader, node)

    def entries(node: yaml.MappingNode, depth: int = 0) -> tuple[list, list]:
        """(merged, explicit) key/value node pairs of a mapping. Merged pairs
        come from its merge keys (`<<: *base`, `<<: [*a, *b]`), lowest priority
        first: an earlier mapping of a merge list wins over a later one, and
        explicit keys win over all merged ones. Nodes are left as they are
        (PyYAML's flatten_mapping rewrites them, losing which keys were merged)."""
        merged: list = []
        explicit: list = []
        for key_node, value_node in node.value:
            if key_node.tag != "tag:yaml.org,2002:merge":
                explicit.append((key_node, value_node))
                continue
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in reversed(sources):
                if not isinstance(source, yaml.MappingNode):  # an alias's node has its anchor's marks: blame the '<<'
                    raise SchemaError(
                        _location(path, key_node.start_mark), "a merge key '<<' takes a mapping or a list of mappings"
                    )
                if depth >= MAX_DEPTH or source is node:
                    raise SchemaError(
                        _location(path, key_node.start_mark),
                        f"merge keys nested more than {MAX_DEPTH} levels deep or merging a mapping into itself",
                    )
                source_merged, source_explicit = entries(source, depth + 1)
                merged += source_merged + source_explicit
                if len(merged) > MAX_MERGED_ENTRIES:  # merge lists of merge lists grow exponentially
                    raise SchemaError(
                        _location(path, key_node.start_mark),
                        f"merge keys give more than {MAX_MERGED_ENTRIES} entries to one mapping",
                    )
        return merged, explicit

    def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> LocatedDict:
        result = LocatedDict()
        result.loc = _location(path, node.start_mark)
        result.key_loc = {}
        result.value_loc = {}
        merged, explicit = entries(node)
        explicit_keys: set = set()
        for index, (key_node, value_node) in enumerate(merged + explicit):
            key = loader.construct_object(key_node, deep=True)
            key_location = _location(path, key_node.start_mark)
            if not isinstance(key, (str, int, bool, float)) or key is None:
                raise SchemaError(key_location, "mapping keys must be plain scalars")
            if index >= len(merged):
                if key in explicit_keys:
                    first = result.key_loc[key]
                    raise SchemaError(key_location, f"duplicate key '{key}' (first given at line {first.line})")
                explicit_keys.add(key)
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_loc[key] = key_location
            result.value_loc[key] = _location(path, value_node.start_mark)
        return result

    def construct_sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> LocatedList:
        result = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
        result.loc = _location(path, node.start_mark)
        result.item_loc = [_location(path, child.start_mark) for child in node.value]
        return result

    _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    _Loader.add_constructor("tag:yaml.org,2002:int", construct_int)
    return _Loader


def load_yaml(path: Path, display_path: str) -> Any:
    """Parses one YAML file. Syntax errors become SchemaError with a location."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(Location(display_path, 1, 1), f"cannot read file: {exc}") from exc
    try:
        return yaml.load(text, Loader=_make_loader_class(display_path))  # noqa: S506 (SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        location = _location(display_path, mark) if mark else Location(display_path, 1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.problem and exc.context and exc.context_mark and exc.context_mark.line != mark.line:
            problem += f" ({exc.context} started at line {exc.context_mark.line + 1})"
        raise SchemaError(location, f"YAML syntax: {problem}") from exc
    except yaml.YAMLError as exc:
        raise SchemaError(Location(display_path, 1, 1), f"YAML: {exc}") from exc
