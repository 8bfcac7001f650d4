// Collects a trace's statistics in one pass as the interpreter goes: it is
// told of every ISR entry and exit, marker span, value, task state, queue
// operation and mutex hold at the point where the interpreter puts the same
// thing on the timeline, so the figures agree with what Perfetto shows.
// Memory grows with the number of ISRs, markers, tasks and queues (each
// series bounded, see DurationSketch), never with the length of the trace.
//
// A TraceObserver: the interpreter refers to each thing by the index add_*()
// returned, and names them all at the end (names can arrive late).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stats/duration_sketch.hpp"
#include "stats/time_bins.hpp"
#include "stats/trace_stats.hpp"
#include "trace/diagnostics.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

struct StatsOptions {
  /// Time between two events (of any core) that counts as a gap.
  std::uint64_t gap_threshold_ns = 10'000'000;
  /// Keep series over time (CPU load, values) for a report.
  bool time_series = false;
};

/// What the conversion knows about the trace as a whole.
struct TraceTotals {
  std::uint64_t events = 0;
  std::uint64_t first_ts_ns = 0, last_ts_ns = 0;
  std::uint64_t dropped_events = 0;
  std::uint32_t cores = 1;
  const Diagnostics* diagnostics = nullptr;
};

class StatsCollector final : public TraceObserver {
 public:
  /// Open ISRs per core and open spans per marker that are timed; deeper
  /// ones (a trace full of begins without ends) are only counted.
  static constexpr std::size_t kMaxOpen = 1024;

  explicit StatsCollector(StatsOptions options) : options_(options) {}

  // ---- things, as the interpreter meets them ----------------------------------
  Index add_isr(std::uint32_t core) override;
  Index add_marker(Index task) override;  // task: kNone for a global marker
  Index add_value(Index task) override;
  Index add_task() override;
  Index add_queue() override;
  // Events of a schema loaded at run time, as their display rules show them.
  Index add_schema_span(std::string name) override;   // a span name: every span of it, whatever its key
  Index add_schema_event(std::string name) override;  // an event shown as an instant
  Index add_counter(std::string name) override;       // a counter track

  // ---- events -----------------------------------------------------------------
  /// Every timed event (not the runtime's tick-0 core_id), in merged order.
  void timestamp(std::uint64_t ts_ns) override {
    if (seen_ts_ && ts_ns > last_ts_ns_) {
      const std::uint64_t gap = ts_ns - last_ts_ns_;
      if (gap > max_gap_) {
        max_gap_ = gap;
        max_gap_at_ = last_ts_ns_;
      }
      gaps_ += gap > options_.gap_threshold_ns ? 1u : 0u;
    }
    if (!seen_ts_ || ts_ns > last_ts_ns_) {
      last_ts_ns_ = ts_ns;
    }
    if (!seen_ts_) {
      seen_ts_ = true;
      if (options_.time_series) {
        grid_.start(ts_ns);
      }
    }
    if (options_.time_series) {
      grid_.reach(ts_ns);
    }
  }
  void isr_enter(Index isr, std::uint32_t core, std::uint64_t ts_ns) override;
  void isr_exit(Index isr, std::uint32_t core, std::uint64_t ts_ns) override;
  void span_begin(Index marker, std::uint64_t ts_ns) override {
    Span& s = markers_[marker];
    if (s.open.size() < kMaxOpen && s.untimed_depth == 0) {
      s.open.push_back(ts_ns);
    } else {
      ++s.untimed_depth;
    }
  }
  void span_end(Index marker, std::uint64_t ts_ns) override {
    Span& s = markers_[marker];
    if (s.untimed_depth != 0) {
      --s.untimed_depth;
      return;
    }
    if (!s.open.empty()) {
      const std::uint64_t begin = s.open.back();
      s.open.pop_back();
      s.durations.add(ts_ns >= begin ? ts_ns - begin : 0, begin);
    }
  }
  void instant(Index marker, std::uint64_t ts_ns) override {
    Span& s = markers_[marker];
    if (s.instants++ == 0) {
      s.first_instant = ts_ns;
    }
  }
  void value(Index v, std::uint64_t ts_ns, std::int64_t val) override;
  /// A schema span opened; it ends with schema_span_end(), paired by the
  /// interpreter (by key fields, so spans of one name need not nest).
  void schema_span_begin(Index sp) override { ++schema_spans_[sp].open; }
  void schema_span_end(Index sp, std::uint64_t begin_ns, std::uint64_t end_ns) override {
    SchemaSpan& s = schema_spans_[sp];
    s.open -= s.open != 0 ? 1u : 0u;
    s.durations.add(end_ns >= begin_ns ? end_ns - begin_ns : 0, begin_ns);
  }
  void schema_event(Index e, std::uint64_t ts_ns) override {
    SchemaEvent& ev = schema_events_[e];
    if (ev.count++ == 0) {
      ev.first_at = ts_ns;
    }
  }
  void counter(Index c, std::uint64_t ts_ns, double val) override;
  void task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t core) override;
  void queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) override;
  void queue_op(Index queue, QueueOp op) override;
  /// A mutex taken (held from now on) or given back / made available.
  void mutex_taken(Index queue, std::uint64_t ts_ns) override;
  void mutex_released(Index queue, std::uint64_t ts_ns) override;
  void dropped(std::uint64_t ts_ns) override;
  /// A core's metadata buffer overflowed; `lost` is the runtime's running total.
  void metadata_overflow(std::uint32_t core, std::uint64_t lost, std::uint64_t ts_ns) override;
  void link_fault(std::uint32_t core, LinkFault fault, std::uint64_t frames, std::uint64_t ts_ns) override;

  // ---- names, at the end --------------------------------------------------------
  void name_isr(Index isr, std::string name) override { isrs_[isr].name = std::move(name); }
  void name_marker(Index marker, std::string name) override { markers_[marker].name = std::move(name); }
  void name_value(Index v, std::string name) override { values_[v].name = std::move(name); }
  void name_task(Index task, std::string name, bool idle) override {
    tasks_[task].name = std::move(name);
    tasks_[task].idle = idle;
  }
  void name_queue(Index queue, std::string name, bool mutex) override {
    queues_[queue].name = std::move(name);
    queues_[queue].mutex = mutex;
  }
  void name_counter(Index c, std::string name) override { counters_[c].name = std::move(name); }

  /// Closes what is still open at the trace's end and builds the figures.
  [[nodiscard]] TraceStats finish(const TraceTotals& totals);
  /// The figures so far as finish() would give them now, the collector going
  /// on (it finishes a copy): what a live view shows while recording.
  [[nodiscard]] TraceStats snapshot(const TraceTotals& totals) const {
    StatsCollector copy{*this};
    return copy.finish(totals);
  }

 private:
  StatsCollector(const StatsCollector&) = default;

 public:

 private:
  struct Isr {
    std::uint32_t core = 0;
    std::string name;
    DurationSketch durations;
    std::uint64_t self_ns = 0;  // without the ISRs nested in it
    std::uint32_t max_nesting = 0;
    std::uint64_t max_nesting_at = 0;
    std::uint64_t entries = 0;
    std::uint64_t last_entry = 0;
    DurationSketch periods;  // from one entry to the next
  };
  struct Span {
    Index task = kNone;
    std::string name;
    DurationSketch durations;
    std::vector<std::uint64_t> open;  // begin times, innermost last
    std::uint64_t untimed_depth = 0;  // spans open beyond kMaxOpen
    std::uint64_t instants = 0;
    std::uint64_t first_instant = 0;
  };
  /// A series of samples: a value marker's (integers) or a counter's (doubles).
  template <class T>
  struct Samples {
    std::uint64_t count = 0;
    T min{}, max{}, first{}, last{};
    std::uint64_t min_at = 0, max_at = 0, first_at = 0, last_at = 0;
    double sum = 0;
    ValueBins bins;  // when time series are kept
    void add(std::uint64_t ts_ns, T v) {
      if (count == 0 || v < min) {
        min = v;
        min_at = ts_ns;
      }
      if (count == 0 || v > max) {
        max = v;
        max_at = ts_ns;
      }
      if (count == 0) {
        first = v;
        first_at = ts_ns;
      }
      ++count;
      sum += static_cast<double>(v);
      last = v;
      last_at = ts_ns;
    }
  };
  struct Value {
    Index task = kNone;
    std::string name;
    Samples<std::int64_t> samples;
  };
  struct SchemaSpan {
    std::string name;
    DurationSketch durations;
    std::uint64_t open = 0;
  };
  struct SchemaEvent {
    std::string name;
    std::uint64_t count = 0;
    std::uint64_t first_at = 0;
  };
  struct Counter {
    std::string name;
    Samples<double> samples;
  };
  struct Task {
    std::string name;
    bool idle = false;
    bool has_state = false;
    TaskStateKind state = TaskStateKind::kReady;
    std::uint32_t core = 0;  // while running
    std::uint64_t since = 0;
    std::uint64_t time_in[static_cast<std::size_t>(TaskStateKind::kCount)] = {};
    std::vector<std::uint64_t> running_by_core;
    std::uint64_t switches = 0, preemptions = 0;
    DurationSketch ready_latency;  // made ready -> running
    LoadBins load;
  };
  struct Queue {
    std::string name;
    bool mutex = false;
    bool has_fill = false;
    std::uint32_t high_water = 0;
    std::uint64_t high_water_at = 0;
    std::uint64_t ops[6] = {};  // by QueueOp
    std::uint64_t takes = 0;
    bool held = false;
    std::uint64_t held_since = 0;
    DurationSketch holds;
  };
  struct OpenIsr {
    Index isr;
    std::uint64_t begin;
    std::uint64_t nested_ns;  // time spent in ISRs nested in this one
  };
  struct Core {
    std::vector<OpenIsr> open_isrs;
    std::uint64_t untimed_isrs = 0;
    bool scheduled = false;  // a task has run on it
    std::uint64_t first_switch = 0;
  };

  Core& core(std::uint32_t id) {
    if (cores_.size() <= id) {
      cores_.resize(id + 1u);
    }
    return cores_[id];
  }
  void leave_state(Task& t, std::uint64_t ts_ns);

  // finish(), a section at a time
  struct Rows;
  void add_trace_row(Rows& r, const TraceTotals& totals);
  void add_isr_rows(Rows& r);
  StatRow& add_marker_row(Rows& r, Section section, Index task, const std::string& name);
  void add_marker_rows(Rows& r);
  void add_value_rows(Rows& r);
  void add_task_rows(Rows& r);
  void add_queue_rows(Rows& r);
  void add_schema_rows(Rows& r);
  template <class T>
  void add_sample_figures(StatRow& row, Samples<T>& samples, const char* what, std::uint64_t end);

  StatsOptions options_;
  std::vector<Isr> isrs_;
  std::vector<Span> markers_;
  std::vector<Value> values_;
  std::vector<Task> tasks_;
  std::vector<Queue> queues_;
  std::vector<SchemaSpan> schema_spans_;
  std::vector<SchemaEvent> schema_events_;
  std::vector<Counter> counters_;
  std::vector<Core> cores_;
  bool seen_ts_ = false;
  std::uint64_t last_ts_ns_ = 0;
  std::uint64_t max_gap_ = 0, max_gap_at_ = 0, gaps_ = 0;
  bool seen_drop_ = false;
  std::uint64_t first_drop_at_ = 0;
  // By the core id the event names: the newest total. A map, as the id is
  // the event's own word and a corrupt one must not size a vector.
  std::map<std::uint32_t, std::uint64_t> metadata_lost_;
  struct LinkFaults {  // by LinkFault: frames, and the first one's time and core
    std::uint64_t frames = 0;
    std::uint64_t first_at = 0;
    std::uint32_t first_core = 0;
  };
  LinkFaults link_[3];
  bool seen_overflow_ = false;
  std::uint64_t first_overflow_at_ = 0;
  TimeGrid grid_;
};

}  // namespace tband
