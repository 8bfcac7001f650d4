// `tband check`: a rules file held against a trace's statistics and
// diagnostics; the outcome as a report for people and as JUnit XML for CI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/rules_file.hpp"
#include "stats/trace_stats.hpp"
#include "trace/diagnostics.hpp"

namespace tband {

struct CheckOutcome {
  std::string name;        // the rule's name, or "diagnostics"
  std::string place;       // "rules.yaml:4:5"; empty for the diagnostics check
  bool passed = false;
  std::string measured;    // "12.480 us"; empty when nothing was measured
  std::string message;     // why it failed: the value against the limit, or what is missing
  std::optional<Where> where;
};

struct CheckReport {
  std::string rules_path;
  std::vector<CheckOutcome> outcomes;  // the rules in file order, then the diagnostics
  [[nodiscard]] std::size_t failures() const;
};

/// Holds every rule against `stats` and the trace's diagnostics against the
/// allowed kinds (the file's and `extra_allowed`). A rule whose limit has the
/// wrong unit for its figure throws RulesError with the rule's place; a rule
/// naming something the trace lacks fails, saying what the trace has.
[[nodiscard]] CheckReport check_rules(const RulesFile& rules, const TraceStats& stats, const Diagnostics& diagnostics,
                                      const AllowedDiagnostics& extra_allowed);

/// Every rule, PASS or FAIL, failures with their value, limit and place.
[[nodiscard]] std::string format_check_text(const CheckReport& report);
/// JUnit XML: <testsuites><testsuite><testcase> with <failure> per failed rule.
[[nodiscard]] std::string format_junit(const CheckReport& report, const std::string& inputs, double seconds);

}  // namespace tband
