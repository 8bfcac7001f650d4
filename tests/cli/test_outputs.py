"""Output files never cost a user a file: every command that writes goes
through a temporary file renamed into place on success, checks its inputs
before touching an output, refuses an output that is an input or another
output, and writes special files (FIFOs, /dev/null) directly without ever
removing them."""
import os
import signal
import stat
import subprocess
import threading
import time
import unittest
from pathlib import Path

from .recording import reserve_port
from .support import TBAND, run
from .test_cli import CliTestCase

OLD = b"the user's own file: must survive\n"


class OutputFiles(CliTestCase):
    def keep(self, name, data=OLD):
        path = self.tmp / name
        path.write_bytes(data)
        return path

    def assertUnchanged(self, path, data=OLD):
        self.assertEqual(path.read_bytes(), data, f"{path} was changed")

    def assertNoTemporaries(self, folder=None):
        left = [p.name for p in (folder or self.tmp.path).iterdir() if ".tband-" in p.name]
        self.assertEqual(left, [], "temporary files left behind")

    # ---- a failing run leaves every output as it was --------------------------------

    def test_missing_input_keeps_an_existing_output(self):
        keep = self.keep("keep.txt")
        proc = run(["conv", str(self.tmp / "missing.bin"), "--json", str(keep)])
        self.assertExit(proc, 3)
        self.assertIn("missing.bin: No such file", proc.stderr)
        self.assertUnchanged(keep)
        self.assertNoTemporaries()

    def test_a_bad_second_output_keeps_the_first(self):
        out = self.keep("out.pftrace")
        proc = run(["conv", str(self.trace("baremetal")), "-o", str(out), "--json", "/no/such/dir/x.json"])
        self.assertExit(proc, 4)
        self.assertIn("/no/such/dir/x.json: the folder /no/such/dir does not exist", proc.stderr)
        self.assertUnchanged(out)
        self.assertNoTemporaries()

    def test_undecodable_input_keeps_existing_outputs(self):
        garbage = self.keep("garbage.bin", bytes((i * 97 + 13) % 256 for i in range(5000)))
        out, js = self.keep("g.pftrace"), self.keep("g.json")
        proc = run(["conv", str(garbage), "-o", str(out), "--json", str(js)])
        self.assertExit(proc, 3)
        self.assertUnchanged(out)
        self.assertUnchanged(js)
        self.assertNoTemporaries()

    def test_success_replaces_the_file_and_keeps_its_mode(self):
        out = self.keep("ok.pftrace")
        out.chmod(0o640)
        proc = run(["conv", str(self.trace("baremetal")), "-o", str(out)])
        self.assertExit(proc, 0)
        self.assertNotEqual(out.read_bytes(), OLD)
        self.assertEqual(stat.S_IMODE(out.stat().st_mode), 0o640)
        self.assertNoTemporaries()

    def test_a_new_file_gets_the_usual_mode(self):
        out = self.tmp / "new.pftrace"
        self.assertExit(run(["conv", str(self.trace("baremetal")), "-o", str(out)]), 0)
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE(out.stat().st_mode), 0o666 & ~umask)

    def test_a_symbolic_link_keeps_pointing_at_the_new_file(self):
        target = self.keep("target.pftrace")
        link = self.tmp / "link.pftrace"
        link.symlink_to(target)
        self.assertExit(run(["conv", str(self.trace("baremetal")), "-o", str(link)]), 0)
        self.assertTrue(link.is_symlink())
        self.assertNotEqual(target.read_bytes(), OLD)
        self.assertNoTemporaries()

    # ---- the same file twice ----------------------------------------------------------

    def test_output_that_is_the_input_is_refused(self):
        trace = self.trace("baremetal")
        before = trace.read_bytes()
        proc = run(["conv", str(trace), "-o", str(trace)])
        self.assertExit(proc, 2)
        self.assertIn("is the same file as the input", proc.stderr)
        self.assertEqual(trace.read_bytes(), before)

    def test_output_that_is_the_input_under_another_name_is_refused(self):
        trace = self.trace("baremetal")
        before = trace.read_bytes()
        hard = self.tmp / "hard.bin"
        os.link(trace, hard)
        for other in (hard, self.tmp.path / "." / "baremetal.bin"):
            with self.subTest(other=str(other)):
                proc = run(["conv", str(trace), "--json", str(other)])
                self.assertExit(proc, 2)
                self.assertEqual(trace.read_bytes(), before)

    def test_two_outputs_to_one_file_are_refused(self):
        trace = self.trace("baremetal")
        for exists in (False, True):
            with self.subTest(exists=exists):
                same = self.tmp / "same.out"
                if exists:
                    same.write_bytes(OLD)
                proc = run(["conv", str(trace), "-o", str(same), "--json", str(self.tmp.path / "." / "same.out")])
                self.assertExit(proc, 2)
                self.assertIn("is the same file as the output", proc.stderr)
                if exists:
                    self.assertUnchanged(same)
                else:
                    self.assertFalse(same.exists())

    def test_an_output_folder_is_refused(self):
        proc = run(["conv", str(self.trace("baremetal")), "-o", str(self.tmp.path)])
        self.assertExit(proc, 2)
        self.assertIn("is a folder", proc.stderr)

    # ---- special files ----------------------------------------------------------------

    def test_dev_null_is_written_and_never_removed(self):
        proc = run(["conv", str(self.trace("baremetal")), "-o", "/dev/null", "--json", "/dev/null"])
        self.assertExit(proc, 0)
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
        proc = run(["conv", str(self.tmp / "missing.bin"), "-o", "/dev/null"])
        self.assertExit(proc, 3)
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))

    def test_missing_input_with_a_fifo_output_does_not_block(self):
        fifo = self.tmp / "out.fifo"
        os.mkfifo(fifo)
        proc = run(["conv", str(self.tmp / "missing.bin"), "-o", str(fifo)], timeout=20)
        self.assertExit(proc, 3)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))

    def test_a_fifo_output_is_written_directly_and_kept(self):
        fifo = self.tmp / "out.fifo"
        os.mkfifo(fifo)
        received = []
        reader = threading.Thread(target=lambda: received.append(Path(fifo).read_bytes()))
        reader.start()
        proc = run(["conv", str(self.trace("baremetal")), "--json", str(fifo)], timeout=60)
        reader.join(60)
        self.assertExit(proc, 0)
        self.assertTrue(received and received[0].startswith(b"{"))
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertNoTemporaries()

    # ---- interrupted ------------------------------------------------------------------

    def test_ctrl_c_mid_conversion_leaves_no_temporary_file(self):
        """The input is a FIFO that stays open, so the conversion is still
        running when it gets SIGINT; the output's temporary file exists then."""
        fifo = self.tmp / "in.fifo"
        os.mkfifo(fifo)
        out = self.keep("out.pftrace")
        data = self.trace("baremetal").read_bytes()
        writer_done = threading.Event()

        def write_and_hold():
            try:
                with open(fifo, "wb") as w:
                    w.write(data)
                    w.flush()
                    writer_done.wait(60)
            except BrokenPipeError:
                pass  # the reader was interrupted: expected

        writer = threading.Thread(target=write_and_hold)
        writer.start()
        proc = subprocess.Popen([TBAND, "conv", "--no-progress", str(fifo), "-o", str(out)],
                                stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while not any(".tband-" in p.name for p in self.tmp.path.iterdir()):
                self.assertLess(time.monotonic(), deadline, "the output's temporary file never appeared")
                time.sleep(0.02)
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.wait(30), -signal.SIGINT)
        finally:
            writer_done.set()
            writer.join(60)
            if proc.poll() is None:
                proc.kill()
            proc.stderr.close()
        self.assertUnchanged(out)
        self.assertNoTemporaries()

    # ---- the other commands that write --------------------------------------------------

    def test_stats_report_and_junit_follow_the_same_rules(self):
        trace = self.trace("baremetal")
        before = trace.read_bytes()
        rules = self.keep("rules.yaml", b"rules:\n  - isr.tick.count > 0\n")
        cases = [
            (["stats", str(trace), "-o", str(trace)], 2),
            (["report", str(trace), "-o", str(trace)], 2),
            (["check", "-r", str(rules), str(trace), "--junit", str(rules)], 2),
            (["report", str(trace), "-o", "/no/such/dir/r.html"], 4),
        ]
        for args, code in cases:
            with self.subTest(args=args[0]):
                self.assertExit(run(args), code)
                self.assertEqual(trace.read_bytes(), before)
                self.assertUnchanged(rules, b"rules:\n  - isr.tick.count > 0\n")
        keep = self.keep("stats.txt")
        self.assertExit(run(["stats", str(self.tmp / "missing.bin"), "-o", str(keep)]), 3)
        self.assertUnchanged(keep)
        self.assertExit(run(["stats", str(trace), "-o", str(keep)]), 0)
        self.assertNotEqual(keep.read_bytes(), OLD)
        self.assertNoTemporaries()

    def test_record_that_never_connects_keeps_existing_files(self):
        out, pf = self.keep("rec.bin"), self.keep("rec.pftrace")
        proc = run(["record", f"tcp:127.0.0.1:{reserve_port(self)}", "-o", str(out), "--pftrace", str(pf),
                    "--connect-timeout", "300ms", "--quiet"], timeout=30)
        self.assertExit(proc, 3)
        self.assertUnchanged(out)
        self.assertUnchanged(pf)

    def test_record_output_that_is_also_the_conversion_is_refused(self):
        out = self.keep("rec.bin")
        proc = run(["record", f"tcp:127.0.0.1:{reserve_port(self)}", "-o", str(out), "--json", str(out),
                    "--connect-timeout", "300ms"], timeout=30)
        self.assertExit(proc, 2)
        self.assertUnchanged(out)


if __name__ == "__main__":
    unittest.main()
