"""The Cortex-M4 cycle model (target/bench/cm4_cycle_model.py): its instruction
table on single instructions and a hand-made trace, and on a real benchmark
image under QEMU, where its instruction counts must equal QEMU's own."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "target" / "bench"))

import cm4_cycle_model as model  # noqa: E402


def insn(address: int, text: str, size: int = 2) -> model.Instruction:
    mnemonic, _, operands = text.partition(" ")
    return model.classify(address, size, mnemonic, operands.strip())


class Classify(unittest.TestCase):
    def test_loads_and_stores(self):
        load = insn(0, "ldr r3, [r2, #4]")
        self.assertEqual((load.kind, load.base_cycles, load.transfers, load.address_registers),
                         ("load", 2, 1, ("r2",)))
        self.assertEqual(insn(0, "ldrbeq r1, [r0]").kind, "load")
        self.assertEqual(insn(0, "str.w r3, [r2, #4]", 4).base_cycles, 1, "immediate offset: the write buffer")
        self.assertEqual(insn(0, "str r3, [r2, r1]").base_cycles, 2, "register offset")
        self.assertEqual((insn(0, "ldrd r2, r3, [r0]", 4).base_cycles, insn(0, "strd r2, r3, [r0]", 4).transfers),
                         (3, 2))

    def test_multiple_transfers(self):
        push = insn(0, "push {r4, r5, r6, lr}")
        self.assertEqual((push.kind, push.base_cycles, push.transfers, push.address_registers),
                         ("store_multi", 5, 4, ("sp",)))
        pop = insn(0, "pop {r4, pc}")
        self.assertEqual((pop.kind, pop.base_cycles, pop.writes_pc), ("load_multi", 3, True))
        self.assertFalse(insn(0, "pop {r4, r5}").writes_pc)

    def test_branches_and_lookalikes(self):
        for text in ("b.n 0x20", "beq.n 0x20", "bls.w 0x20", "bl 0x20", "bx lr", "cbz r0, 0x20", "blx r3"):
            with self.subTest(text=text):
                self.assertEqual(insn(0, text).kind, "branch")
        for text in ("bic r0, r0, #1", "bfi r0, r1, #0, #8", "bics r0, r1"):
            with self.subTest(text=text):
                self.assertEqual(insn(0, text).kind, "alu")
        self.assertEqual(insn(0, "tbb [pc, r3]", 4).kind, "table_branch")
        self.assertEqual(insn(0, "udiv r0, r0, r1", 4).base_cycles, model.DIVIDE_CYCLES)

    def test_destinations(self):
        self.assertEqual(insn(0, "adds r3, #1").writes, ("r3",))
        self.assertEqual(insn(0, "cmp r3, #1").writes, ())
        self.assertEqual(insn(0, "pld [r1, #64]", 4).writes, ())
        self.assertEqual(insn(0, "umull r0, r1, r2, r3", 4).writes, ("r0", "r1"))
        self.assertEqual(insn(0, "mov ip, r0").writes, ("r12",))


class Walk(unittest.TestCase):
    def test_hand_made_trace(self):
        program = [
            insn(0x10, "bl 0x100", 4),         # the call into the phase (outside it)
            insn(0x14, "nop"),
            insn(0x100, "ldr r0, [r1]"),       # 2
            insn(0x102, "ldr r2, [r3]"),       # 1: pipelined after a load
            insn(0x104, "adds r3, #1"),        # 1
            insn(0x106, "ldr r4, [r3]"),       # 2 + 1: its address is the last result
            insn(0x108, "bne.n 0x104"),        # 1 + P taken, 1 not
            insn(0x10a, "bx lr"),              # 1 + P
        ]
        walk = model.Walk({i.address: i for i in program}, {0x100: "run_x"})
        for pc in (0x10, 0x100, 0x102, 0x104, 0x106, 0x108, 0x104, 0x106, 0x108, 0x10a, 0x14):
            walk.step(pc)
        totals = walk.phases["run_x"]
        p = model.REFILL_CYCLES
        self.assertEqual(totals.instructions, 9)
        self.assertEqual(totals.cycles, 2 + 1 + 1 + 3 + (1 + p) + 1 + 3 + 1 + (1 + p))
        self.assertEqual((totals.loads, totals.stores, totals.taken_branches, totals.other_branches), (4, 0, 2, 1))

    def test_isb_refills_the_pipeline_without_a_branch(self):
        program = [insn(0x10, "bl 0x100", 4), insn(0x14, "nop"), insn(0x100, "isb sy", 4), insn(0x104, "bx lr")]
        walk = model.Walk({i.address: i for i in program}, {0x100: "run_x"})
        for pc in (0x10, 0x100, 0x104, 0x14):
            walk.step(pc)
        totals = walk.phases["run_x"]
        p = model.REFILL_CYCLES
        self.assertEqual((totals.cycles, totals.taken_branches), ((1 + p) + (1 + p), 1))

    def test_unknown_address_is_an_error(self):
        walk = model.Walk({0x10: insn(0x10, "nop")}, {0x100: "run_x"})
        walk.step(0x10)
        with self.assertRaisesRegex(model.ModelError, "0x200"):
            walk.step(0x200)


TOOLS = ("arm-none-eabi-g++", "arm-none-eabi-gcc", "arm-none-eabi-objdump", "qemu-system-arm")


@unittest.skipIf([t for t in TOOLS if shutil.which(t) is None],
                 f"needs {', '.join(TOOLS)}: the Cortex-M4 image under QEMU skipped")
class OnARealImage(unittest.TestCase):
    def test_counts_what_qemu_counts(self):
        import run_cm4_hook_count as bench
        with tempfile.TemporaryDirectory(prefix="tband_cycle_model_") as scratch:
            out = Path(scratch)
            subprocess.run([sys.executable, "-m", "codegen", "--quiet", "--schema-dir", str(ROOT / "schema"),
                            "--out", str(out / "generated")], cwd=ROOT, check=True)
            elf = bench.build(out, "snapshot", "config_snapshot", False, "-Os", out / "generated" / "target",
                              out / "barectf")
            figures = bench.count(elf)
            run = model.trace(elf)
        calibration = run.per_call("calibration", "calibration_100_nops")
        self.assertAlmostEqual(calibration["instructions"], 100.0, delta=0.01)
        self.assertAlmostEqual(calibration["cycles"], 100.0, delta=0.01, msg="a NOP is one cycle")
        for kind in bench.KINDS:
            with self.subTest(kind=kind):
                modelled = run.per_call(kind)
                self.assertAlmostEqual(modelled["instructions"], figures[kind], delta=0.05)
                self.assertGreater(modelled["cycles"], modelled["instructions"])
                self.assertGreater(modelled["loads"], 0)
                self.assertGreater(modelled["stores"], 0)


if __name__ == "__main__":
    unittest.main()
