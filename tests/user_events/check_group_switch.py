#!/usr/bin/env python3
"""A user group switched off compiles to nothing.

Compiles the tracer (target/src/*.cpp and the generated
tband_user_events.cpp) with tband's own schema, and with a schema that adds
the lab group, once with the group switched off (tband_configLAB_TRACE_ENABLE
0) and once on. Switched off, every object must equal the one built from
tband's own schema: the same disassembly with the same relocations, the same
symbols. A firmware source calling every lab hook must compile, switched off,
to the same object as without the calls, naming no tband symbol. As a check
that the comparison can fail, the group switched on must differ and define
the hooks. Host compilers at -O2 and -Os; arm-none-eabi at -Os when given.

  check_group_switch.py --cxx g++ --cc gcc [--arm-cxx arm-none-eabi-g++] --lab-gen DIR --base-gen DIR --out DIR
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
# One hook per event of the lab group.
LAB_EVENTS = len(yaml.safe_load((HERE / "schema" / "lab.yaml").read_text())["events"])
ROOT = HERE.parents[1]
RUNTIME = sorted((ROOT / "target" / "src").glob("*.cpp"))
CONFIGS = HERE / "configs"


def run(cmd: list[str]) -> str:
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stdout}{result.stderr}")
    return result.stdout


def fingerprint(tools: tuple[str, str], obj: Path) -> tuple[str, str]:
    """The disassembly with relocations (without the file name line), and the symbols."""
    objdump, nm = tools
    code = run([objdump, "-dr", "--no-show-raw-insn", str(obj)])
    code = "\n".join(line for line in code.splitlines() if obj.name not in line)
    return code, run([nm, str(obj)])


class Builder:
    def __init__(self, cxx: str, cc: str, flags: list[str], tools: tuple[str, str], out: Path) -> None:
        self.cxx, self.cc, self.flags, self.tools, self.out = cxx, cc, flags, tools, out
        self.label = f"{Path(cxx).name} {' '.join(flags)}"

    def includes(self, gen: Path, config: str) -> list[str]:
        return [f"-I{ROOT / 'target/include'}", f"-I{ROOT / 'target/src'}", f"-I{CONFIGS / config}",
                f"-I{ROOT / 'target/ports/host'}", f"-I{gen}"]

    def compile(self, source: Path, gen: Path, config: str, variant: str, c: bool = False,
                defines: tuple[str, ...] = ()) -> tuple[str, str]:
        tag = re.sub(r"\W+", "_", f"{self.label}-{variant}-{source.stem}")
        obj = self.out / f"{tag}.o"
        compiler, std = (self.cc, ["-std=c11"]) if c else (self.cxx, ["-std=c++17", "-fno-exceptions", "-fno-rtti"])
        run([compiler, *std, "-Wall", "-Wextra", "-Werror", *self.flags, *defines, *self.includes(gen, config),
             "-c", str(source), "-o", str(obj)])
        return fingerprint(self.tools, obj)


def check(builder: Builder, lab_gen: Path, base_gen: Path) -> list[str]:
    errors = []
    label = builder.label
    for source in [*RUNTIME, Path("tband_user_events.cpp")]:
        def build(gen: Path, config: str, variant: str) -> tuple[str, str]:
            path = gen / source.name if source.name == "tband_user_events.cpp" else source
            return builder.compile(path, gen, config, variant)

        base = build(base_gen, "streaming", "base")
        off = build(lab_gen, "switched_off", "off")
        if off[0] != base[0]:
            errors.append(f"{label} {source.name}: the code differs from the tracer without the lab group")
        if off[1] != base[1]:
            errors.append(f"{label} {source.name}: the symbols differ from the tracer without the lab group")
        if source.name == "tband_user_events.cpp":
            on = build(lab_gen, "streaming", "on")
            hooks = re.findall(r" T tband_lab_\w+", on[1])
            if on[0] == base[0] or len(hooks) != LAB_EVENTS:
                errors.append(f"{label}: switched on, the lab group's {LAB_EVENTS} hooks should be defined "
                              f"({len(hooks)} are)")
    app = HERE / "app_calls.c"
    with_calls = builder.compile(app, lab_gen, "switched_off", "app-off", c=True)
    without = builder.compile(app, lab_gen, "switched_off", "app-none", c=True, defines=("-DWITHOUT_CALLS",))
    if with_calls != without:
        errors.append(f"{label}: the application's calls of switched-off hooks left code or symbols")
    if re.search(r"tband", with_calls[1]):
        errors.append(f"{label}: the application names tband symbols: {with_calls[1]}")
    calling = builder.compile(app, lab_gen, "streaming", "app-on", c=True)
    if "tband_lab_integers" not in calling[1]:
        errors.append(f"{label}: switched on, the application should call the hooks")
    print(f"{label}: {len(RUNTIME) + 1} tracer objects and the application, group switched off: "
          f"{'same as without the group' if not errors else 'DIFFERENT'}")
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--cc", required=True)
    parser.add_argument("--arm-cxx", help="arm-none-eabi-g++ (the Cortex-M4 check is skipped without it)")
    parser.add_argument("--lab-gen", type=Path, required=True, help="generated target/ of the lab schema")
    parser.add_argument("--base-gen", type=Path, required=True, help="generated target/ of tband's own schema")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    errors = []
    for flags in (["-O2"], ["-Os"]):
        errors += check(Builder(args.cxx, args.cc, flags, ("objdump", "nm"), args.out), args.lab_gen, args.base_gen)
    if args.arm_cxx:
        prefix = args.arm_cxx[: -len("g++")]
        arm = Builder(args.arm_cxx, prefix + "gcc", ["-mcpu=cortex-m4", "-mthumb", "-Os"],
                      (prefix + "objdump", prefix + "nm"), args.out)
        errors += check(arm, args.lab_gen, args.base_gen)
    else:
        print("arm-none-eabi-g++ not given: the Cortex-M4 check is skipped (the host checks ran)")
    for error in errors:
        print("error:", error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
