"""Identifier rules for schema names and the words generated code cannot use."""

from __future__ import annotations

import keyword
import re

# snake_case without leading, trailing or doubled underscores: C++ reserves
# names with "__" and names that start with "_", and a trailing "_" would let
# two schema names map to the same PascalCase type name.
# Use with fullmatch() only: `$` also matches before a final newline, so
# re.match(r"^...$") would let "ev\n" through into generated C.
SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
PASCAL_CASE = re.compile(r"[A-Z][A-Za-z0-9]*")
UPPER_SNAKE_CASE = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*")

CPP_KEYWORDS = frozenset(
    """
    alignas alignof and and_eq asm atomic_cancel atomic_commit atomic_noexcept auto
    bitand bitor bool break case catch char char8_t char16_t char32_t class compl
    concept const consteval constexpr constinit const_cast continue co_await
    co_return co_yield decltype default delete do double dynamic_cast else enum
    explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected
    public reflexpr register reinterpret_cast requires return short signed sizeof
    static static_assert static_cast struct switch synchronized template this
    thread_local throw true try typedef typeid typename union unsigned using
    virtual void volatile wchar_t while xor xor_eq final override import module
    """.split()
)

# Lower-case names that the C and C++ standard libraries (and glibc) define as
# macros; a field with one of these names breaks wherever the macro is visible.
C_MACRO_NAMES = frozenset(
    "assert errno offsetof setjmp va_arg va_copy va_end va_start stdin stdout stderr "
    "major minor makedev unix linux".split()
)

# Hard keywords only: soft keywords such as `match` are valid Python names.
PYTHON_KEYWORDS = frozenset(keyword.kwlist)


def reserved_reason(name: str) -> str | None:
    """Why `name` cannot be used as an identifier, or None if it can."""
    if name in CPP_KEYWORDS:
        return "is a C++ keyword"
    if name in PYTHON_KEYWORDS:
        return "is a Python keyword"
    if name in C_MACRO_NAMES:
        return "is a C library macro"
    return None


def pascal_case(snake: str) -> str:
    """isr_name -> IsrName."""
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))
