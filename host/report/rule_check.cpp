#include "report/rule_check.hpp"

#include <cstdio>

#include "common/markup.hpp"
#include "stats/stats_format.hpp"

namespace tband {

namespace {

/// Limits are written in the figure's unit; a plain 0 fits any figure.
void check_unit(const Rule& rule, const Figure& figure) {
  const QuantityKind given = rule.limit.kind;
  if (given == QuantityKind::kPlain && rule.limit.value == 0) {
    return;
  }
  QuantityKind wanted = QuantityKind::kPlain;
  std::string what = "a count";
  switch (figure.unit) {
    case Unit::kNs: wanted = QuantityKind::kDuration; what = "a duration"; break;
    case Unit::kPercent: wanted = QuantityKind::kPercent; what = "a share"; break;
    case Unit::kPerSecond: wanted = QuantityKind::kRate; what = "a rate"; break;
    case Unit::kValue: what = "a value marker's value"; break;
    case Unit::kCount: break;
  }
  const bool ok = given == wanted || (figure.unit == Unit::kPerSecond && given == QuantityKind::kPlain);
  if (!ok) {
    throw RulesError(rule.place + ": '" + rule.figure + "' is " + what + ": its limit is " +
                     std::string{describe(wanted)} + ", not '" + rule.limit_text + "'");
  }
}

CheckOutcome check_one(const Rule& rule, const TraceStats& stats) {
  CheckOutcome out;
  out.name = rule.name;
  out.place = rule.place;
  const TraceStats::Lookup found = stats.find(rule.figure);
  if (found.figure == nullptr) {
    out.message = "cannot check: " + found.problem;
    return out;
  }
  check_unit(rule, *found.figure);
  const Figure& f = *found.figure;
  if (!f.value) {
    out.message = "cannot check: '" + rule.figure + "' has no value in this trace (nothing was measured)";
    return out;
  }
  out.measured = format_value(f.value, f.unit);
  out.where = f.at;
  out.passed = holds(*f.value, rule.op, rule.limit.value);
  if (!out.passed) {
    out.message = rule.figure + " is " + out.measured + ", not " + std::string{to_string(rule.op)} + " " +
                  format_value(rule.limit.value, f.unit);
  }
  return out;
}

CheckOutcome check_diagnostics(const Diagnostics& diagnostics, const AllowedDiagnostics& allowed) {
  CheckOutcome out;
  out.name = "diagnostics";
  const std::uint64_t bad = diagnostics.total_not_allowed(allowed);
  out.measured = std::to_string(bad) + " not allowed";
  out.passed = bad == 0;
  if (out.passed) {
    return out;
  }
  out.message = std::to_string(bad) + " diagnostic(s) not allowed:";
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    const auto kind = static_cast<DiagnosticKind>(k);
    if (allowed.allows(kind) || diagnostics.count(kind) == 0) {
      continue;
    }
    out.message += '\n';
    out.message += std::to_string(diagnostics.count(kind)) + " x " + std::string{to_string(kind)} + " [" +
                   std::string{diagnostic_id(kind)} + "]";
    for (const Diagnostic& d : diagnostics.kept()) {
      if (d.kind == kind) {
        out.message += ", first: " + (d.ts_ns ? "at " + format_time(*d.ts_ns) + ": " : std::string{}) + d.message;
        if (!out.where && d.ts_ns) {
          out.where = Where{*d.ts_ns, std::nullopt, std::string{to_string(kind)}};
        }
        break;
      }
    }
  }
  return out;
}

std::string xml_escape(const std::string& text) { return escape_markup(text); }

}  // namespace

std::size_t CheckReport::failures() const {
  std::size_t n = 0;
  for (const CheckOutcome& o : outcomes) {
    n += o.passed ? 0u : 1u;
  }
  return n;
}

CheckReport check_rules(const RulesFile& rules, const TraceStats& stats, const Diagnostics& diagnostics,
                        const AllowedDiagnostics& extra_allowed) {
  CheckReport report;
  report.rules_path = rules.path;
  for (const Rule& rule : rules.rules) {
    report.outcomes.push_back(check_one(rule, stats));
  }
  AllowedDiagnostics allowed = rules.allowed;
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    if (extra_allowed.allows(static_cast<DiagnosticKind>(k))) {
      allowed.allow(static_cast<DiagnosticKind>(k));
    }
  }
  report.outcomes.push_back(check_diagnostics(diagnostics, allowed));
  return report;
}

std::string format_check_text(const CheckReport& report) {
  std::string out;
  for (const CheckOutcome& o : report.outcomes) {
    out += o.passed ? "PASS  " : "FAIL  ";
    out += o.name;
    if (o.passed) {
      out += o.measured.empty() ? "" : "  (" + o.measured + ")";
      out += "\n";
      continue;
    }
    out += "\n";
    std::string message = o.message;
    for (std::size_t pos = 0; (pos = message.find('\n', pos)) != std::string::npos; pos += 7) {
      message.replace(pos, 1, "\n      ");
    }
    out += "      " + message + "\n";
    if (o.where) {
      out += "      " + format_where(*o.where) + "\n";
    }
    if (!o.place.empty()) {
      out += "      " + o.place + "\n";
    }
  }
  const std::size_t failed = report.failures();
  out += "tband check: " + std::to_string(report.outcomes.size() - failed) + " passed, " + std::to_string(failed) +
         " failed (" + report.rules_path + ")\n";
  return out;
}

std::string format_junit(const CheckReport& report, const std::string& inputs, double seconds) {
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", seconds);
  const std::string counts = " tests=\"" + std::to_string(report.outcomes.size()) + "\" failures=\"" +
                             std::to_string(report.failures()) + "\" errors=\"0\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"tband check\"" + counts + " time=\"" + time + "\">\n";
  out += "  <testsuite name=\"" + xml_escape(report.rules_path) + "\"" + counts + " skipped=\"0\" time=\"" + time +
         "\">\n";
  out += "    <properties>\n      <property name=\"inputs\" value=\"" + xml_escape(inputs) + "\"/>\n    </properties>\n";
  for (const CheckOutcome& o : report.outcomes) {
    out += "    <testcase name=\"" + xml_escape(o.name) + "\" classname=\"tband.check\" time=\"0\"";
    if (o.passed) {
      out += "/>\n";
      continue;
    }
    std::string detail = o.message;
    if (o.where) {
      detail += '\n';
      detail += format_where(*o.where);
    }
    if (!o.place.empty()) {
      detail += '\n';
      detail += o.place;
    }
    const std::string first_line = o.message.substr(0, o.message.find('\n'));
    out += ">\n      <failure type=\"" + std::string{o.place.empty() ? "diagnostics" : "rule"} + "\" message=\"" +
           xml_escape(first_line) + "\">" + xml_escape(detail) + "</failure>\n    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace tband
