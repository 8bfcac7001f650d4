// TraceStats as people and scripts read them: aligned text tables, JSON,
// CSV (one line per figure, named as rules name them); and single values
// with their unit ("12.5 us", "40.00 %") for reports and rule messages.
#pragma once

#include <string>
#include <vector>

#include "stats/trace_stats.hpp"

namespace tband {

/// A table of figures as text cells: the trace's own figures, then one per
/// section (ISRs, markers, ...), one line per thing.
struct StatsTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right;  // per column: right-aligned (figures) or left (names, places)
};
[[nodiscard]] std::vector<StatsTable> stats_tables(const TraceStats& stats);

[[nodiscard]] std::string format_stats_text(const TraceStats& stats);
[[nodiscard]] std::string format_stats_json(const TraceStats& stats);
[[nodiscard]] std::string format_stats_csv(const TraceStats& stats);

/// A value with its unit: "1.250 ms", "12.50 %", "999.9/s", "42"; "-" for none.
[[nodiscard]] std::string format_value(std::optional<double> value, Unit unit);
/// A trace time in seconds with nanosecond digits: "1.234567890 s".
[[nodiscard]] std::string format_time(std::uint64_t ns);
/// "at 1.234567890 s (isr_enter .. isr_exit, until 1.234600000 s)".
[[nodiscard]] std::string format_where(const Where& where);
/// The unit's name in JSON and CSV: "count", "ns", "percent", "per_second", "value".
[[nodiscard]] std::string_view unit_name(Unit unit) noexcept;
/// The figure's full name: "<prefix>.<key>", or the key for the trace's own.
[[nodiscard]] std::string full_name(const StatRow& row, const Figure& figure);

}  // namespace tband
