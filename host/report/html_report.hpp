// `tband report`: one self-contained HTML page (inline CSS and SVG, no
// script, nothing fetched): a summary (health, worst ISR/marker/span by p99,
// busiest task) and contents linking every figure, duration histograms per
// ISR, marker and mutex, CPU load per task over time, value markers and
// counters as step plots over trace time, and the stats tables.
#pragma once

#include <string>

#include "stats/trace_stats.hpp"

namespace tband {

struct ReportInfo {
  std::string title;
  std::string inputs;
  std::string diagnostics_summary;  // Diagnostics::summary(), shown as is
};

[[nodiscard]] std::string format_html_report(const TraceStats& stats, const ReportInfo& info);

}  // namespace tband
