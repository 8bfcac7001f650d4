// The rules file of `tband check`: limits on stats figures and the
// diagnostics a trace may have.
//
//   allow: [truncated_end]              # diagnostic kinds that do not fail the check
//   rules:
//     - isr.tick.duration.max < 20us    # <figure> <op> <limit>
//     - rule: task.worker.cpu < 50%
//       name: worker leaves room        # optional, for reports and JUnit
//
// Operators: < <= > >= == !=. Limits carry the figure's unit: durations
// (ns, us, ms, s), shares (%), rates (/s, Hz, kHz); counts and values are
// plain numbers. Errors come as "file:line:col: message".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/quantity.hpp"
#include "trace/diagnostics.hpp"

namespace tband {

/// A problem in a rules file, with its place: "rules.yaml:3:5: message".
class RulesError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Comparison : std::uint8_t { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };

struct Rule {
  std::string text;    // as written: "isr.tick.duration.max < 20us"
  std::string name;    // the rule's name, or its text
  std::string figure;  // "isr.tick.duration.max"
  Comparison op = Comparison::kLess;
  Quantity limit;
  std::string limit_text;  // "20us"
  std::string place;       // "rules.yaml:4:5"
};

struct RulesFile {
  std::string path;
  std::vector<Rule> rules;
  AllowedDiagnostics allowed;
  std::vector<std::string> allowed_ids;  // as listed, for reports
};

/// Reads and checks a rules file. Throws RulesError (with file:line:col) for
/// anything wrong in it, std::runtime_error if it cannot be read.
[[nodiscard]] RulesFile load_rules_file(const std::string& path);
/// Parses rules-file text; `path` is used in messages.
[[nodiscard]] RulesFile parse_rules(const std::string& text, const std::string& path);

[[nodiscard]] std::string_view to_string(Comparison op) noexcept;
[[nodiscard]] bool holds(double measured, Comparison op, double limit) noexcept;

}  // namespace tband
