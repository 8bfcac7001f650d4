// Fuzz target for the statistics (tband stats, check, report): the input of
// fuzz_conversion (options byte, then the file, see fuzz_input.hpp) through
// analyze(), with the time series a report keeps, then every way the figures
// are shown: text, JSON and CSV tables, the HTML report, and a rules check.
// Invariants checked on every input (a violation traps or aborts):
//  - no crash, out-of-bounds access or undefined behaviour (ASan, UBSan);
//  - analyze() returns or throws InputError with a one-line message;
//  - the JSON figures parse; the CSV has one header and a line per figure;
//  - each figure is found again by its full name's lookup, or the lookup
//    says why not (never a null figure without a problem).
// The options' two threads apply to 1 input in 8 of a campaign
// (full_checks(): the decoding pipeline costs most of a run under ASan), to
// every input that asks in the corpus replay.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "app/trace_analysis.hpp"
#include "fuzz_input.hpp"
#include "report/html_report.hpp"
#include "report/rule_check.hpp"
#include "report/rules_file.hpp"
#include "stats/stats_format.hpp"

namespace {

using tband::fuzz::require;

// Rules over the trace's own figures and some a trace may or may not have.
const tband::RulesFile& rules() {
  static const tband::RulesFile file = tband::parse_rules(
      "allow: [truncated_end]\n"
      "rules:\n"
      "  - dropped == 0\n"
      "  - decode_errors == 0\n"
      "  - rule: isr.tick.period.max <= 1.05ms\n"
      "    name: tick\n"
      "  - task.worker.cpu < 50%\n"
      "  - span.move.duration.max < 150ms\n"
      "  - counter.motor 1 position.max <= 600\n"
      "  - event.motor_alert.count <= 2\n",
      "fuzz_rules.yaml");
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  tband::fuzz::fuzzing = true;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  tband::fuzz::ConversionInput input{data, size};
  tband::StatsOptions stats_options;
  stats_options.time_series = true;
  // A gap threshold from the options too: 0 (every step a gap) or the default.
  stats_options.gap_threshold_ns = (input.bits() & 0x04) != 0 ? 0 : stats_options.gap_threshold_ns;
  tband::Analysis analysis;
  try {
    const bool two_threads = (input.bits() & 0x04) != 0 && tband::fuzz::full_checks(data, size);
    analysis = tband::analyze(input.options(two_threads ? input.bits() : static_cast<std::uint8_t>(input.bits() & ~0x04u)), stats_options);
  } catch (const tband::InputError& e) {
    tband::fuzz::require_message(e.what());
    return 0;
  }
  const tband::TraceStats& stats = analysis.stats;

  require(!tband::format_stats_text(stats).empty());
  require(nlohmann::json::accept(tband::format_stats_json(stats)));
  const std::string csv = tband::format_stats_csv(stats);
  std::size_t figures = 0;
  for (const tband::StatRow& row : stats.rows) {
    for (const tband::Figure& figure : row.figures) {
      ++figures;
      const tband::TraceStats::Lookup found = stats.find(tband::full_name(row, figure));
      require(found.figure != nullptr || !found.problem.empty());
      (void)tband::format_value(figure.value, figure.unit);
    }
  }
  std::size_t lines = 0;  // records: line ends outside quoted fields (a name may hold one)
  bool quoted = false;
  for (const char c : csv) {
    quoted = c == '"' ? !quoted : quoted;
    lines += c == '\n' && !quoted ? 1u : 0u;
  }
  require(lines == figures + 1);
  (void)tband::stats_tables(stats);

  tband::ReportInfo info;
  info.title = "fuzz";
  info.inputs = "input";
  info.diagnostics_summary = analysis.result.diagnostics.summary();
  require(!tband::format_html_report(stats, info).empty());

  try {
    const tband::CheckReport report =
        tband::check_rules(rules(), stats, analysis.result.diagnostics, tband::AllowedDiagnostics{});
    require(!tband::format_check_text(report).empty());
    require(!tband::format_junit(report, "input", 0.5).empty());
  } catch (const tband::RulesError& e) {
    // A limit whose unit does not fit its figure: the rules' fault, not the trace's.
    tband::fuzz::require_message(e.what());
  }
  return 0;
}
