// What the trace model tells those who watch it besides the timeline: each
// thing (ISR, marker, value, task, queue, run-time schema span, event or
// counter) as it is first met, every event on it at the point where the
// timeline gets the same, and all the names at the end (names can arrive
// late). StatsCollector is one observer; the model knows nothing of stats.
//
// An observer hands out an Index per thing (add_*); the model keeps it with
// the thing and passes it back with each event.
#pragma once

#include <cstdint>
#include <string>

#include "trace/task_state.hpp"

namespace tband {

class TraceObserver {
 public:
  using Index = std::uint32_t;
  static constexpr Index kNone = 0xFFFFFFFFu;

  TraceObserver() = default;
  TraceObserver(const TraceObserver&) = delete;
  TraceObserver& operator=(const TraceObserver&) = delete;
  virtual ~TraceObserver() = default;

  // ---- things, as the model meets them ---------------------------------------
  virtual Index add_isr(std::uint32_t core) = 0;
  virtual Index add_marker(Index task) = 0;  // task: kNone for a global marker
  virtual Index add_value(Index task) = 0;
  virtual Index add_task() = 0;
  virtual Index add_queue() = 0;
  // Events of a schema loaded at run time, as their display rules show them.
  virtual Index add_schema_span(std::string name) = 0;   // a span name: every span of it, whatever its key
  virtual Index add_schema_event(std::string name) = 0;  // an event shown as an instant
  virtual Index add_counter(std::string name) = 0;       // a counter track

  // ---- events -----------------------------------------------------------------
  /// Every timed event (not the runtime's tick-0 core_id), in merged order.
  virtual void timestamp(std::uint64_t ts_ns) = 0;
  virtual void isr_enter(Index isr, std::uint32_t core, std::uint64_t ts_ns) = 0;
  virtual void isr_exit(Index isr, std::uint32_t core, std::uint64_t ts_ns) = 0;
  virtual void span_begin(Index marker, std::uint64_t ts_ns) = 0;
  virtual void span_end(Index marker, std::uint64_t ts_ns) = 0;
  virtual void instant(Index marker, std::uint64_t ts_ns) = 0;
  virtual void value(Index v, std::uint64_t ts_ns, std::int64_t val) = 0;
  /// A schema span opened; it ends with schema_span_end(), paired by the
  /// model (by key fields, so spans of one name need not nest).
  virtual void schema_span_begin(Index span) = 0;
  virtual void schema_span_end(Index span, std::uint64_t begin_ns, std::uint64_t end_ns) = 0;
  virtual void schema_event(Index event, std::uint64_t ts_ns) = 0;
  virtual void counter(Index c, std::uint64_t ts_ns, double val) = 0;
  virtual void task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t core) = 0;
  virtual void queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) = 0;
  virtual void queue_op(Index queue, QueueOp op) = 0;
  /// A mutex taken (held from now on) or given back / made available.
  virtual void mutex_taken(Index queue, std::uint64_t ts_ns) = 0;
  virtual void mutex_released(Index queue, std::uint64_t ts_ns) = 0;
  virtual void dropped(std::uint64_t ts_ns) = 0;
  /// A core's metadata buffer overflowed; `lost` is the runtime's running total.
  virtual void metadata_overflow(std::uint32_t core, std::uint64_t lost, std::uint64_t ts_ns) = 0;

  // ---- names, at the end --------------------------------------------------------
  virtual void name_isr(Index isr, std::string name) = 0;
  virtual void name_marker(Index marker, std::string name) = 0;
  virtual void name_value(Index v, std::string name) = 0;
  virtual void name_task(Index task, std::string name, bool idle) = 0;
  virtual void name_queue(Index queue, std::string name, bool mutex) = 0;
};

/// Watches nothing: installed when nobody observes, so the model calls its
/// observer unconditionally instead of testing for one at every event. A
/// base for observers that watch only a few things.
class NullObserver : public TraceObserver {
 public:
  Index add_isr(std::uint32_t) override { return kNone; }
  Index add_marker(Index) override { return kNone; }
  Index add_value(Index) override { return kNone; }
  Index add_task() override { return kNone; }
  Index add_queue() override { return kNone; }
  Index add_schema_span(std::string) override { return kNone; }
  Index add_schema_event(std::string) override { return kNone; }
  Index add_counter(std::string) override { return kNone; }
  void timestamp(std::uint64_t) override {}
  void isr_enter(Index, std::uint32_t, std::uint64_t) override {}
  void isr_exit(Index, std::uint32_t, std::uint64_t) override {}
  void span_begin(Index, std::uint64_t) override {}
  void span_end(Index, std::uint64_t) override {}
  void instant(Index, std::uint64_t) override {}
  void value(Index, std::uint64_t, std::int64_t) override {}
  void schema_span_begin(Index) override {}
  void schema_span_end(Index, std::uint64_t, std::uint64_t) override {}
  void schema_event(Index, std::uint64_t) override {}
  void counter(Index, std::uint64_t, double) override {}
  void task_state(Index, std::uint64_t, TaskStateKind, std::uint32_t) override {}
  void queue_fill(Index, std::uint64_t, std::uint32_t) override {}
  void queue_op(Index, QueueOp) override {}
  void mutex_taken(Index, std::uint64_t) override {}
  void mutex_released(Index, std::uint64_t) override {}
  void dropped(std::uint64_t) override {}
  void metadata_overflow(std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void name_isr(Index, std::string) override {}
  void name_marker(Index, std::string) override {}
  void name_value(Index, std::string) override {}
  void name_task(Index, std::string, bool) override {}
  void name_queue(Index, std::string, bool) override {}
};

}  // namespace tband
