"""Paths to what the build made, from the environment CTest sets."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path

from . import qemu


def path_from_env(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest(f"{name} is not set: run these tests through ctest")
    return Path(value)


def require_qemu_and_firmware() -> Path:
    """The firmware folder; skips (or, when CI requires QEMU, fails) without QEMU or firmware."""
    required = os.environ.get("TBAND_REQUIRE_QEMU") == "1"
    firmware = path_from_env("TBAND_FIRMWARE_DIR")
    missing = []
    if not qemu.available():
        missing.append("qemu-system-arm is not installed")
    if not (firmware / "demo_streaming.elf").exists():
        missing.append(f"no firmware in {firmware} (is arm-none-eabi-gcc installed?)")
    if missing:
        message = "; ".join(missing)
        if required:
            raise AssertionError(f"QEMU tests required but {message}")
        raise unittest.SkipTest(f"QEMU tests skipped: {message}")
    return firmware


class FirmwareTestCase(unittest.TestCase):
    """A test class that runs the demo firmware: `firmware` (the folder of
    ELFs), `cli` (tband) and `out` (a temporary folder, removed at the end)."""

    firmware: Path
    cli: Path
    out: Path

    @classmethod
    def setUpClass(cls) -> None:
        cls.firmware = require_qemu_and_firmware()
        cls.cli = path_from_env("TBAND_CLI")
        cls._tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls._tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()
