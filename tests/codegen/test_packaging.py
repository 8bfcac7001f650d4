"""The generator as a Python package: `pip install .` works offline in a plain
venv (the in-tree build backend needs nothing but the standard library), and
the installed tband-codegen command runs from any folder with tband's
built-in schema inside the package."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest
import zipfile
from pathlib import Path

from .support import REPO, SCHEMA_DIR, USER_SCHEMA


def load_backend():
    spec = importlib.util.spec_from_file_location("tband_codegen_build", REPO / "build_backend" / "tband_codegen_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BackendTest(unittest.TestCase):
    def setUp(self) -> None:
        self.pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
        self.backend = load_backend()
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_build_needs_nothing_but_the_standard_library(self) -> None:
        system = self.pyproject["build-system"]
        self.assertEqual(system["requires"], [])
        self.assertEqual((system["build-backend"], system["backend-path"]), ("tband_codegen_build", ["build_backend"]))
        self.assertEqual(self.backend.get_requires_for_build_wheel(), [])
        self.assertEqual(self.pyproject["project"]["scripts"], {"tband-codegen": "tband_codegen.cli:main"})

    def test_the_reader_for_old_pythons_reads_what_tomllib_reads(self) -> None:
        text = (REPO / "pyproject.toml").read_text()
        project = self.pyproject["project"]
        self.assertEqual(self.backend._project_without_tomllib(text), project)

    def test_wheel_holds_the_package_the_schema_and_the_command_and_is_reproducible(self) -> None:
        first = self.dir / "a"
        second = self.dir / "b"
        first.mkdir()
        second.mkdir()
        name = self.backend.build_wheel(str(first))
        self.assertEqual(name, "tband_codegen-0.1.0-py3-none-any.whl")
        self.backend.build_wheel(str(second))
        self.assertEqual((first / name).read_bytes(), (second / name).read_bytes())
        with zipfile.ZipFile(first / name) as wheel:
            names = wheel.namelist()
            entry_points = wheel.read("tband_codegen-0.1.0.dist-info/entry_points.txt").decode()
            metadata = wheel.read("tband_codegen-0.1.0.dist-info/METADATA").decode()
        self.assertIn("tband_codegen/cli.py", names)
        self.assertIn("tband_codegen/templates/c_hooks/tband_user_events.h.j2", names)
        self.assertIn("tband_codegen/schema/base.yaml", names)
        self.assertIn("tband_codegen/schema/freertos.yaml", names)
        self.assertFalse([n for n in names if "__pycache__" in n])
        self.assertIn("tband-codegen = tband_codegen.cli:main", entry_points)
        self.assertIn("Requires-Dist: Jinja2>=3.0", metadata)


class PipInstallTest(unittest.TestCase):
    """Real installs with pip, offline (--no-index), into fresh venvs."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        self.env.pop("PYTHONPATH", None)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def venv(self, name: str, *flags: str) -> Path:
        path = self.dir / name
        subprocess.run([sys.executable, "-m", "venv", *flags, str(path)], check=True, capture_output=True)
        return path

    def pip_install(self, venv: Path, *flags: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", *flags, str(REPO)],
                              capture_output=True, text=True, env=self.env, check=False)

    def test_a_plain_venv_builds_and_installs_it(self) -> None:
        """No setuptools or wheel needed: the venv's pip alone builds the wheel
        (its dependencies, Jinja2 and PyYAML, are not on this offline index)."""
        venv = self.venv("plain")
        result = self.pip_install(venv, "--no-deps")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue((venv / "bin" / "tband-codegen").is_file())

    def test_no_build_isolation_needs_no_wheel_or_setuptools(self) -> None:
        """`pip install --no-build-isolation .` builds with the venv's own
        packages: a setuptools backend would need `wheel` there ("invalid
        command 'bdist_wheel'"); the in-tree backend needs neither."""
        venv = self.venv("no_isolation")
        python = str(venv / "bin" / "python")
        subprocess.run([python, "-m", "pip", "uninstall", "-y", "setuptools", "wheel"], capture_output=True,
                       env=self.env, check=False)
        missing = subprocess.run([python, "-c", "import importlib.util as u; "
                                  "print(u.find_spec('wheel') is None and u.find_spec('setuptools') is None)"],
                                 capture_output=True, text=True, check=True)
        self.assertEqual(missing.stdout.strip(), "True")
        for flags in (("--no-build-isolation",), ("--no-build-isolation", "--editable")):
            with self.subTest(flags=flags):
                result = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-deps", *flags, str(REPO)],
                                        capture_output=True, text=True, env=self.env, check=False)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertTrue((venv / "bin" / "tband-codegen").is_file())
                version = subprocess.run([python, "-c", "import tband_codegen; print(tband_codegen.__name__)"],
                                         capture_output=True, text=True, env=self.env, cwd=self.dir, check=False)
                self.assertEqual(version.stdout.strip(), "tband_codegen", version.stderr)

    def test_installed_command_runs_from_anywhere(self) -> None:
        """A venv that sees the system's Jinja2 and PyYAML: the full install,
        then the command, run from an empty folder."""
        if importlib.util.find_spec("jinja2") is None or importlib.util.find_spec("yaml") is None:
            self.skipTest("this Python has no Jinja2 or PyYAML for the venv to see")
        venv = self.venv("with_system", "--system-site-packages")
        result = self.pip_install(venv)
        self.assertEqual(result.returncode, 0, result.stderr)
        command = str(venv / "bin" / "tband-codegen")
        work = self.dir / "elsewhere"
        work.mkdir()
        own = subprocess.run([command, "--schema-dir", str(SCHEMA_DIR), "--out", "own"], cwd=work, env=self.env,
                             capture_output=True, text=True, check=False)
        self.assertEqual(own.returncode, 0, own.stderr)
        for path in (REPO / "generated").rglob("*"):
            if path.is_file():
                relative = path.relative_to(REPO / "generated")
                self.assertEqual((work / "own" / relative).read_bytes(), path.read_bytes(), relative)
        # A user's schema with the built-in groups the package carries.
        user = subprocess.run([command, "--schema", str(USER_SCHEMA), "--out", "user"], cwd=work, env=self.env,
                              capture_output=True, text=True, check=False)
        self.assertEqual(user.returncode, 0, user.stderr)
        self.assertIn("void tband_lab_tick(void);", (work / "user" / "target" / "tband_user_events.h").read_text())


if __name__ == "__main__":
    unittest.main()
