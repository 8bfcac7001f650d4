"""Runs the demo firmware under QEMU's mps2-an386 board.

`-icount shift=5,align=off,sleep=off` makes QEMU count instructions instead of
following the host clock, so the firmware's time does not depend on the
host's speed. Runs on an idle machine usually give the same bytes, but not
always on a busy one (interrupts delivered at other instructions): tests do
not compare two runs.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

QEMU = "qemu-system-arm"
BASE_ARGS = [
    "-M", "mps2-an386",
    "-display", "none",
    "-semihosting-config", "enable=on,target=native",
    "-icount", "shift=5,align=off,sleep=off",
]
RAM_START = 0x20000000
RAM_SIZE = 0x400000


def available() -> bool:
    return shutil.which(QEMU) is not None


def run_to_exit(elf: Path, serial_out: Path, timeout: float = 120) -> int:
    """Runs until the firmware ends itself (semihosting exit); returns its status.
    Everything the firmware writes to UART0 lands unchanged in serial_out."""
    result = subprocess.run(
        [QEMU, *BASE_ARGS, "-monitor", "none", "-serial", f"file:{serial_out}", "-kernel", str(elf)],
        capture_output=True, text=True, timeout=timeout, check=False)
    if result.stderr.strip():
        raise RuntimeError(f"qemu: {result.stderr.strip()}")
    return result.returncode


def run_until_fault_and_dump_ram(elf: Path, serial_out: Path, dump_out: Path, timeout: float = 60) -> None:
    """Runs until the firmware prints FAULT on UART0, then saves all of RAM to
    dump_out through QEMU's monitor, as a debugger attached after a crash would."""
    with tempfile.TemporaryDirectory() as tmp:
        sock_path = os.path.join(tmp, "monitor.sock")
        qemu = subprocess.Popen(
            [QEMU, *BASE_ARGS, "-monitor", f"unix:{sock_path},server,nowait", "-serial", f"file:{serial_out}",
             "-kernel", str(elf)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + timeout
            while b"FAULT" not in (serial_out.read_bytes() if serial_out.exists() else b""):
                if qemu.poll() is not None:
                    raise RuntimeError(f"qemu ended before the fault (status {qemu.returncode}): "
                                       f"{qemu.stderr.read().decode()}")
                if time.monotonic() > deadline:
                    raise TimeoutError("no FAULT on the UART")
                time.sleep(0.02)
            monitor = _Monitor(sock_path)
            monitor.command("stop")
            monitor.command(f'pmemsave {RAM_START:#x} {RAM_SIZE:#x} "{dump_out}"')
            monitor.command("quit")
            qemu.wait(timeout=30)
        finally:
            if qemu.poll() is None:
                qemu.kill()
                qemu.wait()
    if not dump_out.exists() or dump_out.stat().st_size != RAM_SIZE:
        raise RuntimeError("the RAM dump was not written")


class _Monitor:
    """QEMU's human monitor over a Unix socket: one command at a time."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self._read_until_prompt()

    def _read_until_prompt(self) -> str:
        data = b""
        self.sock.settimeout(30)
        while not data.rstrip().endswith(b"(qemu)"):
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            data += chunk
        return data.decode(errors="replace")

    def command(self, text: str) -> str:
        self.sock.sendall(text.encode() + b"\n")
        return "" if text == "quit" else self._read_until_prompt()
