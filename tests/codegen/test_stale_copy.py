"""On a temporary copy of the project: change a field in the schema, rebuild,
and see the encoder, decoder, docs and tests change together, while the stale
check fails until generated/ is regenerated for committing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from .support import REPO, run_codegen

COPIED = ["CMakeLists.txt", "cmake", "codegen", "schema", "generated", "host", "tests", "bench", "examples", "target",
          "tools"]
GENERATED = [
    "target/tband_encode.hpp",
    "target/tband_user_events.h",
    "target/tband_user_events.cpp",
    "host/tband_events.hpp",
    "host/tband_events.cpp",
    "docs/events.md",
    "tests/roundtrip_test.cpp",
    "tests/encoder_compile_check.cpp",
    "descriptor/tband_schema.json",
]


def copy_project(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "build*", "*.pyc")
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=ignore)
        else:
            shutil.copy2(source, dest / name)


def widen_isr_enter_id(schema_file: Path) -> None:
    """isr_enter's isr_id: u32 -> u64 (no longer a filter key: a u64 cannot be one)."""
    text = schema_file.read_text()
    pattern = r"(- name: isr_enter\n(?:    .*\n)*?      - name: isr_id\n        type: )u32\n(        filter_key: true\n)?"
    changed, count = re.subn(pattern, r"\1u64\n", text)
    assert count == 1, "isr_enter's isr_id not found in base.yaml"
    schema_file.write_text(changed)


def run(*cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


class StaleCopyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "tband"
        self.root.mkdir()
        copy_project(self.root)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def check(self) -> subprocess.CompletedProcess:
        return run_codegen("--check", "--schema-dir", "schema", "--out", "generated", cwd=self.root)

    def assert_generated_for_u64(self, folder: Path) -> None:
        files = {path: (folder / path).read_text() for path in GENERATED}
        self.assertIn(
            "encode_isr_enter(std::uint8_t* buf, std::uint64_t ts, std::uint64_t isr_id)",
            files["target/tband_encode.hpp"],
        )
        host = files["host/tband_events.hpp"]
        isr_enter = host[host.index("struct IsrEnter {") :]
        self.assertIn("std::uint64_t isr_id{};", isr_enter[: isr_enter.index("bool operator==")])
        docs = files["docs/events.md"]
        section = docs[docs.index("### `isr_enter`") :]
        self.assertIn("| `isr_id` | `u64` | required |", section[: section.index("### `isr_exit`")])
        self.assertIn("- Max length: 21 bytes unframed", section)
        test = files["tests/roundtrip_test.cpp"]
        case = test[test.index("TEST(RoundTrip, IsrEnter)") :]
        self.assertIn("sample<std::uint64_t>(round, 1, rng)", case[: case.index("TEST(RoundTrip, IsrExit)")])

    def test_schema_change_flows_through_and_check_fails_until_regenerated(self) -> None:
        self.assertEqual(self.check().returncode, 0, "the committed generated/ must start out current")
        cmake = os.environ.get("TBAND_CMAKE")
        build = self.root / "build"
        if cmake:
            # Generate once with the original schema, so the next build must
            # notice the schema change by itself. (Only the generation step:
            # compiling the round trip twice would test ninja's header
            # tracking, not ours, and doubled this test's time.)
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            python = os.environ.get("TBAND_PYTHON")
            run(cmake, "-S", ".", "-B", "build", *generator, "-DTBAND_BUILD_BENCH=OFF",
                *([f"-DTBAND_PYTHON={python}"] if python else []), cwd=self.root)
            run(cmake, "--build", "build", "--target", "tband_generate", "-j2", cwd=self.root)
            self.assertIn("encode_isr_enter(std::uint8_t* buf, std::uint64_t ts, std::uint32_t isr_id)",
                          (build / "generated" / "target" / "tband_encode.hpp").read_text())

        widen_isr_enter_id(self.root / "schema" / "base.yaml")

        stale = self.check()
        self.assertEqual(stale.returncode, 1)
        named = [line.split(": ")[0] for line in stale.stderr.splitlines() if ": differs" in line]
        self.assertEqual(named, [f"generated/{path}" for path in GENERATED])

        if cmake:
            # The rebuild regenerates into the build tree and compiles the change.
            run(cmake, "--build", "build", "--target", "roundtrip", "-j2", cwd=self.root)
            self.assert_generated_for_u64(build / "generated")
            result = run(str(build / "tests" / "roundtrip"), "--gtest_filter=RoundTrip.IsrEnter", cwd=self.root)
            self.assertIn("[  PASSED  ] 1 test", result.stdout)
            self.assertEqual(self.check().returncode, 1, "building must not touch the committed generated/")
            run(cmake, "--build", "build", "--target", "update-generated", cwd=self.root)
        else:
            run_codegen("--schema-dir", "schema", "--out", "generated", cwd=self.root)

        self.assert_generated_for_u64(self.root / "generated")
        self.assertEqual(self.check().returncode, 0)


if __name__ == "__main__":
    unittest.main()
