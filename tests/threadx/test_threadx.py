"""ThreadX trace buffers (issue 25): tband conv/stats/check on buffers the
real ThreadX kernel wrote (vectors/, README.md there), read back from the
.pftrace and checked against what the scenario did (its `fact` lines) and
against the buffer's entries parsed here on their own; bad buffers made
from a real one give a clear error or a diagnostic, never a crash; with a
ThreadX tree (THREADX_PATH), the scenario runs again and its fresh buffers
get the same checks, and so does the scenario on ThreadX's Cortex-M4 port
under QEMU (CortexM4)."""
import collections
import json
import os
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.cli.support import TraceView, run

HERE = Path(__file__).resolve().parent
VECTORS = HERE / "vectors"
THREADS = ["System Timer Thread", "consumer", "high", "idle", "low", "producer", "supervisor", "waiter"]
SCHEDULING_IDS = {1, 2, 3, 4, 5, 6}  # resume, suspend, ISR enter/exit, time slice, running: states, not instants


def parse(data):
    """The buffer's header fields and used entries, oldest first: an
    independent reading of the layout in host/THREADX.md."""
    end = "<" if data[:4] == b"BTXT" else ">"
    h = struct.unpack_from(end + "4I2H7I", data, 0)
    base = h[2]
    start, stop, current = h[7] - base, h[8] - base, h[9] - base
    entries = []
    for i in range((stop - start) // 32):
        at = start + (current - start + 32 * i) % (stop - start)
        e = struct.unpack_from(end + "8I", data, at)
        if e[0] != 0 and e[2] != 0xFFFFFFFF:
            entries.append(e)
    return {"endian": end, "mask": h[1], "base": base, "reg": (h[3] - base, h[6] - base), "name_size": h[5],
            "entries": (start, stop), "current": current}, entries


def facts(path):
    return {k: int(v) for _, k, v in (line.split() for line in Path(path).read_text().splitlines())}


def isr_counts(entries):
    """{ISR number: (enter entries, exit entries)}: I2 of ISR enter (3) and exit (4) is the ISR's number."""
    numbers = {e[5] for e in entries if e[2] in (3, 4)}
    return {n: tuple(sum(1 for e in entries if e[2] == i and e[5] == n) for i in (3, 4)) for n in numbers}


class Checks:
    """What every real buffer must show; self.tmp is a folder."""
    conv_args = ()  # options every conv/stats/check of the buffer needs (its clock rate)
    allowed = ("dropped_events",)  # diagnostics that `tband check` lets pass

    def convert(self, trx, *extra):
        out = self.tmp / (Path(trx).stem + ".pftrace")
        proc = run(["conv", str(trx), "-o", str(out), *self.conv_args, *extra])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return TraceView(out), proc.stderr

    def check_buffer(self, trx, fact):
        data = Path(trx).read_bytes()
        header, entries = parse(data)
        view, stderr = self.convert(trx)
        self.assertIn("trace buffer wrapped around", stderr)  # all 1000 entries used: the start is lost
        self.assertEqual(view.process_names(), ["Core 0", *THREADS])

        # Every service call and user event is one instant, named from its id.
        counts = collections.Counter(e[2] for e in entries)
        instants = collections.Counter(i["name"] for t in view.tracks.values() for i in t["instants"]
                                       if t["name"] != "Diagnostics")
        self.assertEqual(instants["user_event_4096"], counts[4096])
        self.assertEqual(instants["user_event_4097"], 1)
        self.assertEqual(instants["tx_queue_send"], counts[69])
        self.assertEqual(instants["tx_queue_receive"], counts[68])
        self.assertEqual(instants["tx_mutex_get"], counts[52])
        self.assertEqual(sum(instants.values()), sum(n for i, n in counts.items() if i not in SCHEDULING_IDS))

        # User events: the last rounds, in order, with their four words.
        rounds = [i["args"] for i in view.track("Service calls", "producer")["instants"]
                  if i["name"] == "user_event_4096"]
        self.assertGreater(len(rounds), 10)
        self.assertEqual([r["info1"] for r in rounds], list(range(fact["rounds"] - len(rounds) + 1, fact["rounds"] + 1)))
        self.assertTrue(all(r["info2"] == 5 * r["info1"] and r["info3"] == 0xC0FFEE and r["info4"] == 42
                            for r in rounds))
        done = [i for i in view.track("Service calls", "supervisor")["instants"] if i["name"] == "user_event_4097"]
        self.assertEqual(done[0]["args"], {"info1": fact["rounds"], "info2": fact["received"],
                                           "info3": fact["sem_gets"], "info4": 0})
        sends = [i for i in view.track("Service calls", "producer")["instants"] if i["name"] == "tx_queue_send"]
        self.assertEqual(sends[0]["args"]["queue_ptr"], "work_queue")  # object pointers by their registry name
        self.assertTrue(all(0 <= s["args"]["enqueued"] <= fact["queue_depth"] for s in sends))

        # Priority inheritance: low runs at high's priority while it holds the mutex.
        self.assertEqual([v for _, v in view.track("Priority", "low")["counter"]], [20, 5, 20])
        high_states = [s["name"] for s in view.track("State", "high")["slices"]]
        self.assertIn("Blocked: mutex shared_mutex", high_states)
        self.assertEqual(high_states[-1], "Deleted")  # its entry function returned
        inherit_at = view.track("Priority", "low")["counter"][1][0]
        blocked = next(s for s in view.track("State", "high")["slices"] if s["name"] == "Blocked: mutex shared_mutex")
        self.assertGreaterEqual(inherit_at, blocked["begin"])
        self.assertLessEqual(view.track("Priority", "low")["counter"][2][0], blocked["end"])

        # One thread at a time: the core's running slices do not overlap, and each thread's
        # "Running" slices are its turns on the core.
        running = view.track("Running task", "Core 0")["slices"]
        self.assertEqual({s["name"] for s in running}, set(THREADS))
        self.assertTrue(all(a["end"] <= b["begin"] for a, b in zip(running, running[1:])))
        for name in THREADS:
            self.assertEqual(len(view.track("Running", name)["slices"]), sum(1 for s in running if s["name"] == name))
        self.assertIn("Blocked: queue work_queue", {s["name"] for s in view.track("State", "consumer")["slices"]})
        self.assertIn("Blocked: event flags round_flags", {s["name"] for s in view.track("State", "waiter")["slices"]})

        # Objects: the levels the calls record (before each call) are the fill, count and owner.
        fill = [v for _, v in view.track("work_queue fill", "")["counter"]]
        recorded = [e[7] for e in entries if e[2] in (68, 69)]  # receive, send: messages enqueued
        self.assertEqual(max(fill), max(recorded))
        self.assertTrue(all(0 <= v <= fact["queue_depth"] for v in fill))
        self.assertTrue(set(recorded) <= set(fill))
        self.assertEqual(min(v for _, v in view.track("tick_sem fill", "")["counter"]), 0)
        self.assertEqual({v for _, v in view.track("msg_pool free blocks", "")["counter"]}, {7, 8})
        flags = {v for _, v in view.track("round_flags flags", "")["counter"]}
        self.assertLessEqual({e[6] for e in entries if e[2] == 32}, flags)  # every get's current flags
        self.assertLessEqual(flags, {0, 1, 2, 3})
        holder = view.track("shared_mutex holder", "")["slices"]
        self.assertEqual([s["name"] for s in holder], ["Available", "Taken by low", "Taken by high", "Available"])
        self.assertLessEqual(holder[1]["begin"], inherit_at)  # low held it when it inherited high's priority
        drop = view.track("Priority", "low")["counter"][2][0]  # and fell back to 20 as it gave it up
        self.assertTrue(0 <= drop - holder[1]["end"] < 1_000_000, (holder[1], drop))

        # ISRs: the tick (ISR 0) and any other, a slice per enter/exit pair.
        isrs = isr_counts(entries)
        self.assertIn(0, isrs)
        for number, (enters, exits) in isrs.items():
            isr = view.track(f"ISR {number}", "Core 0")["slices"]
            self.assertEqual(len(isr), min(enters, exits))
            self.assertTrue(all(s["end"] is not None and s["end"] >= s["begin"] for s in isr))
        return view

    def check_stats(self, trx):
        proc = run(["stats", "--json", str(trx), *self.conv_args])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        figures = json.loads(proc.stdout)["figures"]
        _, entries = parse(Path(trx).read_bytes())
        # The same names as for a FreeRTOS trace.
        for name in ("producer", "consumer", "low", "high"):
            self.assertGreater(figures[f"task.{name}.cpu"], 0)
        self.assertAlmostEqual(sum(figures[f"task.{n}.cpu"] for n in THREADS), 100, delta=0.01)
        for number, (enters, exits) in isr_counts(entries).items():
            self.assertEqual(figures[f"isr.ISR {number}.count"], min(enters, exits))
        self.assertEqual(figures["event.user_event_4096.count"], sum(1 for e in entries if e[2] == 4096))
        self.assertEqual(figures["diagnostics.dropped_events"], 1)
        self.assertEqual(figures["queue.work_queue.high_water"], max(e[7] for e in entries if e[2] in (68, 69)))
        self.assertEqual(figures["queue.work_queue.sends"], sum(1 for e in entries if e[2] == 69))
        self.assertGreater(figures["queue.work_queue.blocked_receives"], 0)  # the consumer waits for work
        self.assertEqual(figures["mutex.shared_mutex.takes"], 2)
        self.assertEqual(figures["mutex.shared_mutex.held_at_end"], 0)
        rules = self.tmp / "rules.yaml"
        rules.write_text(f"allow: [{', '.join(self.allowed)}]\nrules:\n  - task.producer.cpu < 50%\n"
                         "  - isr.ISR 0.duration.max < 5ms\n  - event.user_event_4097.count == 1\n"
                         "  - queue.work_queue.high_water < 8\n  - mutex.shared_mutex.hold.max < 100ms\n")
        proc = run(["check", str(trx), "--rules", str(rules), *self.conv_args])
        self.assertEqual(proc.returncode, 0, proc.stdout.decode() + proc.stderr)


class Vectors(Checks, unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_threadx_")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def test_little_endian_32bit_time(self):
        self.check_buffer(VECTORS / "linux_le32.trx", facts(VECTORS / "linux_le32.facts"))

    def test_16bit_time_stamps_unwrapped(self):
        trx = VECTORS / "linux_le32_t16.trx"
        header, entries = parse(trx.read_bytes())
        self.assertEqual(header["mask"], 0xFFFF)
        view = self.check_buffer(trx, facts(VECTORS / "linux_le32_t16.facts"))
        # Time goes forward across the five wraps of the 16-bit counter: the
        # instants' times are the raw stamps plus 65536 per wrap, in µs.
        unwrapped, epoch = [], 0
        for before, e in zip([None, *entries], entries):
            epoch += 65536 if before is not None and e[3] < before[3] else 0
            unwrapped.append(epoch + e[3])
        self.assertGreater(unwrapped[-1] - unwrapped[0], 5 * 65536)
        stamps = [i["ts"] for t in view.tracks.values() if t["name"] != "Diagnostics" for i in t["instants"]]
        self.assertTrue(set(stamps) <= {u * 1000 for u in unwrapped})
        self.assertEqual(max(stamps) - min(stamps) <= (unwrapped[-1] - unwrapped[0]) * 1000, True)
        self.assertGreater(max(stamps) - min(stamps), 4 * 65536 * 1000)

    def test_big_endian_reads_like_little_endian(self):
        le, _ = self.convert(VECTORS / "linux_le32.trx")
        be, _ = self.convert(VECTORS / "linux_be32.trx")
        strip = lambda v: sorted((t["process"], t["name"], str(t["slices"]), str(t["instants"]), str(t["counter"]))
                                 for t in v.tracks.values() if t["name"] != "Diagnostics")
        self.assertEqual(strip(le), strip(be))
        self.check_buffer(VECTORS / "linux_be32.trx", facts(VECTORS / "linux_le32.facts"))

    def test_auto_and_explicit_format_agree(self):
        auto, _ = self.convert(VECTORS / "linux_le32.trx")
        explicit, _ = self.convert(VECTORS / "linux_le32.trx", "--format", "threadx")
        self.assertEqual(auto.tracks, explicit.tracks)

    def test_clock_rate(self):
        slow, stderr = self.convert(VECTORS / "linux_le32.trx")
        self.assertNotIn("(the default", stderr)  # said with -v only
        proc = run(["-v", "conv", str(VECTORS / "linux_le32.trx")])
        self.assertIn("ThreadX time stamps: 1000000 ticks per second (the default; give --threadx-clock-hz)",
                      proc.stderr)
        fast, _ = self.convert(VECTORS / "linux_le32.trx", "--threadx-clock-hz", "2000000")
        a = [i["ts"] for i in slow.track("Service calls", "producer")["instants"]]
        b = [i["ts"] for i in fast.track("Service calls", "producer")["instants"]]
        self.assertEqual([x // 2 for x in a], b)
        self.assertEqual(run(["conv", str(VECTORS / "linux_le32.trx"), "--threadx-clock-hz", "0"]).returncode, 2)

    def test_ts_resolution_ns_is_a_warning_here(self):
        """--ts-resolution-ns is for tband traces: on a ThreadX buffer it
        would do nothing, so tband says so and which option to use."""
        trx = str(VECTORS / "linux_le32.trx")
        plain, _ = self.convert(VECTORS / "linux_le32.trx")
        given, stderr = self.convert(VECTORS / "linux_le32.trx", "--ts-resolution-ns", "1000")
        self.assertIn("tband conv: warning: --ts-resolution-ns has no effect on " + trx +
                      ", a ThreadX trace buffer: give its timer's rate with --threadx-clock-hz", stderr)
        self.assertEqual(plain.tracks, given.tracks)
        stats = run(["stats", trx, "--ts-resolution-ns", "1000"])
        self.assertEqual(stats.returncode, 0, stats.stderr)
        self.assertIn("tband stats: warning: --ts-resolution-ns has no effect on " + trx, stats.stderr)
        dump = run(["dump", trx, "--ts-resolution-ns", "1000"])
        self.assertEqual(dump.returncode, 0, dump.stderr)
        self.assertIn("tband dump: warning: --ts-resolution-ns has no effect on " + trx, dump.stderr)
        self.assertEqual(dump.stdout, run(["dump", trx]).stdout)
        self.assertNotIn("has no effect", run(["conv", trx, "--threadx-clock-hz", "2000000"]).stderr)

    def test_dump_lists_the_entries(self):
        _, entries = parse((VECTORS / "linux_be32.trx").read_bytes())
        proc = run(["dump", "--json", str(VECTORS / "linux_be32.trx")])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = [json.loads(line) for line in proc.stdout.decode().splitlines()]
        self.assertEqual([(d["id"], d["ts"] & 0xFFFFFFFF) for d in lines], [(e[2], e[3]) for e in entries])
        self.assertEqual(lines[-1]["event"], "tx_interrupt_control")
        self.assertEqual(lines[-2]["fields"], {"info1": 40, "info2": 200, "info3": 13, "info4": 0})
        self.assertEqual(lines[-2]["thread"], "supervisor")
        text = run(["dump", "--stats", str(VECTORS / "linux_le32.trx")]).stdout.decode().splitlines()
        self.assertIn(f"user_event_4096 {sum(1 for e in entries if e[2] == 4096)}", text)
        self.assertEqual(text[-1], f"events {len(entries)}")

    def test_stats_and_check_names(self):
        self.check_stats(VECTORS / "linux_le32.trx")


class BadBuffers(unittest.TestCase):
    """Buffers made from a real one: clear errors (exit 3) or diagnostics (exit 0, --strict 1)."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_threadx_bad_")
        self.tmp = Path(self._tmp.name)
        self.data = bytearray((VECTORS / "linux_le32.trx").read_bytes())
        self.header, _ = parse(bytes(self.data))

    def tearDown(self):
        self._tmp.cleanup()

    def conv(self, data, *extra):
        path = self.tmp / "bad.trx"
        path.write_bytes(bytes(data))
        return run(["conv", "--format", "threadx", str(path), "-o", str(self.tmp / "bad.pftrace"), *extra])

    def assertError(self, proc, text):
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn(text, proc.stderr)
        self.assertNotIn("Sanitizer", proc.stderr)

    def test_empty_and_short(self):
        self.assertEqual(self.conv(b"").returncode, 3)
        self.assertError(self.conv(self.data[:20]), "less than its 48-byte header")

    def test_garbage_header(self):
        self.assertError(self.conv(b"\x00" * 4 + self.data[4:]), "does not start with the id TXTB")
        bad = bytearray(self.data)
        struct.pack_into("<I", bad, 12, 0xDEADBEEF)  # registry start far outside the file
        self.assertError(self.conv(bad), "registry start")
        bad = bytearray(self.data)
        struct.pack_into("<I", bad, 32, self.header["base"] + self.header["entries"][0] + 5)  # current inside an entry
        self.assertError(self.conv(bad), "current pointer is not at an entry")

    def test_64bit_words(self):
        # A port whose ULONG were 64 bits would write 8-byte header words: refused, not misread.
        h = struct.unpack_from("<4I2H7I", self.data, 0)
        words = struct.pack("<4Q2H4x7Q", *h) + self.data[48:]
        self.assertError(self.conv(words), "8-byte header words? only ports whose ULONG is 32 bits are read")
        bad = bytearray(self.data)
        struct.pack_into("<I", bad, 4, 0)
        proc = self.conv(bad)
        self.assertError(proc, "the header's timer-valid mask is 0")
        self.assertNotIn("8-byte", proc.stderr)

    def test_truncated(self):
        self.assertError(self.conv(self.data[:20000]), "truncated dump?")

    def test_all_unused(self):
        start, stop = self.header["entries"]
        self.data[start:stop] = bytes(stop - start)
        self.assertError(self.conv(self.data), "no entry written")

    def test_not_wrapped(self):
        # Entries from the current one to the end never written: no loss, fewer events.
        start, stop = self.header["entries"]
        current = self.header["current"]
        self.data[current:stop] = bytes(stop - current)
        proc = self.conv(self.data, "--strict")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"{(current - start) // 32} events", proc.stderr)

    def test_one_buffer_at_a_time_and_stdin(self):
        trx = VECTORS / "linux_le32.trx"
        proc = run(["conv", f"{trx}@0", f"{VECTORS / 'linux_be32.trx'}@1", "-c", "2"])
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("is converted on its own", proc.stderr)
        proc = run(["conv", "-", "-o", str(self.tmp / "stdin.pftrace")], stdin=trx.read_bytes())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("1000 events", proc.stderr)

    def test_registry_full_and_unknown_pointers(self):
        lo, hi = self.header["reg"]
        slot = 16 + self.header["name_size"]
        for at in range(lo, hi, slot):
            if self.data[at] == 1:  # an available slot: now used by an object of no known kind
                self.data[at:at + 2] = b"\x00\x09"
        start, _ = self.header["entries"]
        at = start + 32 * 7
        struct.pack_into("<I", self.data, at, 0x12345678)       # a thread the registry does not know
        struct.pack_into("<I", self.data, at + 32 + 8, 777)     # an event id ThreadX does not define
        proc = self.conv(self.data)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("the object registry is full (16 slots)", proc.stderr)
        self.assertIn("thread 0x12345678 is not in the object registry", proc.stderr)
        self.assertIn("event id 777, which ThreadX does not define", proc.stderr)
        view = TraceView(self.tmp / "bad.pftrace")
        self.assertIn("thread 0x12345678", view.process_names())
        self.assertEqual(self.conv(self.data, "--strict").returncode, 1)


def build_buffer(objects, entries, name_size=32, spare_entries=4):
    """A little-endian buffer laid out as tx_trace_enable lays it (host/THREADX.md): objects
    [(type, pointer, priority, p1, p2, name)] in the registry (one slot left free), entries
    [(thread, event, time, i1, i2, i3, i4)] oldest first, not wrapped."""
    base, slot = 0x20000000, 16 + name_size
    reg_start = base + 48
    reg_end = reg_start + slot * (len(objects) + 1)
    start = reg_end
    end = start + 32 * (len(entries) + spare_entries)
    current = start + 32 * len(entries)  # where the next entry would go
    out = bytearray(struct.pack("<4I2H7I", 0x54585442, 0xFFFFFFFF, base, reg_start, 0, name_size, reg_end, start,
                                end, current, 0, 0, 0))
    for kind, pointer, priority, p1, p2, name in objects:
        out += struct.pack("<BBH3I", 0, kind, 0, pointer, p1, p2)
        out[-14:-12] = bytes([0x80 | priority >> 8, priority & 0xFF]) if kind == 1 else b"\0\0"
        out += name.encode().ljust(name_size, b"\0")
    out += struct.pack("<BBH3I", 1, 0, 0, 0, 0, 0) + bytes(name_size)
    for thread, event, time, *info in entries:
        out += struct.pack("<8I", thread, 0x80000000 | 10 << 16 | 10, event, time, *info)
    return bytes(out + bytes(32 * spare_entries))


class Objects(unittest.TestCase):
    """Event flags, byte pools and timers on buffers made here: the levels their calls record
    (tx_trace.h) and what tband infers between them."""
    WORKER, FLAGS, HEAP, BLINK, ONCE = 0x1000, 0x2000, 0x3000, 0x4000, 0x5000
    OBJECTS = [(1, WORKER, 10, 0, 0, "worker"), (6, FLAGS, 0, 0, 0, "flags"), (8, HEAP, 0, 4096, 0, "heap"),
               (2, BLINK, 0, 5, 10, "blink"), (2, ONCE, 0, 3, 0, "once")]
    OR, OR_CLEAR, AND, AND_CLEAR = 0, 1, 2, 3  # tx_api.h's options

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_threadx_objects_")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def convert(self, entries):
        trx = self.tmp / "objects.trx"
        trx.write_bytes(build_buffer(self.OBJECTS, entries))
        proc = run(["conv", str(trx), "-o", str(self.tmp / "objects.pftrace")])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("warning", proc.stderr)
        stats = run(["stats", "--json", str(trx)])
        self.assertEqual(stats.returncode, 0, stats.stderr)
        return TraceView(self.tmp / "objects.pftrace"), json.loads(stats.stdout)["figures"]

    def test_event_flags(self):
        w, g = self.WORKER, self.FLAGS
        view, figures = self.convert([
            (w, 32, 100, g, 0x1, 0x0, self.OR),        # get 0x1: none set (it would wait)
            (w, 36, 200, g, 0x5, self.OR, 0),          # set 0x5: 0x5
            (w, 36, 300, g, 0x6, self.AND, 0),         # and 0x6: 0x4, as the next get records
            (w, 32, 400, g, 0x4, 0x4, self.AND_CLEAR),  # get and clear 0x4: 0x0
            (w, 36, 500, g, 0x3, self.OR, 1),          # set 0x3 with a thread waiting that takes 0x1 ...
            (w, 32, 600, g, 0x2, 0x2, self.OR),        # ... as this get records: 0x2; no clear: stays
            (w, 36, 700, g, 0x8, self.OR, 1),          # a waiter again, and no get after: unknown
        ])
        self.assertEqual(view.track("flags flags", "")["counter"],
                         [(100_000, 0), (200_000, 5), (300_000, 4), (400_000, 0), (500_000, 2)])
        self.assertEqual((figures["counter.flags flags.max"], figures["counter.flags flags.last"]), (5, 2))
        gets = [i for i in view.track("Service calls", "worker")["instants"] if i["name"] == "tx_event_flags_get"]
        self.assertEqual(gets[1]["args"], {"group_ptr": "flags", "requested_flags": 4, "current_flags": 4,
                                           "get_option": self.AND_CLEAR})

    def test_byte_pool(self):
        w, h = self.WORKER, self.HEAP
        view, figures = self.convert([
            (w, 20, 1000, h, 0x20000100, 100, 0),  # allocate: records no level
            (w, 20, 1100, h, 0x20000200, 200, 0),  # allocate: the next call, a release, records the level after
            (w, 27, 1200, h, 0x20000100, 0, 3600),  # release: 3600 bytes available before it
            (w, 27, 1300, h, 0x20000200, 0, 3716),  # release: 3716 before it; after it unknown
        ])
        self.assertEqual(view.track("heap free bytes", "")["counter"], [(1_100_000, 3600), (1_200_000, 3716)])
        self.assertEqual((figures["counter.heap free bytes.min"], figures["counter.heap free bytes.max"]), (3600, 3716))

    def test_timers(self):
        w, b, o = self.WORKER, self.BLINK, self.ONCE
        view, _ = self.convert([
            (w, 124, 2000, o, 3, 0, 1),   # create "once", one-shot, auto-activated
            (w, 122, 2100, b, 0, 0, 0),   # activate "blink": its period from the registry
            (w, 125, 2500, b, 0, 0, 0),   # deactivate
            (w, 123, 2600, b, 5, 20, 0),  # change: every 20 ticks
            (w, 122, 2700, b, 0, 0, 0),
            (w, 126, 2900, o, 0, 0, 0),   # delete "once"
            (w, 124, 2950, 0x6000, 1, 1, 0),  # a timer created not active, not in the registry
            (w, 4096, 3000, 0, 0, 0, 0),
        ])
        blink = [(s["name"], s["begin"], s["end"]) for s in view.track("blink active", "")["slices"]]
        self.assertEqual(blink[0], ("Active, every 10 ticks", 2_100_000, 2_500_000))
        self.assertEqual(blink[1][:2], ("Active, every 20 ticks", 2_700_000))
        self.assertIn(blink[1][2], (None, 3_000_000))  # still active at the end
        once = [(s["name"], s["begin"], s["end"]) for s in view.track("once active", "")["slices"]]
        self.assertEqual(once, [("Active, one-shot", 2_000_000, 2_900_000)])
        self.assertNotIn("timer 0x00006000 active", {t["name"] for t in view.tracks.values()})  # never active
        calls = collections.Counter(i["name"] for i in view.track("Service calls", "worker")["instants"])
        self.assertEqual(calls["tx_timer_activate"], 2)  # the calls stay instants too


class RealKernel(Checks, unittest.TestCase):
    """The scenario built against THREADX_PATH (tests/threadx/CMakeLists.txt), run again now."""

    def setUp(self):
        self.scenarios = [s for s in os.environ.get("TBAND_THREADX_SCENARIOS", "").split(",") if s]
        if not self.scenarios:
            self.skipTest("no ThreadX scenario built (configure with -DTHREADX_PATH=...)")
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_threadx_real_")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def test_fresh_buffers(self):
        for exe in self.scenarios:
            with self.subTest(exe=exe):
                trx = self.tmp / (Path(exe).name + ".trx")
                out = subprocess.run([exe, str(trx)], capture_output=True, text=True, timeout=60, check=True).stdout
                fact = {k: int(v) for _, k, v in (line.split() for line in out.splitlines())}
                self.assertEqual(fact["sent"], fact["received"])
                self.check_buffer(trx, fact)
                self.check_stats(trx)


class CortexM4(Checks, unittest.TestCase):
    """The scenario on ThreadX's Cortex-M4 port (cm4/, built against THREADX_PATH) under QEMU's
    mps2-an386: the buffer and the facts come out through semihosting; time stamps are the
    board's 25 MHz FPGAIO counter; SysTick is ISR 0, and ISR 1 runs nested in every 4th tick."""
    conv_args = ("--threadx-clock-hz", "25000000")
    # The buffer wraps: its oldest entry may be a tick's exit whose entry was overwritten.
    allowed = ("dropped_events", "end_without_begin")

    def setUp(self):
        self.elf = os.environ.get("TBAND_THREADX_CM4_ELF", "")
        if not self.elf:
            self.skipTest("no ThreadX Cortex-M4 firmware built (configure with -DTHREADX_PATH=...)")
        self.assertTrue(Path(self.elf).is_file(), f"{self.elf} was not built (target threadx_cm4_firmware)")
        self._tmp = tempfile.TemporaryDirectory(prefix="tband_threadx_cm4_")
        self.tmp = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def run_firmware(self):
        # Instruction counting (-icount): the firmware's time does not follow the host's load.
        proc = subprocess.run(["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-monitor", "none",
                               "-semihosting-config", "enable=on,target=native",
                               "-icount", "shift=5,align=off,sleep=off", "-serial", f"file:{self.tmp / 'uart.txt'}",
                               "-kernel", self.elf], cwd=self.tmp, capture_output=True, text=True, timeout=120)
        uart = (self.tmp / "uart.txt").read_text(errors="replace")
        self.assertEqual(proc.returncode, 0, f"qemu: {proc.stderr} uart: {uart}")
        return self.tmp / "threadx_cm4.trx", facts(self.tmp / "threadx_cm4.facts")

    def test_scenario_under_qemu(self):
        trx, fact = self.run_firmware()
        self.assertEqual(fact["sent"], fact["received"])
        self.assertGreater(fact["nested"], 0)
        view = self.check_buffer(trx, fact)
        self.check_stats(trx)
        _, entries = parse(trx.read_bytes())

        # Nothing the reader does not know: every id and thread named, no other diagnostic.
        _, stderr = self.convert(trx)
        for text in ("does not define", "not in the object registry", "Sanitizer"):
            self.assertNotIn(text, stderr)
        kinds = {line.split("[")[1].rstrip("]") for line in stderr.splitlines() if line.startswith("warning:")}
        self.assertLessEqual(kinds, set(self.allowed))

        # The tick: SysTick reloads every 60000 cycles of the 25 MHz clock (tx_initialize_low_level.S),
        # so its ISR slices start 2.4 ms apart on the FPGAIO counter's time.
        tick = view.track("ISR 0", "Core 0")["slices"]
        self.assertGreater(len(tick), 20)
        periods = [b["begin"] - a["begin"] for a, b in zip(tick, tick[1:])]
        self.assertTrue(all(abs(p - 2_400_000) <= 2_000 for p in periods), periods)

        # Nesting: each ISR 1 slice lies inside a tick's slice, and every 4th tick has one.
        nested = view.track("ISR 1", "Core 0")["slices"]
        self.assertEqual(len(nested), isr_counts(entries)[1][0])
        self.assertGreater(len(nested), 5)
        for s in nested:
            self.assertTrue(any(t["begin"] < s["begin"] and s["end"] < t["end"] for t in tick), s)
        self.assertLessEqual(len(nested), fact["nested"])
        self.assertTrue(all(abs(b["begin"] - a["begin"] - 4 * 2_400_000) <= 8_000 for a, b in zip(nested, nested[1:])))
        proc = run(["stats", "--json", str(trx), *self.conv_args])
        figures = json.loads(proc.stdout)["figures"]
        self.assertEqual(figures["isr.ISR 1.max_nesting"], 2)
        self.assertEqual(figures["isr.ISR 0.max_nesting"], 1)


if __name__ == "__main__":
    unittest.main()
