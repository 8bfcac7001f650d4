"""Shared paths and helpers for the generator tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCHEMA_DIR = REPO / "schema"
BAD_SCHEMAS = REPO / "tests" / "codegen" / "bad_schemas"
BAD_USER_SCHEMAS = REPO / "tests" / "codegen" / "bad_user_schemas"
USER_SCHEMA = REPO / "tests" / "user_events" / "schema"
GOOD_SCHEMAS = REPO / "tests" / "codegen" / "schemas"


def run_codegen(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """Runs `python3 -m codegen` as a user would, from `cwd`."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def assert_expected_errors(test, case: Path, load) -> list:
    """Loads a bad-schema case with load(case, display) and checks that it
    fails with exactly the lines of case/expected.txt; returns the errors."""
    from codegen.errors import SchemaErrors

    display = case.relative_to(REPO).as_posix()
    expected = (case / "expected.txt").read_text().splitlines()
    test.assertTrue(expected, "expected.txt must not be empty")
    with test.assertRaises(SchemaErrors) as raised:
        load(case, display)
    test.assertEqual([str(e) for e in raised.exception.errors], expected)
    return raised.exception.errors
