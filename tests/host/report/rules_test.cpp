// Rules files of `tband check`: what they may say, the exact messages for
// what they may not (with file:line:col), and rules held against figures.
#include <gtest/gtest.h>

#include <chrono>

#include "report/rule_check.hpp"
#include "report/rules_file.hpp"

namespace tband::test {
namespace {

std::string error_of(const std::string& text) {
  try {
    (void)parse_rules(text, "rules.yaml");
  } catch (const RulesError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RulesFile, RulesAndAllowedDiagnostics) {
  const RulesFile f = parse_rules(
      "# limits for the sensor firmware\n"
      "allow: [truncated_end, unnamed_id]\n"
      "rules:\n"
      "  - isr.tick 1kHz.duration.max < 20us\n"
      "  - rule: task.worker.cpu <= 50 %\n"
      "    name: worker leaves room\n"
      "  - dropped == 0\n"
      "  - isr.tick.rate >= 1kHz\n"
      "  - value.level.min > -3\n",
      "rules.yaml");
  ASSERT_EQ(f.rules.size(), 5u);
  EXPECT_EQ(f.rules[0].figure, "isr.tick 1kHz.duration.max");
  EXPECT_EQ(f.rules[0].op, Comparison::kLess);
  EXPECT_EQ(f.rules[0].limit.kind, QuantityKind::kDuration);
  EXPECT_EQ(f.rules[0].limit.value, 20000.0);
  EXPECT_EQ(f.rules[0].place, "rules.yaml:4:5");
  EXPECT_EQ(f.rules[1].name, "worker leaves room");
  EXPECT_EQ(f.rules[1].op, Comparison::kLessEqual);
  EXPECT_EQ(f.rules[1].limit.kind, QuantityKind::kPercent);
  EXPECT_EQ(f.rules[1].limit.value, 50.0);
  EXPECT_EQ(f.rules[1].place, "rules.yaml:5:11");
  EXPECT_EQ(f.rules[2].name, "dropped == 0");
  EXPECT_EQ(f.rules[3].limit.value, 1000.0);
  EXPECT_EQ(f.rules[3].limit.kind, QuantityKind::kRate);
  EXPECT_EQ(f.rules[4].limit.value, -3.0);
  EXPECT_EQ(f.rules[4].op, Comparison::kGreater);
  EXPECT_TRUE(f.allowed.allows(DiagnosticKind::kTruncatedEnd));
  EXPECT_TRUE(f.allowed.allows(DiagnosticKind::kUnnamedId));
  EXPECT_FALSE(f.allowed.allows(DiagnosticKind::kDecodeError));
}

TEST(RulesFile, ErrorsSayWhereAndWhat) {
  EXPECT_EQ(error_of(""), "rules.yaml:1:1: the rules file is empty (it needs `rules:` and/or `allow:`)");
  EXPECT_EQ(error_of("- a < 1\n"), "rules.yaml:1:1: expected a mapping with `rules:` and/or `allow:`");
  EXPECT_EQ(error_of("rules:\n  - dropped == 0\nlimits: 3\n"),
            "rules.yaml:3:1: unknown key 'limits' (a rules file has `rules:` and `allow:`)");
  EXPECT_EQ(error_of("rules:\n  - dropped 0\n"),
            "rules.yaml:2:5: 'dropped 0' has no comparison: write <figure> <op> <limit> with one of < <= > >= == !=");
  EXPECT_EQ(error_of("rules:\n  - dropped =< 0\n"), "rules.yaml:2:5: 'dropped =< 0': unknown operator '=<' (use < <= > >= == !=)");
  EXPECT_EQ(error_of("rules:\n  - < 3\n"), "rules.yaml:2:5: '< 3' names no figure before its operator");
  EXPECT_EQ(error_of("rules:\n  - dropped <\n"), "rules.yaml:2:5: 'dropped <' has no limit after its operator");
  EXPECT_EQ(error_of("rules:\n  - isr.a.duration.max < 20 parsecs\n"),
            "rules.yaml:2:5: unknown unit 'parsecs' in '20 parsecs' (durations: ns, us, ms, s; shares: %; rates: /s, "
            "Hz, kHz)");
  EXPECT_EQ(error_of("rules:\n  - dropped < lots\n"), "rules.yaml:2:5: 'lots' is not a number");
  EXPECT_EQ(error_of("rules: dropped == 0\n"),
            "rules.yaml:1:8: `rules:` takes a list of rules, e.g. - isr.tick.duration.max < 20us");
  EXPECT_EQ(error_of("allow: [lost_frames]\n"),
            "rules.yaml:1:9: unknown diagnostic kind 'lost_frames'; the kinds are: decode_error, truncated_end, "
            "dropped_events, timestamp_backwards, end_without_begin, unnamed_id, metadata_overflow, "
            "no_timestamp_resolution, wrong_mode, no_current_task, core_out_of_range, unknown_event_id, "
            "schema_mismatch, spans_not_nested, capture_gap, invalid_utf8, link_lost, link_corrupt, "
            "link_stale");
  EXPECT_EQ(error_of("rules:\n  - name: x\n"), "rules.yaml:2:5: this rule has no `rule:`");
  EXPECT_EQ(error_of("rules:\n  - rule: dropped == 0\n    why: x\n"),
            "rules.yaml:3:5: unknown key 'why' in a rule (it has `rule:` and `name:`)");
  EXPECT_EQ(error_of("rules: [a\n"), "rules.yaml:2:1: did not find expected ',' or ']' (while parsing a flow sequence)");
}

TEST(RulesFile, AnOperatorIsReadWhole) {
  // Was '= 1' is not a number: "<=" matched, and the rest taken for the limit.
  EXPECT_EQ(error_of("rules:\n  - dropped <== 1\n"),
            "rules.yaml:2:5: 'dropped <== 1': unknown operator '<==' (use < <= > >= == !=)");
  EXPECT_EQ(error_of("rules:\n  - dropped >! 1\n"),
            "rules.yaml:2:5: 'dropped >! 1': unknown operator '>!' (use < <= > >= == !=)");
  EXPECT_EQ(parse_rules("rules:\n  - value.level.min>=-3\n", "r.yaml").rules[0].limit.value, -3.0);
}

TEST(RulesFile, NothingIsSilentlyIgnoredOrOverwritten) {
  // A second document's rules were never checked.
  EXPECT_EQ(error_of("rules:\n  - dropped == 0\n---\nrules:\n  - isr.tick.count > 5\n"),
            "rules.yaml:3:1: a second YAML document: a rules file is one document (put all rules under one `rules:`)");
  EXPECT_EQ(error_of("allow: [truncated_end]\n...\n---\n"),
            "rules.yaml:3:1: a second YAML document: a rules file is one document (put all rules under one `rules:`)");
  // Duplicate keys: the last one won.
  EXPECT_EQ(error_of("rules:\n  - rule: dropped == 0\n    rule: isr.tick.count > 5\n"),
            "rules.yaml:3:5: duplicate key 'rule' (first at line 2); each key may appear once");
  EXPECT_EQ(error_of("allow: [truncated_end]\nrules: []\nallow: []\n"),
            "rules.yaml:3:1: duplicate key 'allow' (first at line 1); each key may appear once");
  EXPECT_EQ(error_of("rules:\n  - {rule: dropped == 0, name: a, name: b}\n"),
            "rules.yaml:2:35: duplicate key 'name' (first at line 2); each key may appear once");
}

TEST(RulesFile, BadBytesAreReportedAtTheirLineAndColumn) {
  const std::string before = "rules:\n  - dropped == 0\n  # fine so far\n  - dropped == 0\n";
  // libyaml reports these with a byte offset, not a line.
  EXPECT_EQ(error_of(before + "  - dro\xffpped == 0\n"), "rules.yaml:5:8: invalid leading UTF-8 octet (byte 0xFF)");
  EXPECT_EQ(error_of(before + "  - dro\x01pped == 0\n"),
            "rules.yaml:5:8: control characters are not allowed (byte 0x01)");
  EXPECT_EQ(error_of(before + "  - dro\xc3"), "rules.yaml:5:8: incomplete UTF-8 octet sequence");
}

TEST(RulesFile, DeepOrHugeFilesAreRefusedQuickly) {
  const std::size_t deep = 100'000;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of("rules: " + std::string(deep, '[') + std::string(deep, ']')),
            "rules.yaml:1:71: nested deeper than 64 levels (a rules file is a mapping of lists of rules)");
  EXPECT_EQ(error_of(std::string(deep, '{') + std::string(deep, '}')),
            "rules.yaml:1:65: nested deeper than 64 levels (a rules file is a mapping of lists of rules)");
  // Was 16 s: libyaml's scanner is quadratic in the depth, so the limit applies while parsing.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(error_of("rules:\n" + std::string(1 << 20, '#')),
            "rules.yaml: the rules file is larger than 1 MiB (1048583 bytes); a rules file lists limits, a few lines "
            "each");
}

TraceStats example_stats() {
  TraceStats s;
  StatRow& trace = s.rows.emplace_back();
  trace.figures.push_back({"dropped", 0.0, Unit::kCount, {}});
  trace.figures.push_back({"decode_errors", 2.0, Unit::kCount, {}});
  StatRow& isr = s.rows.emplace_back();
  isr.section = Section::kIsr;
  isr.name = "tick";
  isr.prefix = "isr.tick";
  isr.figures.push_back({"duration.max", 25000.0, Unit::kNs, Where{1'234'000'000, 1'234'025'000, "isr_enter"}});
  isr.figures.push_back({"duration.p99", std::nullopt, Unit::kNs, {}});
  isr.figures.push_back({"cpu", 12.5, Unit::kPercent, {}});
  isr.figures.push_back({"rate", 1000.0, Unit::kPerSecond, {}});
  return s;
}

TEST(RuleCheck, PassingFailingMissingAndUnmeasured) {
  const RulesFile rules = parse_rules(
      "rules:\n"
      "  - isr.tick.duration.max < 20us\n"
      "  - isr.tick.cpu < 50%\n"
      "  - isr.tick.rate >= 999.5\n"
      "  - queue.jobs.high_water < 8\n"
      "  - isr.tick.duration.p99 < 1ms\n"
      "  - dropped == 0\n",
      "ci.yaml");
  Diagnostics diagnostics;
  const CheckReport r = check_rules(rules, example_stats(), diagnostics, {});
  ASSERT_EQ(r.outcomes.size(), 7u);
  EXPECT_FALSE(r.outcomes[0].passed);
  EXPECT_EQ(r.outcomes[0].message, "isr.tick.duration.max is 25.000 us, not < 20.000 us");
  EXPECT_EQ(r.outcomes[0].where->ts_ns, 1'234'000'000u);
  EXPECT_EQ(r.outcomes[0].place, "ci.yaml:2:5");
  EXPECT_TRUE(r.outcomes[1].passed);
  EXPECT_EQ(r.outcomes[1].measured, "12.50 %");
  EXPECT_TRUE(r.outcomes[2].passed);
  EXPECT_FALSE(r.outcomes[3].passed);
  EXPECT_EQ(r.outcomes[3].message, "cannot check: the trace has no queue matching 'queue.jobs.high_water' (it has none of that kind)");
  EXPECT_FALSE(r.outcomes[4].passed);
  EXPECT_EQ(r.outcomes[4].message,
            "cannot check: 'isr.tick.duration.p99' has no value in this trace (nothing was measured)");
  EXPECT_TRUE(r.outcomes[5].passed);
  EXPECT_TRUE(r.outcomes[6].passed) << "no diagnostics";
  EXPECT_EQ(r.failures(), 3u);

  const std::string text = format_check_text(r);
  EXPECT_NE(text.find("FAIL  isr.tick.duration.max < 20us\n      isr.tick.duration.max is 25.000 us, not < 20.000 us\n"
                      "      at 1.234000000 s (isr_enter, until 1.234025000 s)\n      ci.yaml:2:5\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("PASS  isr.tick.cpu < 50%  (12.50 %)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tband check: 4 passed, 3 failed (ci.yaml)\n"), std::string::npos) << text;
}

TEST(RuleCheck, ALimitInTheWrongUnitIsAnErrorOfTheRulesFile) {
  Diagnostics diagnostics;
  for (const auto& [rule, message] : std::vector<std::pair<std::string, std::string>>{
           {"isr.tick.duration.max < 20", "'isr.tick.duration.max' is a duration: its limit is a duration (ns, us, ms, s), not '20'"},
           {"isr.tick.cpu < 0.5", "'isr.tick.cpu' is a share: its limit is a share in % (e.g. 50%), not '0.5'"},
           {"dropped < 5ms", "'dropped' is a count: its limit is a plain number, not '5ms'"}}) {
    const RulesFile rules = parse_rules("rules:\n  - " + rule + "\n", "r.yaml");
    try {
      (void)check_rules(rules, example_stats(), diagnostics, {});
      ADD_FAILURE() << rule << ": no error";
    } catch (const RulesError& e) {
      EXPECT_EQ(std::string{e.what()}, "r.yaml:2:5: " + message);
    }
  }
  // 0 needs no unit.
  const RulesFile zero = parse_rules("rules:\n  - isr.tick.duration.max > 0\n", "r.yaml");
  EXPECT_TRUE(check_rules(zero, example_stats(), diagnostics, {}).outcomes[0].passed);
}

TEST(RuleCheck, DiagnosticsFailUnlessAllowed) {
  Diagnostics diagnostics;
  diagnostics.report(DiagnosticKind::kTruncatedEnd, 500, "in.bin byte 40: the stream ends inside a frame");
  diagnostics.report(DiagnosticKind::kEndWithoutBegin, 70, "isr_exit of 'tick' without isr_enter");
  const RulesFile rules = parse_rules("allow: [truncated_end]\n", "r.yaml");
  const CheckReport r = check_rules(rules, example_stats(), diagnostics, {});
  ASSERT_EQ(r.outcomes.size(), 1u);
  EXPECT_FALSE(r.outcomes[0].passed);
  EXPECT_EQ(r.outcomes[0].message,
            "1 diagnostic(s) not allowed:\n1 x end without begin [end_without_begin], first: at 0.000000070 s: isr_exit "
            "of 'tick' without isr_enter");
  AllowedDiagnostics more;
  more.allow(DiagnosticKind::kEndWithoutBegin);
  EXPECT_TRUE(check_rules(rules, example_stats(), diagnostics, more).outcomes[0].passed);
}

TEST(RuleCheck, JUnitXml) {
  const RulesFile rules = parse_rules("rules:\n  - isr.tick.duration.max < 20us\n  - dropped == 0\n", "ci & co.yaml");
  Diagnostics diagnostics;
  const std::string xml = format_junit(check_rules(rules, example_stats(), diagnostics, {}), "a.bin", 0.25);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tband check\" tests=\"3\" "
                      "failures=\"1\" errors=\"0\" time=\"0.250\">\n  <testsuite name=\"ci &amp; co.yaml\" tests=\"3\"",
                      0),
            0u)
      << xml;
  EXPECT_NE(xml.find("<testcase name=\"isr.tick.duration.max &lt; 20us\" classname=\"tband.check\" time=\"0\">\n"
                     "      <failure type=\"rule\" message=\"isr.tick.duration.max is 25.000 us, not &lt; 20.000 us\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase name=\"dropped == 0\" classname=\"tband.check\" time=\"0\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"diagnostics\" classname=\"tband.check\" time=\"0\"/>"), std::string::npos);
}

}  // namespace
}  // namespace tband::test
