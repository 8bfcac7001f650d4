#!/usr/bin/env python3
"""Runs one ARM_CM4F firmware (main.c) under QEMU's mps2-an386 and checks its
trace with the checker (cm4f_trace_test.cpp). Exit 77 (skipped) when
qemu-system-arm is missing.

  run_in_qemu.py --elf freertos_cm4f_<id>.elf --checker <cm4f_trace_test> --out <dir>

-icount counts instructions instead of following the host clock, so a run
gives the same bytes on a loaded machine as on an idle one."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

QEMU = "qemu-system-arm"
SKIPPED = 77
# The firmware's exit statuses (main.c).
STATUSES = {2: "a kernel assertion failed", 3: "a fault", 4: "the worker did not inherit control's priority",
            5: "setting up the kernel objects failed"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--elf", type=Path, required=True)
    parser.add_argument("--checker", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    if shutil.which(QEMU) is None:
        print(f"{QEMU} is not installed: the ARM_CM4F real-kernel test is skipped")
        return SKIPPED
    args.out.mkdir(parents=True, exist_ok=True)
    uart = args.out / (args.elf.stem + ".uart.bin")
    uart.unlink(missing_ok=True)
    command = [QEMU, "-M", "mps2-an386", "-display", "none", "-monitor", "none",
               "-semihosting-config", "enable=on,target=native", "-icount", "shift=5,align=off,sleep=off",
               "-serial", f"file:{uart}", "-kernel", str(args.elf)]
    print(" ".join(command), flush=True)
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    except subprocess.TimeoutExpired:
        print("the firmware did not end within 240 s (it ends itself after its last item)")
        return 1
    if run.returncode != 0 or run.stderr.strip():
        tail = uart.read_bytes()[-200:] if uart.exists() else b""
        print(f"firmware exit status {run.returncode} ({STATUSES.get(run.returncode, 'unexpected')}); "
              f"qemu: {run.stderr.strip()}; UART tail: {tail!r}")
        return 1
    env = dict(os.environ, TBAND_CM4F_TRACE=str(uart), TBAND_CM4F_NAME=args.elf.stem)
    return subprocess.run([str(args.checker)], env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
