"""Hostile or mistaken input files of the tband command: schema descriptors
(--schema, or tband_schema.json found next to the trace) and rules files of
`tband check`. Each is refused with file:line:col and what was expected;
none crashes tband or makes it hang, and none is silently misread."""
import resource
import unittest

from tests.cli.support import make_trace, run
from tests.cli.test_cli import CliTestCase

DEEP = 100_000

# A descriptor with one lab-style event; `event` and `top` add to it.
def descriptor(event_extra="", top_extra="", version="1"):
    return ('{"format": "tband-schema-descriptor", "version": ' + version + ',\n'
            ' "trace_id": "00000000000000ab", "user_groups": ["app"],' + top_extra + '\n'
            ' "enums": [{"name": "Mode", "values": [{"name": "SLOW", "value": 0}]}],\n'
            ' "events": [{"name": "app_level", "id": 192,' + event_extra + '\n'
            '   "fields": [{"name": "ts", "type": "u64", "implicit": true},\n'
            '              {"name": "v", "type": "u8"},\n'
            '              {"name": "m", "type": "Mode", "optional": true, "default": "SLOW"}]}]}\n')


def nested(depth):
    return "[" * depth + "]" * depth


class BadInputCase(CliTestCase):
    def run_with(self, text):
        """Writes `text` (str or bytes) as the input file; returns its path and the run."""
        raise NotImplementedError

    def assertRefused(self, text, message):
        """A usage error whose message is `message` after the file's path."""
        path, proc = self.run_with(text)
        self.assertExit(proc, 2)
        self.assertIn(f"error: {path}:{message}", proc.stderr)


class BadDescriptors(BadInputCase):
    def run_with(self, text):
        path = self.tmp / "app.json"
        path.write_text(text)
        return path, run(["dump", "--schema", str(path), str(self.trace("baremetal"))])

    def test_deep_values_quoted_in_messages_are_refused_not_crashing(self):
        # Each of these values is quoted in an error message: dumping it recursed once per level.
        deep = nested(DEEP)
        self.assertRefused(descriptor(version=deep), "1:113: nested deeper than 64 levels")
        self.assertRefused(descriptor().replace('"default": "SLOW"', '"default": ' + deep),
                           "7:133: nested deeper than 64 levels")
        self.assertRefused(descriptor(' "display": {"kind": "counter", "value": ' + deep + '},'),
                           "4:146: nested deeper than 64 levels")

    def test_a_deep_descriptor_next_to_the_trace_is_skipped_with_a_note(self):
        trace = self.tmp / "lab.bin"
        make_trace("lab", trace)
        (self.tmp / "tband_schema.json").write_text(descriptor(version=nested(DEEP)))
        proc = run(["-v", "dump", str(trace)])
        self.assertExit(proc, 0)
        self.assertIn(f"search path: skipped {self.tmp / 'tband_schema.json'}:1:113: nested deeper than 64 levels",
                      proc.stderr)

    def test_values_of_the_wrong_type_name_the_event_key_and_place(self):
        self.assertRefused(descriptor(' "display": {"kind": 5},'),
                           "4:66: event 'app_level' (0xC0) display: \"kind\" must be a string, not 5")
        self.assertRefused(descriptor().replace('"tband-schema-descriptor"', "1"),
                           "1:12: not a tband schema descriptor")
        self.assertRefused(descriptor(' "group": ["app"],'),
                           "4:55: event 'app_level' (0xC0): \"group\" must be a string, not [\"app\"]")

    def test_a_duplicate_key_is_refused_at_its_place(self):
        self.assertRefused(descriptor(' "id": 250,'), '4:46: duplicate key "id"')

    def test_long_values_are_quoted_short(self):
        _, proc = self.run_with(descriptor(version='"' + "v" * 100_000 + '"'))
        self.assertExit(proc, 2)
        self.assertIn("1:50: descriptor version \"vvvv", proc.stderr)
        self.assertLess(len(proc.stderr), 1000)


class BadRulesFiles(BadInputCase):
    def run_with(self, text):
        rules = self.tmp / "rules.yaml"
        rules.write_bytes(text if isinstance(text, bytes) else text.encode())
        return rules, run(["check", "-r", str(rules), str(self.trace("baremetal"))])

    def test_a_second_document_is_refused_not_ignored(self):
        # The second document's rule fails on this trace: ignoring it passed the check.
        self.assertRefused("rules:\n  - dropped == 0\n---\nrules:\n  - isr.systick.count == 1000\n",
                           "3:1: a second YAML document")

    def test_duplicate_keys_are_refused(self):
        self.assertRefused("rules:\n  - rule: isr.systick.count == 1000\n    rule: dropped == 0\n",
                           "3:5: duplicate key 'rule' (first at line 2)")
        self.assertRefused("rules:\n  - dropped == 0\nrules:\n  - isr.systick.count == 1000\n",
                           "3:1: duplicate key 'rules' (first at line 1)")

    def test_bad_bytes_are_reported_at_their_line_and_column(self):
        lines = b"rules:\n  - dropped == 0\n  # a comment\n  - dropped == 0\n  - dro\xffpped == 0\n"
        self.assertRefused(lines, "5:8: invalid leading UTF-8 octet (byte 0xFF)")
        control = b"rules:\n  - dropped == 0\n  # a comment\n  - dropped == 0\n  - dro\x01pped == 0\n"
        self.assertRefused(control, "5:8: control characters are not allowed (byte 0x01)")

    def test_an_unknown_operator_is_named(self):
        self.assertRefused("rules:\n  - dropped <== 1\n", "2:5: 'dropped <== 1': unknown operator '<=='")

    def test_deep_nesting_is_refused_quickly(self):
        # Under the top mapping, the 64th opening bracket is where the nesting goes too deep.
        for text, column in (("rules: " + nested(DEEP) + "\n", 7 + 64),
                             ("rules: " + "{a: " * DEEP + "}" * DEEP + "\n", 7 + 63 * 4 + 1)):
            # CPU time, not wall time: a busy machine (or a sanitizer build) must not fail it.
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            rules, proc = self.run_with(text)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            self.assertLess(cpu, 4.0)  # was 16 s: libyaml is quadratic in the depth
            self.assertExit(proc, 2)
            self.assertIn(f"{rules}:1:{column}: nested deeper than 64 levels", proc.stderr)

    def test_a_file_over_a_mebibyte_is_refused(self):
        rules, proc = self.run_with("rules:\n" + "  - dropped == 0\n" * 70_000)
        self.assertExit(proc, 2)
        self.assertIn(f"{rules}: the rules file is larger than 1 MiB", proc.stderr)


if __name__ == "__main__":
    unittest.main()
