"""Finds the unittest classes of the Python test suites, so CMake registers
them instead of a hand-kept list (a class missing from such a list never runs).

  python_suites.py list <folder>...
      prints <module>:<Class> for every class in <folder>/test_*.py that
      holds tests: a unittest.TestCase subclass with test_* methods of its
      own or inherited. <module> is dotted from the repository root.
  python_suites.py check <registered file>
      fails, naming them, if a class of any tests/**/test_*.py is run by no
      CTest test. The file (written by tests/CMakeLists.txt) holds one
      dotted module (the whole module runs) or module.Class a line.

The files are parsed, not imported: importing would run their set-up code,
which wants the built binaries and the test environment.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEST_CASE_BASES = {"TestCase", "IsolatedAsyncioTestCase"}  # unittest's own


def _base_name(node: ast.expr) -> str:
    """'unittest.TestCase' -> 'TestCase', 'CliTestCase' -> 'CliTestCase'."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _classes(files: list[Path]) -> dict[str, tuple[list[str], bool]]:
    """Class name -> (base names, defines test methods), over all files: a
    suite's base class often comes from a sibling module."""
    found: dict[str, tuple[list[str], bool]] = {}
    for path in files:
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            if isinstance(node, ast.ClassDef):
                tests = any(
                    isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test")
                    for item in node.body
                )
                found.setdefault(node.name, ([_base_name(b) for b in node.bases], tests))
    return found


def _holds_tests(name: str, classes: dict[str, tuple[list[str], bool]]) -> bool:
    is_case, has_tests, todo, seen = False, False, [name], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if current in TEST_CASE_BASES:
            is_case = True
        elif current in classes:
            bases, tests = classes[current]
            has_tests = has_tests or tests
            todo += bases
    return is_case and has_tests


def suites(folders: list[Path]) -> list[tuple[str, str]]:
    """(dotted module, class) of every class that holds tests, in file order."""
    files = sorted(f for folder in folders for f in folder.glob("test_*.py"))
    # Base classes may live in any test module or helper of the suite's folder.
    classes = _classes(sorted({f for folder in folders for f in folder.glob("*.py")}))
    result = []
    for path in files:
        module = ".".join(path.resolve().relative_to(REPO).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            if isinstance(node, ast.ClassDef) and _holds_tests(node.name, classes):
                result.append((module, node.name))
    return result


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "list":
        for module, name in suites([Path(a).resolve() for a in argv[1:]]):
            print(f"{module}:{name}")
        return 0
    if len(argv) == 2 and argv[0] == "check":
        registered = set(Path(argv[1]).read_text(encoding="utf-8").split())
        folders = sorted({p.parent for p in (REPO / "tests").rglob("test_*.py")})
        missing = [
            f"{module}.{name}"
            for module, name in suites(folders)
            if module not in registered and f"{module}.{name}" not in registered
        ]
        for suite in missing:
            print(f"{suite}: no CTest test runs this test class", file=sys.stderr)
        if missing:
            return 1
        print(f"every Python test class runs in a CTest test ({len(registered)} registered)")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
