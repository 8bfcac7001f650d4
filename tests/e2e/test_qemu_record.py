"""`tband record` capturing the demo firmware live from QEMU: the UART on
`-serial tcp:127.0.0.1:PORT,server`, recorded over TCP while the firmware
runs. With -icount the run is deterministic, so the recording must equal,
byte for byte, a `-serial file:` capture of the same run."""

from __future__ import annotations

import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.cli.recording import Recording, unused_port

from . import qemu
from .support import path_from_env, require_qemu_and_firmware


class QemuRecordTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.firmware = require_qemu_and_firmware()
        cls.cli = path_from_env("TBAND_CLI")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_live_recording_equals_the_file_capture(self) -> None:
        elf = self.firmware / "demo_streaming.elf"
        reference = self.out / "reference.bin"
        self.assertEqual(qemu.run_to_exit(elf, reference), 0)

        port = unused_port()
        live = self.out / "live.bin"
        pftrace = self.out / "live.pftrace"
        # QEMU waits for the connection before it starts the firmware; tband
        # keeps trying until QEMU listens. Either may start first.
        emulator = subprocess.Popen(
            [qemu.QEMU, *qemu.BASE_ARGS, "-monitor", "none",
             "-serial", f"tcp:127.0.0.1:{port},server=on,wait=on", "-kernel", str(elf)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        recording = Recording([f"tcp:127.0.0.1:{port}", "-o", live, "--mode", "bare-metal",
                               "--connect-timeout", "120s", "--pftrace", pftrace], tband=self.cli)
        try:
            status = recording.finish(timeout=300)  # ends when QEMU exits and closes the connection
            self.assertEqual(emulator.wait(timeout=300), 0, "firmware exit status")
        finally:
            recording.kill()
            if emulator.poll() is None:
                emulator.kill()
                emulator.wait()
            emulator.stderr.close()
        err = recording.stderr()
        self.assertEqual(status, 0, err)
        self.assertGreater(len(reference.read_bytes()), 10000)
        self.assertEqual(live.read_bytes(), reference.read_bytes(), "live recording differs from the file capture")
        self.assertIn("(the source ended)", err)
        self.assertIn("0 dropped on the target", err)
        self.assertNotIn("warning", err)
        self.assertIn("converted", err)
        self.assertGreater(pftrace.stat().st_size, 1000)

        # The recording converts cleanly, as the file capture does.
        conv = subprocess.run([str(self.cli), "conv", "--strict", "--mode", "bare-metal", str(live),
                               "-o", str(self.out / "conv.pftrace")], capture_output=True, text=True, timeout=300)
        self.assertEqual(conv.returncode, 0, conv.stderr)


if __name__ == "__main__":
    unittest.main()
