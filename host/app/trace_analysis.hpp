// A conversion that produces statistics instead of (or besides) a Perfetto
// trace: `tband stats`, `check` and `report` all run through here.
#pragma once

#include "app/conversion.hpp"
#include "stats/stats_collector.hpp"
#include "stats/trace_stats.hpp"

namespace tband {

struct Analysis {
  ConversionResult result;
  TraceStats stats;
};

/// Converts with a StatsCollector attached and builds the figures. Throws
/// what convert() throws.
[[nodiscard]] Analysis analyze(ConversionOptions conversion, const StatsOptions& options);

}  // namespace tband
