"""The example user project (examples/user_events), built the way a user
builds it: tband installed into a fresh prefix with `cmake --install`, the
example configured against it with find_package() in a folder outside
tband's tree, for the host and for the Cortex-M4 (QEMU mps2-an386); its
programs run, and their traces decoded by the installed `tband` with the
schema descriptor the build wrote. Also: a firmware-only install made under
the Cortex-M4 toolchain (no host libraries), and tband added with
add_subdirectory() instead of the package.

Environment: TBAND_BUILD_DIR (the tband build to install), TBAND_REQUIRE_CROSS=1
to fail rather than skip when arm-none-eabi-gcc or QEMU is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.cli.support import TraceView
from tests.e2e import qemu

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "user_events"
BUILD_DIR = Path(os.environ.get("TBAND_BUILD_DIR", REPO / "build"))
REQUIRE_CROSS = os.environ.get("TBAND_REQUIRE_CROSS") == "1"
BREAKDOWN = REPO / "target" / "tools" / "firmware_breakdown.py"

# What the example's plan (app/motor_app.c) emits, in order: (event, fields).
MOVES = [
    # motor, target, speed, positions every 10 ticks, end position, reached, joules
    (0, 400, 4000.0, list(range(40, 400, 40)), 400, True, 1.0),
    (1, -250, 5000.0, [-50, -100, -150, -200], -250, True, 0.625),
    (0, 100, 6000.0, [340, 280, 220, 160], 100, True, 0.75),
    (1, 600, 7000.0, [-180, -110, -40, 30, 100, 170, 240], 300, False, 1.375),
]


def expected_motor_events() -> list[tuple[str, dict]]:
    events = [("motor_name", {"motor_id": 0, "name": "x-axis"}),
              ("motor_name", {"motor_id": 1, "name": "y-axis"}),
              ("motor_alert", {"alert": "MOTOR_ALERT_COLD", "temperature": -12, "detail": "cold start"})]
    for motor, target, speed, positions, end, reached, joules in MOVES:
        events.append(("motor_move_begin", {"motor_id": motor, "target": target, "speed": speed}))
        events += [("motor_position", {"motor_id": motor, "position": p}) for p in positions]
        if not reached:
            events.append(("motor_alert", {"alert": "MOTOR_ALERT_STALL", "temperature": 71,
                                           "detail": "y-axis stalled"}))
        events.append(("motor_position", {"motor_id": motor, "position": end}))
        events.append(("motor_move_end", {"motor_id": motor, "reached": reached, "error": end - target}))
        events.append(("motor_energy", {"motor_id": motor, "joules": joules}))
    return events


def run(cmd: list, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(f"failed ({result.returncode}): {' '.join(map(str, cmd))}\n"
                             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def configure_and_build(source: Path, build: Path, *args: str) -> None:
    run(["cmake", "-S", source, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DMOTOR_WERROR=ON", *args])
    run(["cmake", "--build", build, "-j2"])


def have_cross() -> bool:
    return shutil.which("arm-none-eabi-gcc") is not None and shutil.which("arm-none-eabi-size") is not None


class ExampleProject(unittest.TestCase):
    """Installs tband once; each test builds the example its own way."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory(prefix="tband-example-")
        cls.root = Path(cls.tmp.name)
        cls.prefix = cls.root / "prefix"
        run(["cmake", "--install", BUILD_DIR, "--prefix", cls.prefix])
        cls.tband = cls.prefix / "bin" / "tband"
        cls.toolchain = cls.prefix / "lib" / "cmake" / "tband" / "toolchains" / "arm-none-eabi-cortex-m4.cmake"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def require_cross(self) -> None:
        if not have_cross():
            if REQUIRE_CROSS:
                self.fail("arm-none-eabi-gcc is missing (TBAND_REQUIRE_CROSS=1)")
            self.skipTest("arm-none-eabi-gcc not installed: Cortex-M4 build skipped")

    def require_qemu(self) -> None:
        if not qemu.available():
            if REQUIRE_CROSS:
                self.fail("qemu-system-arm is missing (TBAND_REQUIRE_CROSS=1)")
            self.skipTest("qemu-system-arm not installed: the Cortex-M4 programs are built but not run")

    # ---- decoding -------------------------------------------------------------

    def decode(self, trace: Path, descriptor: Path) -> list[dict]:
        """The trace as JSON Lines from the installed tband, with the example's schema."""
        result = run([self.tband, "dump", "--json", "--strict", "--schema", descriptor, trace])
        return [json.loads(line) for line in result.stdout.splitlines()]

    def check_trace(self, trace: Path, descriptor: Path) -> list[dict]:
        events = self.decode(trace, descriptor)
        errors = [e for e in events if "error" in e]
        self.assertEqual(errors, [], f"{trace.name}: decode errors")
        motor = [(e["event"], e["fields"]) for e in events if e["event"].startswith("motor_")]
        self.assertEqual(motor, expected_motor_events(), trace.name)
        # Next to them, the built-in events of the same run.
        names = [e["event"] for e in events]
        self.assertEqual(names.count("isr_enter"), names.count("isr_exit"))
        self.assertGreater(names.count("isr_enter"), 270)
        self.assertEqual(names.count("evtmarker_begin"), 4)
        moves_left = [e["fields"]["val"] for e in events if e["event"] == "valmarker"]
        self.assertEqual(moves_left, [4, 3, 2, 1])
        # The trace names the schema it was written with, by itself (README's
        # recipe asks nothing for it): schema_id comes first in the metadata,
        # before the first name the firmware gave.
        schema = json.loads(descriptor.read_text())
        ids = [e["fields"] for e in events if e["event"] == "schema_id"]
        self.assertEqual(ids, [{"wire_hash": int(schema["trace_id"], 16), "user_groups": "motor"}])
        self.assertLess(names.index("schema_id"), names.index("isr_name"), trace.name)
        dropped = [e["fields"]["cnt"] for e in events if e["event"] == "dropped_evt_cnt"]
        self.assertTrue(dropped and set(dropped) == {0}, dropped)
        return events

    def check_display(self, trace: Path, descriptor: Path) -> None:
        """`tband conv --schema`: the tracks the schema's display rules ask for,
        read back from the .pftrace and the JSON."""
        pftrace, chrome = trace.with_suffix(".pftrace"), trace.with_suffix(".json")
        run([self.tband, "conv", "--strict", "--mode", "bare-metal", "--schema", descriptor, trace,
             "-o", pftrace, "--json", chrome])
        view = TraceView(pftrace)
        positions = {0: [], 1: []}
        for motor, _, _, steps, end, _, _ in MOVES:
            positions[motor] += steps + [end]
        for motor in (0, 1):
            moves = view.track(f"motor {motor}", "")["slices"]
            self.assertEqual([m["name"] for m in moves],
                             [f"move to {target}" for m_, target, *_ in MOVES if m_ == motor])
            self.assertTrue(all(m["begin"] < m["end"] for m in moves))
            counter = view.track(f"motor {motor} position (steps)", "")
            self.assertTrue(counter["is_counter"])
            self.assertEqual([v for _, v in counter["counter"]], positions[motor])
            energy = view.track(f"motor {motor} energy (J)", "")["counter"]
            self.assertEqual([v for _, v in energy], [j for m_, *_, j in MOVES if m_ == motor])
        first = view.track("motor 0", "")["slices"][0]
        self.assertEqual(first["args"], {"motor_id": 0, "target": 400, "speed": 4000.0})
        alerts = view.track("alerts", "")["instants"]
        self.assertEqual([a["name"] for a in alerts], ["MOTOR_ALERT_COLD", "MOTOR_ALERT_STALL"])
        self.assertEqual(alerts[1]["args"], {"alert": "MOTOR_ALERT_STALL", "temperature": 71,
                                             "detail": "y-axis stalled"})
        stalled = view.track("motor 1", "")["slices"][-1]
        self.assertTrue(alerts[1]["ts"] <= stalled["end"] < alerts[1]["ts"] + 1_000_000,
                        "the stalled move ends in the tick that raised the alert")
        # The project's CI step: its rules over its own events' figures hold, JUnit says so.
        junit = trace.with_suffix(".junit.xml")
        run([self.tband, "check", "--mode", "bare-metal", "--schema", descriptor, "--rules",
             EXAMPLE / "ci" / "rules.yaml", "--junit", junit, trace])
        self.assertIn('failures="0"', junit.read_text())
        events = json.loads(chrome.read_text())["traceEvents"]
        ends = [e.get("args") for e in events if e["ph"] == "E" and e.get("args", {}).get("reached") is not None]
        self.assertEqual(ends, [{"reached": reached, "error": end - target}
                                for _, target, _, _, end, reached, _ in MOVES])

    # ---- the builds -----------------------------------------------------------

    def test_host_build_from_the_installed_package(self) -> None:
        build = self.root / "host"
        configure_and_build(EXAMPLE, build, f"-DCMAKE_PREFIX_PATH={self.prefix}")
        descriptor = build / "motor_schema.json"
        for backend in ("streaming", "snapshot"):
            trace = build / f"{backend}.bin"
            run([build / f"motor_host_{backend}", trace])
            events = self.check_trace(trace, descriptor)
            self.check_names_its_schema(trace, descriptor)
            self.check_display(trace, descriptor)
            # The host clock is simulated: the first move starts 1.25 ms in.
            begin = next(e for e in events if e["event"] == "motor_move_begin")
            self.assertEqual(begin["ts_ns"], 1_250_000)
        self.check_encoder_tool(build, descriptor)

    def check_names_its_schema(self, trace: Path, descriptor: Path) -> None:
        """README step 5: with the descriptor next to the trace, no flag."""
        folder = self.root / f"no_flag_{trace.stem}"
        folder.mkdir()
        shutil.copy(trace, folder / trace.name)
        shutil.copy(descriptor, folder / "tband_schema.json")
        result = run([self.tband, "dump", "--json", "--strict", folder / trace.name])
        events = [json.loads(line) for line in result.stdout.splitlines()]
        motor = [(e["event"], e["fields"]) for e in events if e["event"].startswith("motor_")]
        self.assertEqual(motor, expected_motor_events(), trace.name)

    def check_encoder_tool(self, build: Path, descriptor: Path) -> None:
        """README's tband_generate(... LIBRARY ...) recipe: motor_frames encodes
        events with the generated headers alone; the trace names its schema, so
        the installed tband decodes it with the descriptor next to it and no flag."""
        folder = self.root / "bench_traces"
        folder.mkdir()
        trace = folder / "bench.bin"
        run([build / "motor_frames", trace])
        shutil.copy(descriptor, folder / "tband_schema.json")
        events = [json.loads(line) for line in run([self.tband, "dump", "--json", "--strict", trace]).stdout.splitlines()]
        self.assertEqual([(e["event"], e["fields"]) for e in events if e["event"].startswith("motor_")], [
            ("motor_name", {"motor_id": 1, "name": "x-axis"}),
            ("motor_position", {"motor_id": 1, "position": 10}),
            ("motor_position", {"motor_id": 1, "position": 20}),
            ("motor_position", {"motor_id": 1, "position": -5}),
            ("motor_alert", {"alert": "MOTOR_ALERT_STALL", "temperature": -3, "detail": "bench"}),
        ])
        self.assertEqual([e["ts_ns"] for e in events if e["event"] == "motor_position"], [100_000, 200_000, 300_000])

    def test_cortex_m4_build_from_the_installed_package(self) -> None:
        self.require_cross()
        build = self.root / "arm"
        configure_and_build(EXAMPLE, build, f"-DCMAKE_PREFIX_PATH={self.prefix}",
                            f"-DCMAKE_TOOLCHAIN_FILE={self.toolchain}")
        descriptor = build / "motor_schema.json"
        self.check_image(build, descriptor)
        self.require_qemu()
        for backend in ("streaming", "snapshot"):
            trace = build / f"{backend}.bin"
            self.assertEqual(qemu.run_to_exit(build / f"motor_qemu_{backend}.elf", trace), 0)
            events = self.check_trace(trace, descriptor)
            self.check_display(trace, descriptor)
            ticks = [e["ts_ns"] for e in events if e["event"] == "isr_enter"]
            gaps = {b - a for a, b in zip(ticks, ticks[1:])}
            self.assertEqual(gaps, {1_000_000}, "SysTick at 1 kHz: one tick every 1 ms")

    def check_image(self, build: Path, descriptor: Path) -> None:
        """The generated hooks in the image: a few instructions each, no second encoder."""
        for backend in ("streaming", "snapshot"):
            elf = build / f"motor_qemu_{backend}.elf"
            report = build / f"{backend}_breakdown.json"
            run(["python3", BREAKDOWN, "--elf", elf, "--map", f"{elf}.map", "--descriptor", descriptor,
                 "--json", report])
            figures = json.loads(report.read_text())
            hooks = figures["hooks"]
            self.assertEqual(sorted(hooks), sorted(f"tband_{e}" for e in
                                                   ("motor_name", "motor_position", "motor_move_begin",
                                                    "motor_move_end", "motor_alert", "motor_energy")))
            for name, size in hooks.items():
                self.assertLessEqual(size, 64, f"{name}: {size} bytes")
            # One compact encoder for all events: the hooks' object holds no encode_fields of its own.
            symbols = run(["arm-none-eabi-nm", "-C", elf]).stdout
            self.assertEqual(symbols.count("tband::enc::encode_fields"), 1)

    def test_firmware_only_install_under_the_cross_toolchain(self) -> None:
        """tband configured with the Cortex-M4 toolchain: firmware side only,
        no host library needed, no tband binary installed; the example builds against it."""
        self.require_cross()
        tband_build = self.root / "tband-firmware-only"
        prefix = self.root / "prefix-firmware-only"
        run(["cmake", "-S", REPO, "-B", tband_build, "-G", "Ninja",
             f"-DCMAKE_TOOLCHAIN_FILE={REPO / 'cmake' / 'toolchains' / 'arm-none-eabi-cortex-m4.cmake'}"])
        cache = (tband_build / "CMakeCache.txt").read_text()
        self.assertIn("TBAND_FIRMWARE_ONLY:BOOL=ON", cache)
        self.assertNotIn("Protobuf_INCLUDE_DIR", cache)
        run(["cmake", "--build", tband_build])
        run(["cmake", "--install", tband_build, "--prefix", prefix])
        self.assertFalse((prefix / "bin" / "tband").exists())
        self.assertTrue((prefix / "bin" / "tband-codegen").exists())
        build = self.root / "arm-firmware-only"
        configure_and_build(EXAMPLE, build, f"-DCMAKE_PREFIX_PATH={prefix}",
                            f"-DCMAKE_TOOLCHAIN_FILE={prefix / 'lib/cmake/tband/toolchains/arm-none-eabi-cortex-m4.cmake'}")
        self.assertTrue((build / "motor_qemu_streaming.elf").is_file())

    def test_add_subdirectory_instead_of_the_package(self) -> None:
        """tband's source tree inside the user's build (as FetchContent does):
        firmware side only, same image as from the installed package."""
        self.require_cross()
        build = self.root / "arm-subdirectory"
        configure_and_build(EXAMPLE, build, f"-DTBAND_SOURCE_DIR={REPO}",
                            f"-DCMAKE_TOOLCHAIN_FILE={REPO / 'cmake' / 'toolchains' / 'arm-none-eabi-cortex-m4.cmake'}")
        self.assertNotIn("Protobuf_INCLUDE_DIR", (build / "CMakeCache.txt").read_text())
        sizes = (build / "sizes.txt").read_text()
        self.assertIn("motor_qemu_streaming.elf", sizes)
        self.require_qemu()
        trace = build / "streaming.bin"
        self.assertEqual(qemu.run_to_exit(build / "motor_qemu_streaming.elf", trace), 0)
        self.check_trace(trace, build / "motor_schema.json")

    def test_installed_generator_runs_from_anywhere(self) -> None:
        out = self.root / "codegen-out"
        run([self.prefix / "bin" / "tband-codegen", "--schema", EXAMPLE / "schema" / "motor.yaml", "--out", out],
            cwd=self.root)
        header = (out / "target" / "tband_user_events.h").read_text()
        self.assertIn("void tband_motor_move_begin(uint16_t motor_id, int32_t target, float speed);", header)
        self.assertIn("void tband_motor_energy(uint16_t motor_id, double joules);", header)


if __name__ == "__main__":
    unittest.main()
