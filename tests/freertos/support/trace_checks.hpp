// What the FreeRTOS tests check a trace with, on the stand-in kernel and on
// the real one: the events of a decoded stream, the tracks of the converted
// .pftrace read back, and the statistics' figures.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "convert_helper.hpp"
#include "perfetto_view.hpp"
#include "app/trace_analysis.hpp"
#include "input/input_spec.hpp"
#include "trace_capture.hpp"
#include "trace_builder.hpp"

namespace tband::test {

/// The event names of a decoded stream, without the periodic dropped_evt_cnt.
inline std::vector<std::string> event_names(const std::vector<DecodedEvent>& events) {
  std::vector<std::string> names;
  for (const DecodedEvent& e : events) {
    if (!e.dropped_cnt) {
      names.push_back(e.name);
    }
  }
  return names;
}

/// The texts of the events with this name.
inline std::vector<std::string> texts_of(const std::vector<DecodedEvent>& events, const std::string& name) {
  std::vector<std::string> out;
  for (const DecodedEvent& e : events) {
    if (e.name == name) {
      out.push_back(e.text);
    }
  }
  return out;
}

/// texts_of() without the timestamps (" ts=N"), for traces taken at real speed.
inline std::vector<std::string> texts_without_ts(const std::vector<DecodedEvent>& events, const std::string& name) {
  std::vector<std::string> out = texts_of(events, name);
  for (std::string& text : out) {
    if (const std::size_t at = text.find(" ts="); at != std::string::npos) {
      text.erase(at, text.find(' ', at + 1) - at);
    }
  }
  return out;
}

inline std::vector<std::string> slice_names(const ViewTrack& t) {
  std::vector<std::string> names;
  for (const ViewSlice& s : t.slices) {
    names.push_back(s.name);
  }
  return names;
}

/// A stats figure's value (NaN, and a failure, when it has none).
inline double figure(const TraceStats& stats, const std::string& name) {
  const TraceStats::Lookup found = stats.find(name);
  if (found.figure == nullptr || !found.figure->value) {
    ADD_FAILURE() << name << ": " << (found.figure == nullptr ? found.problem : "no value");
    return NAN;
  }
  return *found.figure->value;
}

/// Every core's time goes to some task, the idle task included: the tasks'
/// shares of a core add up to 100 %.
inline void expect_cpu_shares_add_up(const TraceStats& stats, unsigned cores) {
  for (unsigned core = 0; core < cores; ++core) {
    double sum = 0;
    for (const StatRow& row : stats.rows) {
      if (row.section == Section::kTask) {
        if (const Figure* f = row.figure("core" + std::to_string(core) + ".cpu"); f != nullptr && f->value) {
          sum += *f->value;
        }
      }
    }
    EXPECT_NEAR(sum, 100.0, 1e-9) << "core " << core;
  }
}

inline std::vector<std::int64_t> counter_values(const ViewTrack& t) {
  std::vector<std::int64_t> values;
  for (const auto& [ts, v] : t.counter) {
    values.push_back(v);
  }
  return values;
}

/// The names of a track's instants, in order.
inline std::vector<std::string> instant_names(const ViewTrack& t) {
  std::vector<std::string> names;
  for (const ViewInstant& instant : t.instants) {
    names.push_back(instant.name);
  }
  return names;
}

/// Whether any track has an instant of that name at that time.
inline bool has_instant(const PerfettoView& view, const std::string& name, std::uint64_t ts_ns) {
  for (const auto& [uuid, track] : view.tracks) {
    for (const ViewInstant& instant : track.instants) {
      if (instant.name == name && instant.ts_ns == ts_ns) {
        return true;
      }
    }
  }
  return false;
}

/// Converts one stream per core, as `tband conv core0.bin@0 core1.bin@1 ...` would.
inline Converted convert_streams(const std::vector<std::vector<std::uint8_t>>& per_core, const std::string& name) {
  std::vector<std::string> inputs;
  for (std::size_t core = 0; core < per_core.size(); ++core) {
    TraceBuilder file;
    file.raw(per_core[core]);
    inputs.push_back(file.write(name + ".core" + std::to_string(core) + ".bin") + "@" + std::to_string(core));
  }
  return convert_files(inputs, name, TraceMode::kFreeRtos, static_cast<std::uint32_t>(per_core.size()));
}

/// The statistics of one stream per core, as `tband stats` gives them.
inline Analysis analyze_streams(const std::vector<std::vector<std::uint8_t>>& per_core, const std::string& name) {
  ConversionOptions options;
  for (std::size_t core = 0; core < per_core.size(); ++core) {
    TraceBuilder file;
    file.raw(per_core[core]);
    options.inputs.push_back(parse_input_spec(
        file.write(name + ".stats.core" + std::to_string(core) + ".bin") + "@" + std::to_string(core)));
  }
  options.interpreter.core_count = static_cast<std::uint32_t>(per_core.size());
  return analyze(options, StatsOptions{});
}

}  // namespace tband::test
