"""A Cortex-M4 cycle model for the hook benchmark, from the instructions QEMU executes.

QEMU does not model the Cortex-M4's cycle counter (DWT CYCCNT), so this
stands in for it: QEMU runs the benchmark image one instruction per
translation block (`-singlestep -d exec,nochain`) and logs the address of
every instruction it executes; each address is looked up in the image's
disassembly and charged the cycles of the Cortex-M4 Technical Reference
Manual's instruction table (zero wait states, as the mps2-an386's SRAM):

- data processing, moves, multiplies (32 and 64-bit), IT, NOP: 1 cycle;
- a single load (LDR, LDRB, LDRH, LDRSB, LDRSH, LDREX): 2 cycles, 1 when it
  directly follows a single load (the TRM's pipelined neighbouring loads);
- a single store with an immediate or no offset: 1 cycle (the write buffer
  takes it); with a register offset 2, 1 after a single load;
- a load or store whose address uses the register the instruction before
  wrote: one more cycle (no forwarding path for addresses);
- LDRD, STRD: 3; LDM, STM, PUSH, POP of N registers: 1 + N;
- a branch (B, BL, BX, BLX, CBZ, CBNZ; POP, LDM or LDR into PC; MOV or ADD
  to PC): 1, plus P for the pipeline refill when it is taken (taken: the
  next executed address is not the next instruction's); TBB, TBH: 2 + P;
- a divide: 12 (the TRM's worst case, 2 to 12 by operand size);
- DMB, DSB: 1; ISB: 1 + P.

P, the refill, is 1 to 3 cycles by the TRM (the target's alignment and
width, early speculation); the model uses 2 and reports the taken branches
apart, so that 1 or 3 can be read off. Not modelled: flash wait states and
the fetch unit's contention with PC-relative loads (both zero or rare on
the SRAM this image runs from), and conditional instructions an IT block
skips (charged as executed, as QEMU counts them).

A phase is one call of a benchmark loop function (run_X or baseline_X in
cm4/hook_count.cpp): from its entry to the return address of the call that
entered it, callees included.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

REFILL_CYCLES = 2
DIVIDE_CYCLES = 12
CONDITIONS = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al"}
SINGLE_LOADS = {"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrex", "ldrexb", "ldrexh", "ldrt", "ldrbt", "ldrht"}
SINGLE_STORES = {"str", "strb", "strh", "strex", "strexb", "strexh", "strt", "strbt", "strht"}
MULTI_LOADS = {"ldm", "ldmia", "ldmfd", "ldmdb", "ldmea", "pop"}
MULTI_STORES = {"stm", "stmia", "stmea", "stmdb", "stmfd", "push"}
BRANCHES = {"b", "bl", "blx", "bx", "cbz", "cbnz"}
NO_DESTINATION = {"cmp", "cmn", "tst", "teq", "nop", "it", "pld", "pli", "cpsid", "cpsie", "msr", "dmb", "dsb", "isb", "bkpt",
                  "svc", "wfi", "wfe", "sev", "yield"}
REGISTER = re.compile(r"\b(r1[0-2]|r[0-9]|sp|lr|pc|ip|fp|sl|sb)\b")
ALIASES = {"ip": "r12", "fp": "r11", "sl": "r10", "sb": "r9"}


class ModelError(Exception):
    pass


def _registers(text: str) -> list[str]:
    return [ALIASES.get(r, r) for r in REGISTER.findall(text)]


def _base_mnemonic(mnemonic: str) -> str:
    """'beq.n' -> 'b', 'ldrbeq' -> 'ldrb', 'adds.w' -> 'add': the operation without width, condition or flags."""
    m = mnemonic.split(".")[0]
    if m.startswith("it"):
        return "it"
    if m in BRANCHES or m in SINGLE_LOADS | SINGLE_STORES | MULTI_LOADS | MULTI_STORES:
        return m
    if len(m) > 2 and m[-2:] in CONDITIONS and m[:-2] in BRANCHES | SINGLE_LOADS | SINGLE_STORES:
        return m[:-2]
    if m.startswith("b") and m[1:] in CONDITIONS:
        return "b"
    return m


@dataclass(frozen=True)
class Instruction:
    address: int
    size: int
    mnemonic: str
    operands: str
    kind: str  # alu, load, store, load_multi, store_multi, dual, branch, table_branch, divide, barrier_isb
    base_cycles: int
    transfers: int  # words moved to or from memory
    writes: tuple[str, ...]  # registers written (for the address-dependency stall)
    address_registers: tuple[str, ...]  # registers that form a load's or store's address
    pipelines_after_load: bool  # a single load or store that a preceding single load speeds up
    writes_pc: bool  # may change the flow: a branch, or a load or move into PC

    @property
    def end(self) -> int:
        return self.address + self.size


def classify(address: int, size: int, mnemonic: str, operands: str) -> Instruction:
    op = _base_mnemonic(mnemonic)
    regs = _registers(operands.split(";")[0].split("@")[0])
    bracket = re.search(r"\[([^\]]*)\]", operands)
    address_regs = tuple(_registers(bracket.group(1))) if bracket else ()
    first = regs[:1]
    kind, cycles, transfers, writes_pc, pipelined = "alu", 1, 0, False, False
    writes: tuple[str, ...] = tuple(first) if op not in NO_DESTINATION else ()
    if op in SINGLE_LOADS:
        kind, cycles, transfers, pipelined = "load", 2, 1, True
        writes_pc = first == ["pc"]
    elif op in SINGLE_STORES:
        register_offset = len(address_regs) > 1
        kind, cycles, transfers, pipelined = "store", 2 if register_offset else 1, 1, True
        writes = ()
    elif op in ("ldrd", "strd"):
        kind, cycles, transfers = "dual", 3, 2
        writes = tuple(regs[:2]) if op == "ldrd" else ()
    elif op in MULTI_LOADS | MULTI_STORES:
        listed = re.search(r"\{([^}]*)\}", operands)
        if listed is None:
            raise ModelError(f"{address:#x}: {mnemonic} {operands}: no register list")
        count = len(_registers(listed.group(1)))
        kind = "load_multi" if op in MULTI_LOADS else "store_multi"
        cycles, transfers = 1 + count, count
        address_regs = ("sp",) if op in ("push", "pop") else tuple(first)
        writes_pc = kind == "load_multi" and "pc" in _registers(listed.group(1))
        writes = ()
    elif op in BRANCHES:
        kind, writes = "branch", ("lr",) if op in ("bl", "blx") else ()
        writes_pc = True
    elif op in ("tbb", "tbh"):
        kind, cycles, writes_pc, writes = "table_branch", 2, True, ()
    elif op in ("udiv", "sdiv"):
        kind, cycles = "divide", DIVIDE_CYCLES
    elif op == "isb":
        kind = "barrier_isb"
    elif first == ["pc"] and op in ("mov", "add"):
        kind, writes_pc, writes = "branch", True, ()
    elif op in ("umull", "smull", "umlal", "smlal"):
        writes = tuple(regs[:2])
    return Instruction(address, size, mnemonic, operands, kind, cycles, transfers, writes, address_regs, pipelined,
                       writes_pc)


LINE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4}\s?){1,2})\s+(\S+)\s*(.*)$")


def disassemble(elf: Path) -> dict[int, Instruction]:
    """Every instruction of the image's code, by address (data words left out)."""
    listing = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True, check=True)
    table: dict[int, Instruction] = {}
    for line in listing.stdout.splitlines():
        match = LINE.match(line)
        if not match or match.group(3).startswith("."):
            continue
        address = int(match.group(1), 16)
        halfwords = match.group(2).split()
        size = 2 * len(halfwords) if all(len(h) == 4 for h in halfwords) else 4
        table[address] = classify(address, size, match.group(3), match.group(4))
    return table


def phase_entries(elf: Path) -> dict[int, str]:
    """The benchmark loop functions' entry addresses: {address: 'run_isr_enter', ...}."""
    symbols = subprocess.run(["arm-none-eabi-nm", "-C", str(elf)], capture_output=True, text=True, check=True)
    entries = {}
    for line in symbols.stdout.splitlines():
        match = re.match(r"^([0-9a-f]+) [tT] \(anonymous namespace\)::((?:run|baseline)_\w+)\(\)$", line)
        if match:
            entries[int(match.group(1), 16) & ~1] = match.group(2)
    if not entries:
        raise ModelError(f"{elf}: no run_*/baseline_* functions")
    return entries


@dataclass
class Totals:
    instructions: int = 0
    cycles: int = 0
    loads: int = 0  # words read (single, dual and multiple transfers)
    stores: int = 0  # words written
    taken_branches: int = 0
    other_branches: int = 0  # branch instructions not taken


@dataclass
class Walk:
    table: dict[int, Instruction]
    entries: dict[int, str]
    phases: dict[str, Totals] = field(default_factory=dict)
    _phase: str | None = None
    _return_to: int = -1
    _prev: Instruction | None = None
    _prev_totals: Totals | None = None

    def step(self, pc: int) -> None:
        prev = self._prev
        if prev is not None and self._prev_totals is not None:
            self._finish_branch(prev, pc, self._prev_totals)
        if pc in self.entries:
            if self._phase is not None:
                raise ModelError(f"{self.entries[pc]} entered inside {self._phase}")
            if prev is None:
                raise ModelError(f"{self.entries[pc]} entered first")
            self._phase, self._return_to = self.entries[pc], prev.end
        elif pc == self._return_to:
            self._phase, self._return_to = None, -1
        insn = self.table.get(pc)
        if insn is None:
            raise ModelError(f"executed {pc:#x}, which the disassembly does not hold")
        if self._phase is None:
            self._prev, self._prev_totals = insn, None
            return
        totals = self.phases.setdefault(self._phase, Totals())
        cycles = insn.base_cycles
        if (prev is not None and prev.kind == "load" and not prev.writes_pc and insn.pipelines_after_load
                and not set(prev.writes) & set(insn.address_registers)):
            cycles = 1
        if prev is not None and insn.address_registers and set(prev.writes) & set(insn.address_registers) \
                and prev.kind == "alu":
            cycles += 1
        totals.instructions += 1
        totals.cycles += cycles
        if insn.kind in ("load", "load_multi") or (insn.kind == "dual" and insn.mnemonic.startswith("ldr")):
            totals.loads += insn.transfers
        elif insn.kind in ("store", "store_multi", "dual"):
            totals.stores += insn.transfers
        self._prev, self._prev_totals = insn, totals

    @staticmethod
    def _finish_branch(prev: Instruction, pc: int, totals: Totals) -> None:
        """Charges the refill to the instruction that changed the flow, once the next address is known."""
        if prev.kind == "barrier_isb":  # flushes the pipeline whatever comes next
            totals.cycles += REFILL_CYCLES
            return
        flow = prev.kind in ("branch", "table_branch") or prev.writes_pc
        if not flow:
            return
        if pc != prev.end:
            totals.taken_branches += 1
            totals.cycles += REFILL_CYCLES
        else:
            totals.other_branches += 1


QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-monitor", "none",
        "-semihosting-config", "enable=on,target=native", "-icount", "shift=0,align=off,sleep=off"]
TRACE_LINE = re.compile(rb"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


@dataclass
class Run:
    phases: dict[str, Totals]
    calls: dict[str, int]  # calls per loop, as the image reports them ("calls <name> <n>")

    def per_call(self, name: str, reported_as: str | None = None) -> dict[str, float]:
        """A hook's figures per call: its loop minus the same loop without the calls, over the calls.

        name: the loops' (run_<name>, baseline_<name>); reported_as: the name the image reports it under, if
        another (the NOP loops are "calibration_100_nops")."""
        run, base = self.phases[f"run_{name}"], self.phases[f"baseline_{name}"]
        calls = self.calls[reported_as or name]
        return {key: (getattr(run, key) - getattr(base, key)) / calls
                for key in ("instructions", "cycles", "loads", "stores", "taken_branches")}


def trace(elf: Path, timeout: int = 600) -> Run:
    """Runs the image in QEMU, one instruction per block, and walks every executed address through the model."""
    walk = Walk(disassemble(elf), phase_entries(elf))
    with tempfile.TemporaryDirectory(prefix="tband_cm4_cycles_") as scratch:
        fifo = Path(scratch) / "exec.log"
        os.mkfifo(fifo)
        with subprocess.Popen([*QEMU, "-singlestep", "-d", "exec,nochain", "-D", str(fifo), "-serial", "stdio",
                               "-kernel", str(elf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as qemu:
            output: list[bytes] = []
            errors: list[bytes] = []
            readers = [threading.Thread(target=lambda: output.append(qemu.stdout.read()), daemon=True),
                       threading.Thread(target=lambda: errors.append(qemu.stderr.read()), daemon=True)]
            for reader in readers:
                reader.start()
            try:
                with open(fifo, "rb", buffering=1 << 20) as log:
                    for line in log:
                        match = TRACE_LINE.match(line)
                        if match:
                            walk.step(int(match.group(1), 16))
                qemu.wait(timeout=timeout)
            finally:
                if qemu.poll() is None:
                    qemu.kill()
                    qemu.wait()
                for reader in readers:
                    reader.join(timeout=10)
    text = b"".join(output).decode(errors="replace")
    if qemu.returncode != 0 or "done" not in text:
        raise ModelError(f"{elf}: QEMU exited with {qemu.returncode}:\n{text}{b''.join(errors).decode()}")
    calls = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] == "calls" and fields[2].isdigit():
            calls[fields[1]] = int(fields[2])
    return Run(walk.phases, calls)
