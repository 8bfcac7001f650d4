"""Display rules: how an event shows in Perfetto and JSON when the host decodes
it from the schema at run time (`tband conv --schema`).

An event's optional `display` mapping says whether it is an instant (the
default), the begin or end of a span (paired by key fields), or a sample of a
counter; which track it goes on (a name template such as "motor {motor_id}",
at the top level or under the core or the FreeRTOS task that was running);
and what its slice or instant is called. Display rules do not change the
wire format, so they are not part of the wire identity.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ErrorCollector, Location

KINDS = ("instant", "span_begin", "span_end", "counter", "name")
PLACES = ("global", "core", "task")

# key -> (kind, required), as validate.py's structural check reads them.
DISPLAY_KEYS = {
    "kind": ("name", False),
    "span": ("name", False),
    "key": ("list", False),
    "track": ("text", False),
    "under": ("name", False),
    "name": ("text", False),
    "value": ("name", False),
    "unit": ("text", False),
}

# Keys each kind may use (kind itself aside).
ALLOWED_KEYS = {
    "instant": ("track", "under", "name"),
    "span_begin": ("span", "key", "track", "under", "name"),
    "span_end": ("span", "key"),
    "counter": ("track", "under", "value", "unit"),
    "name": ("key", "name"),
}

WHY_NOT = {
    ("span_end", "track"): "a span ends on the track its span_begin put it on",
    ("span_end", "under"): "a span ends on the track its span_begin put it on",
    ("span_end", "name"): "the span keeps the name its span_begin gave it",
    ("counter", "name"): "a counter sample has no name; the track names the counter",
    ("name", "track"): "a name rule shows nothing itself; it renames the tracks of other rules",
    ("name", "under"): "a name rule shows nothing itself; it renames the tracks of other rules",
}

NUMERIC_TYPES = ("u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "bool", "f32", "f64")


@dataclass(frozen=True)
class Display:
    """An event's display rule, as the schema gives it (defaults are the host's)."""

    kind: str
    span: str | None
    key: tuple[str, ...]
    track: str | None
    under: str | None
    name: str | None
    value: str | None
    unit: str | None
    location: Location

    def as_json(self) -> dict:
        out: dict = {"kind": self.kind}
        for attr in ("span", "track", "under", "name", "value", "unit"):
            value = getattr(self, attr)
            if value is not None:
                out[attr] = value
        if self.key:
            out["key"] = list(self.key)
        return out


def template_fields(text: str) -> tuple[list[str], str | None]:
    """The field names a template refers to ("motor {motor_id}" -> [motor_id]),
    and a problem with its braces, if any. "{{" and "}}" stand for braces."""
    names: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            if text.startswith("{{", i):
                i += 2
                continue
            end = text.find("}", i + 1)
            if end < 0:
                return names, f"'{{' at column {i + 1} is never closed (write '{{{{' for a brace)"
            name = text[i + 1 : end]
            if not name:
                return names, f"empty '{{}}' at column {i + 1}: name a field inside the braces"
            if "{" in name:
                return names, f"'{{' at column {i + 1} is never closed (write '{{{{' for a brace)"
            names.append(name)
            i = end + 1
        elif c == "}":
            if text.startswith("}}", i):
                i += 2
                continue
            return names, f"'}}' at column {i + 1} closes nothing (write '}}}}' for a brace)"
        else:
            i += 1
    return names, None


class DisplayChecker:
    """Checks display rules event by event, then the spans across all events."""

    def __init__(self, errors: ErrorCollector) -> None:
        self.errors = errors
        # span name -> [(event name, kind, key, key types, location)]
        self.spans: dict[str, list[tuple[str, str, tuple[str, ...], tuple[str, ...], Location]]] = {}
        self.failed_spans: set[str] = set()  # spans with an event already reported: no follow-on errors

    def build(self, what: str, node, fields: list, metadata: bool) -> Display | None:
        """The display rule of one event (node: its checked `display` mapping)."""
        ok = True
        kind = node.get("kind", "instant")
        if kind not in KINDS:
            self.errors.add(node.value_loc["kind"], f"{what} display: kind '{kind}' is not one of {', '.join(KINDS)}")
            return None
        for key in node:
            if key != "kind" and key not in ALLOWED_KEYS[kind]:
                why = WHY_NOT.get((kind, key), f"a {kind} uses only {', '.join(ALLOWED_KEYS[kind])}")
                self.errors.add(node.key_loc[key], f"{what} display: '{key}' does not apply to a {kind} ({why})")
                ok = False
        if metadata and kind not in ("instant", "name"):
            self.errors.add(
                node.value_loc["kind"],
                f"{what} display: a metadata event has no timestamp, so it can only be an instant or a name, "
                f"not a {kind}",
            )
            ok = False
        if kind == "name" and not metadata:
            self.errors.add(
                node.value_loc["kind"],
                f"{what} display: a name rule belongs on a metadata event (one that names something once, "
                "like isr_name); give the event 'metadata: true'",
            )
            ok = False
        by_name = {f.name: f for f in fields if not f.implicit}
        for key in ("track", "name"):
            if key in node:
                ok &= self.check_template(what, key, node[key], node.value_loc[key], by_name)
        under = node.get("under")
        if under is not None and under not in PLACES:
            self.errors.add(
                node.value_loc["under"], f"{what} display: under '{under}' is not one of {', '.join(PLACES)}"
            )
            ok = False
        key_names: tuple[str, ...] = ()
        if kind in ("span_begin", "span_end"):
            if "span" not in node:
                self.errors.add(
                    node.loc, f"{what} display: a {kind} needs 'span', the name that pairs its begin and end events"
                )
                ok = False
            key_ok, key_names = self.check_key(what, node, by_name)
            ok &= key_ok
        if kind == "name":
            key_ok, key_names = self.check_key(what, node, by_name)
            ok &= key_ok
            if "name" not in node:
                self.errors.add(node.loc, f"{what} display: a name rule needs 'name', the label (a template)")
                ok = False
            if "key" not in node:
                self.errors.add(node.loc, f"{what} display: a name rule needs 'key', the field whose values it names")
                ok = False
            elif key_ok and len(key_names) != 1:
                self.errors.add(
                    node.value_loc["key"],
                    f"{what} display: a name rule's key is one field (the one whose values it names), "
                    f"not {len(key_names)}",
                )
                ok = False
        value = node.get("value")
        if kind == "counter":
            if value is None:
                self.errors.add(node.loc, f"{what} display: a counter needs 'value', the field it plots")
                ok = False
            elif value not in by_name:
                self.errors.add(node.value_loc["value"], f"{what} display: value '{value}' {self.no_field(by_name)}")
                ok = False
            elif by_name[value].type.enum or by_name[value].type.name not in NUMERIC_TYPES:
                self.errors.add(
                    node.value_loc["value"],
                    f"{what} display: value '{value}' is {by_name[value].type.doc_name}; a counter plots a number "
                    f"({', '.join(NUMERIC_TYPES)})",
                )
                ok = False
        if not ok:
            if isinstance(node.get("span"), str):
                self.failed_spans.add(node["span"])
            return None
        if kind in ("span_begin", "span_end"):
            types = tuple(by_name[k].type.name for k in key_names)
            self.spans.setdefault(node["span"], []).append((what, kind, key_names, types, node.loc))
        return Display(
            kind,
            node.get("span"),
            key_names,
            node.get("track"),
            under,
            node.get("name"),
            value,
            node.get("unit"),
            node.loc,
        )

    @staticmethod
    def no_field(by_name: dict) -> str:
        known = ", ".join(by_name) or "none"
        return f"is not a field of the event (its fields: {known})"

    def check_template(self, what: str, key: str, text: str, where: Location, by_name: dict) -> bool:
        names, problem = template_fields(text)
        if problem:
            self.errors.add(where, f"{what} display: {key} \"{text}\": {problem}")
            return False
        for name in names:
            if name not in by_name:
                self.errors.add(where, f"{what} display: {key} \"{text}\": '{{{name}}}' {self.no_field(by_name)}")
                return False
        return True

    def check_key(self, what: str, node, by_name: dict) -> tuple[bool, tuple[str, ...]]:
        if "key" not in node:
            return True, ()
        names = []
        for i, name in enumerate(node["key"]):
            where = node["key"].item_loc[i]
            if not isinstance(name, str):
                self.errors.add(where, f"{what} display: key must list field names, not {name!r}")
                return False, ()
            if name not in by_name:
                self.errors.add(where, f"{what} display: key '{name}' {self.no_field(by_name)}")
                return False, ()
            field = by_name[name]
            if name in names:
                self.errors.add(where, f"{what} display: key '{name}' is given twice")
                return False, ()
            if field.optional:
                self.errors.add(where, f"{what} display: key '{name}' is optional; a key field must always be sent")
                return False, ()
            if field.type.is_float:
                self.errors.add(
                    where, f"{what} display: key '{name}' is {field.type.name}; floats do not compare reliably as keys"
                )
                return False, ()
            names.append(name)
        return True, tuple(names)

    def check_spans(self) -> None:
        """Every span has begin and end events, and they agree on the key."""
        for span, uses in self.spans.items():
            if span in self.failed_spans:
                continue
            kinds = {kind for _, kind, _, _, _ in uses}
            for missing in ("span_begin", "span_end"):
                if missing not in kinds:
                    first = uses[0]
                    self.errors.add(
                        first[4], f"{first[0]} display: span '{span}' has no {missing} event (give one the same span)"
                    )
            reference = uses[0]
            for event, _, key, types, where in uses[1:]:
                if key != reference[2]:
                    self.errors.add(
                        where,
                        f"{event} display: key [{', '.join(key)}] differs from the key [{', '.join(reference[2])}] "
                        f"of span '{span}' ({reference[0]}, {reference[4]})",
                    )
                elif types != reference[3]:
                    self.errors.add(
                        where,
                        f"{event} display: key field types ({', '.join(types)}) differ from those of span '{span}' "
                        f"({', '.join(reference[3])}) in {reference[0]} ({reference[4]})",
                    )
