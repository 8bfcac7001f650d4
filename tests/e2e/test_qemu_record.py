"""`tband record` capturing the demo firmware live from QEMU: the UART on a
TCP server chardev (`-chardev socket,...,server=on`), recorded over TCP while
the firmware runs. The same chardev logs every byte the firmware wrote to it
into a file (`logfile=`), so the recording must equal, byte for byte, the
file capture of the same run.

The file capture comes from the same run, not from a second `-serial file:`
run: -icount makes a run's instruction count deterministic, but with a
socket chardev QEMU's main loop has events to handle, and on a busy machine
these shifted a few timestamps between two runs (seen in CI); what tband
receives is what matters here, so the test compares it with what the same
run sent."""

from __future__ import annotations

import subprocess
import unittest

from tests.cli.recording import Recording, reserve_port

from . import qemu
from .support import FirmwareTestCase


class QemuRecordTest(FirmwareTestCase):
    def test_live_recording_equals_the_file_capture(self) -> None:
        elf = self.firmware / "demo_streaming.elf"
        sent = self.out / "sent.bin"  # every byte the firmware wrote to the UART's chardev
        port = reserve_port(self)
        live = self.out / "live.bin"
        pftrace = self.out / "live.pftrace"
        # QEMU waits for the connection before it starts the firmware; tband
        # keeps trying until QEMU listens. Either may start first.
        chardev = f"socket,id=uart0,host=127.0.0.1,port={port},server=on,wait=on,logfile={sent},logappend=off"
        emulator = subprocess.Popen(
            [qemu.QEMU, *qemu.BASE_ARGS, "-monitor", "none", "-chardev", chardev, "-serial", "chardev:uart0",
             "-kernel", str(elf)],
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
        self.assertGreater(len(sent.read_bytes()), 10000)
        self.assertEqual(live.read_bytes(), sent.read_bytes(), "live recording differs from the file capture")
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
