#!/usr/bin/env python3
"""FreeRTOS tracing switched off compiles to nothing in the kernel.

Compiles the stand-in kernel's files (tasks.c, queue.c, timers.c,
event_groups.c, stream_buffer.c; V10 and V11) three ways: with a
FreeRTOSConfig.h that does not include tband.h at all, and with one that does,
once with tband_configFREERTOS_TRACE_ENABLE 0 and once with
tband_configENABLE 0. The objects must be the same: the same disassembly with
the same relocations, the same symbols, and not one symbol naming tband. The
files of kernel objects with a switch of their own (event_groups.c,
stream_buffer.c) must be so too with the module on and those switches off; a
file with some hooks of such a switch (queue.c's queue set hooks) must not
call them then, and must with tracing on. As a check that the comparison can fail, the kernel with
FreeRTOS tracing on must differ and call tband. Host gcc -O2, and
arm-none-eabi-gcc -mcpu=cortex-m4 -Os when given.

  check_compiled_out.py --cc gcc [--arm-cc arm-none-eabi-gcc] --out DIR
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOURCES = ["tasks.c", "queue.c", "timers.c", "event_groups.c", "stream_buffer.c"]
# name: (FreeRTOSConfig.h folder, tband_config.h folder or None)
VARIANTS = {
    "untraced": ("untraced", None),
    "module_off": ("single_core", "module_off"),
    "tracer_disabled": ("single_core", "disabled"),
    "traced": ("single_core", "on"),
    "objects_off": ("single_core", "objects_off"),
}
# Files whose every hook has a switch of its own (tband_configs/objects_off).
OBJECT_SOURCES = {"event_groups.c", "stream_buffer.c"}
# Files with some hooks under an object switch: the prefix of those hooks' names.
SWITCHED_HOOKS = {"queue.c": "tband_freertos_hook_queue_set_"}


def run(cmd: list[str]) -> str:
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stdout}{result.stderr}")
    return result.stdout


def compile_variant(cc: str, flags: list[str], version: int, variant: str, source: str, out: Path) -> Path:
    kernel_config, tband_config = VARIANTS[variant]
    includes = [f"-I{HERE / 'kernel'}", f"-I{HERE / 'configs/common'}", f"-I{HERE / 'configs' / kernel_config}",
                f"-I{ROOT / 'target/include'}"]
    if tband_config:
        includes.append(f"-I{HERE / 'tband_configs' / tband_config}")
    obj = out / f"{Path(cc).name}-v{version}-{variant}-{Path(source).stem}.o"
    run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *flags, f"-DSTANDIN_KERNEL_VERSION={version}", *includes,
         "-c", str(HERE / "kernel" / source), "-o", str(obj)])
    return obj


def fingerprint(objdump: str, nm: str, obj: Path) -> tuple[str, str]:
    """The disassembly with relocations (the file name line left out) and the symbol table."""
    code = run([objdump, "-dr", "--no-show-raw-insn", str(obj)])
    code = "\n".join(line for line in code.splitlines() if obj.name not in line)
    return code, run([nm, str(obj)])


def check(cc: str, flags: list[str], tools: tuple[str, str], out: Path) -> list[str]:
    errors = []
    objdump, nm = tools
    for version in (10, 11):
        for source in SOURCES:
            objects = {v: compile_variant(cc, flags, version, v, source, out) for v in VARIANTS}
            prints = {v: fingerprint(objdump, nm, o) for v, o in objects.items()}
            base = prints["untraced"]
            known = len(errors)
            off = ("module_off", "tracer_disabled") + (("objects_off",) if source in OBJECT_SOURCES else ())
            for variant in off:
                code, symbols = prints[variant]
                label = f"{Path(cc).name} V{version} {source} {variant}"
                if code != base[0]:
                    errors.append(f"{label}: the code differs from the kernel without tband")
                if symbols != base[1]:
                    errors.append(f"{label}: the symbols differ from the kernel without tband")
                if re.search(r"tband", symbols, re.IGNORECASE):
                    errors.append(f"{label}: names tband: {symbols}")
            traced_code, traced_symbols = prints["traced"]
            if source in SWITCHED_HOOKS:
                prefix = SWITCHED_HOOKS[source]
                if prefix in prints["objects_off"][1]:
                    errors.append(f"{Path(cc).name} V{version} {source} objects_off: still calls {prefix}*")
                if prefix not in traced_symbols:
                    errors.append(f"{Path(cc).name} V{version} {source}: with tracing on it should call {prefix}*")
            if traced_code == base[0] or "tband_freertos_hook_" not in traced_symbols:
                errors.append(f"{Path(cc).name} V{version} {source}: with tracing on the kernel should call tband")
            print(f"{Path(cc).name} {' '.join(flags)} V{version} {source}: tracing off ({', '.join(off)}) = "
                  f"no tband: {'same' if len(errors) == known else 'DIFFERENT'}; on: "
                  f"{len(re.findall(r'tband_freertos_hook_', traced_symbols))} hook symbols")
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cc", required=True, help="host C compiler")
    parser.add_argument("--arm-cc", help="arm-none-eabi-gcc (the Cortex-M4 check is skipped without it)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    errors = check(args.cc, ["-O2"], ("objdump", "nm"), args.out)
    if args.arm_cc:
        prefix = args.arm_cc[: -len("gcc")]
        errors += check(args.arm_cc, ["-mcpu=cortex-m4", "-mthumb", "-Os"], (prefix + "objdump", prefix + "nm"),
                        args.out)
    else:
        print("arm-none-eabi-gcc not given: the Cortex-M4 check is skipped (the host check ran)")
    for error in errors:
        print("error:", error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
