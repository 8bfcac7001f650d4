#include "app/trace_analysis.hpp"

namespace tband {

Analysis analyze(ConversionOptions conversion, const StatsOptions& options) {
  StatsCollector collector{options};
  conversion.interpreter.observer = &collector;
  Analysis analysis;
  analysis.result = convert(conversion);
  TraceTotals totals;
  totals.events = analysis.result.events;
  totals.first_ts_ns = analysis.result.first_ts_ns;
  totals.last_ts_ns = analysis.result.last_ts_ns;
  totals.dropped_events = analysis.result.dropped_events;
  totals.cores = conversion.interpreter.core_count;
  totals.diagnostics = &analysis.result.diagnostics;
  analysis.stats = collector.finish(totals);
  return analysis;
}

}  // namespace tband
