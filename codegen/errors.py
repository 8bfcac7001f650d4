"""Schema errors that point at a file, line and column."""

from __future__ import annotations

from dataclasses import dataclass


def one_line(text: str) -> str:
    """The text with line breaks and other unprintable characters written as
    escapes (\\n, \\x07), so that a message quoting a schema's text stays one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@dataclass(frozen=True, order=True)
class Location:
    """A place in a schema file; line and column count from 1."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{one_line(self.path)}:{self.line}:{self.col}"


class SchemaError(Exception):
    """One problem in the schema, at a known place."""

    def __init__(self, location: Location, message: str) -> None:
        message = one_line(message)
        super().__init__(f"{location}: error: {message}")
        self.location = location
        self.message = message


class SchemaErrors(Exception):
    """Every problem found in one validation stage, in file order."""

    def __init__(self, errors: list[SchemaError]) -> None:
        self.errors = sorted(errors, key=lambda e: e.location)
        super().__init__("\n".join(str(e) for e in self.errors))


class ErrorCollector:
    """Collects errors so that one run reports all of them, not just the first."""

    def __init__(self) -> None:
        self.errors: list[SchemaError] = []

    def add(self, location: Location, message: str) -> None:
        self.errors.append(SchemaError(location, message))

    def raise_if_any(self) -> None:
        if self.errors:
            raise SchemaErrors(self.errors)
