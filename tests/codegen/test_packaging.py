"""pyproject.toml: the tband-codegen entry point runs the generator once installed.

The installed layout is the source folder codegen/ renamed to tband_codegen.
Where pip can build a wheel offline (setuptools and wheel present), the test
installs for real; otherwise it builds that layout by hand and runs the entry
point's target, which is exactly what the console script would call.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path

from .support import REPO, SCHEMA_DIR


class PackagingTest(unittest.TestCase):
    def setUp(self) -> None:
        with open(REPO / "pyproject.toml", "rb") as f:
            self.project = tomllib.load(f)
        self.tmp = tempfile.TemporaryDirectory()
        self.prefix = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_entry_point_is_declared(self) -> None:
        self.assertEqual(self.project["project"]["scripts"], {"tband-codegen": "tband_codegen.cli:main"})
        self.assertEqual(self.project["tool"]["setuptools"]["package-dir"], {"tband_codegen": "codegen"})

    def install(self) -> list[str]:
        """Installs into self.prefix; returns the command that runs tband-codegen."""
        can_build = all(importlib.util.find_spec(m) for m in ("setuptools", "wheel", "pip"))
        if can_build:
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                 "--target", str(self.prefix / "site"), str(REPO)],
                check=True, capture_output=True,
            )
            return [str(self.prefix / "site" / "bin" / "tband-codegen")]
        shutil.copytree(REPO / "codegen", self.prefix / "site" / "tband_codegen",
                        ignore=shutil.ignore_patterns("__pycache__"))
        module, function = self.project["project"]["scripts"]["tband-codegen"].split(":")
        return [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())"]

    def test_installed_command_generates_the_committed_output(self) -> None:
        command = self.install()
        env = dict(os.environ, PYTHONPATH=str(self.prefix / "site"), PYTHONDONTWRITEBYTECODE="1")
        out = self.prefix / "out"
        # Run from elsewhere, so nothing is picked up from the source tree.
        result = subprocess.run([*command, "--schema-dir", str(SCHEMA_DIR), "--out", str(out)],
                                cwd=self.prefix, env=env, capture_output=True, text=True, check=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        for path in (REPO / "generated").rglob("*"):
            if path.is_file():
                relative = path.relative_to(REPO / "generated")
                self.assertEqual((out / relative).read_bytes(), path.read_bytes(), relative)


if __name__ == "__main__":
    unittest.main()
