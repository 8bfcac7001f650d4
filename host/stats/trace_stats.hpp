// The statistics of one trace as figures with names: what `tband stats`
// prints, what `tband check` rules name and what `tband report` draws.
//
// Every figure belongs to a row (the trace itself, an ISR, a marker, a task,
// ...) and is named "<row prefix>.<key>", e.g. "isr.tick.duration.max",
// "task.worker.cpu", "queue.jobs.high_water"; the trace's own figures have no
// prefix ("dropped", "decode_errors"). Row names may hold dots and spaces.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/duration_sketch.hpp"

namespace tband {

enum class Unit : std::uint8_t {
  kCount,      // a number of things
  kNs,         // a duration in nanoseconds
  kPercent,    // a share, 0 to 100
  kPerSecond,  // a rate
  kValue,      // a value marker's value, as the firmware gave it
};

/// Where a figure happened, so a user can find it in Perfetto: a time, or a
/// span from `ts_ns` to `end_ns`, and the event that marks it.
struct Where {
  std::uint64_t ts_ns = 0;
  std::optional<std::uint64_t> end_ns;
  std::string event;
};

struct Figure {
  std::string key;               // e.g. "duration.max"
  std::optional<double> value;   // none when it cannot be measured (no spans, no time)
  Unit unit = Unit::kCount;
  std::optional<Where> at;
};

// kSpan, kEvent and kCounter: events of a schema loaded at run time, as their
// display rules show them (spans by span name, instants by event, counters by track).
enum class Section : std::uint8_t { kTrace, kCore, kIsr, kMarker, kValue, kTask, kQueue, kMutex, kSpan, kEvent, kCounter };

/// A bin of a series over time (CPU load, a value marker): its smallest and
/// largest value, the first and last in time, or nothing in it.
struct SeriesBin {
  bool empty = true;
  double min = 0, max = 0, first = 0, last = 0;
};

struct StatRow {
  Section section = Section::kTrace;
  std::string prefix;  // "isr.tick"; empty for the trace's own figures
  std::string name;    // "tick"; for task-local markers "worker: acq"
  std::string detail;  // e.g. "core 0", "idle task"
  std::vector<Figure> figures;
  std::vector<DurationSketch::Bucket> histogram;  // durations (ISRs, spans, mutex holds)
  std::vector<SeriesBin> series;                  // over time (tasks: CPU share; values), for reports

  [[nodiscard]] const Figure* figure(std::string_view key) const;
};

struct TraceStats {
  std::vector<StatRow> rows;  // the trace's row first
  std::uint64_t begin_ns = 0, end_ns = 0;
  std::uint64_t bin_width_ns = 0;  // of the series, which start at begin_ns

  /// A figure by its full name; `problem` says why there is none (no such
  /// row, with the names the trace has; no such figure, with the keys).
  struct Lookup {
    const StatRow* row = nullptr;
    const Figure* figure = nullptr;
    std::string problem;
  };
  [[nodiscard]] Lookup find(std::string_view name) const;
  [[nodiscard]] const StatRow& trace_row() const { return rows.front(); }
};

/// The section's word in figure names ("isr") and its title ("ISRs").
[[nodiscard]] std::string_view section_word(Section section) noexcept;
[[nodiscard]] std::string_view section_title(Section section) noexcept;

}  // namespace tband
