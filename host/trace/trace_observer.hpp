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
#include <utility>

#include "trace/task_state.hpp"

namespace tband {

class TraceObserver {
 public:
  using Index = std::uint32_t;
  static constexpr Index kNone = 0xFFFFFFFFu;

  TraceObserver() = default;
  TraceObserver& operator=(const TraceObserver&) = delete;
  virtual ~TraceObserver() = default;

 protected:
  /// For an observer that copies itself (a snapshot of its figures so far);
  /// protected, so that no observer is copied through its base.
  TraceObserver(const TraceObserver&) = default;

 public:

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
  /// Link integrity (decode/link_check.hpp): `frames` lost on the link, or
  /// one corrupt or stale frame discarded, on `core`, after its event at ts_ns.
  enum class LinkFault : std::uint8_t { kLost, kCorrupt, kStale };
  virtual void link_fault(std::uint32_t core, LinkFault fault, std::uint64_t frames, std::uint64_t ts_ns) {
    (void)core, (void)fault, (void)frames, (void)ts_ns;
  }

  // ---- names, at the end --------------------------------------------------------
  virtual void name_isr(Index isr, std::string name) = 0;
  virtual void name_marker(Index marker, std::string name) = 0;
  virtual void name_value(Index v, std::string name) = 0;
  virtual void name_task(Index task, std::string name, bool idle) = 0;
  virtual void name_queue(Index queue, std::string name, bool mutex) = 0;
  /// A counter track renamed after add_counter() (a display rule's name
  /// event that arrived after the track was made).
  virtual void name_counter(Index c, std::string name) = 0;
};

/// Watches nothing: a base for observers that watch only a few things.
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
  void name_counter(Index, std::string) override {}
};

/// How the model calls its observer: every call goes through here and is
/// skipped when nobody observes (a branch the CPU predicts, where a do-nothing
/// observer cost an indirect call or two per event), so the model's code
/// calls it unconditionally and no call site tests for an observer.
class ObserverPort {
 public:
  using Index = TraceObserver::Index;
  static constexpr Index kNone = TraceObserver::kNone;

  /// nullptr: nobody observes.
  explicit ObserverPort(TraceObserver* target) noexcept : target_(target) {}
  ObserverPort(TraceObserver& target) noexcept : target_(&target) {}  // NOLINT: implicit on purpose

  Index add_isr(std::uint32_t core) {
    return target_ != nullptr ? target_->add_isr(core) : kNone;
  }
  Index add_marker(Index task) {
    return target_ != nullptr ? target_->add_marker(task) : kNone;
  }
  Index add_value(Index task) {
    return target_ != nullptr ? target_->add_value(task) : kNone;
  }
  Index add_task() {
    return target_ != nullptr ? target_->add_task() : kNone;
  }
  Index add_queue() {
    return target_ != nullptr ? target_->add_queue() : kNone;
  }
  Index add_schema_span(std::string name) { return target_ != nullptr ? target_->add_schema_span(std::move(name)) : kNone; }
  Index add_schema_event(std::string name) { return target_ != nullptr ? target_->add_schema_event(std::move(name)) : kNone; }
  Index add_counter(std::string name) { return target_ != nullptr ? target_->add_counter(std::move(name)) : kNone; }
  void timestamp(std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->timestamp(ts_ns);
    }
  }
  void isr_enter(Index isr, std::uint32_t core, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->isr_enter(isr, core, ts_ns);
    }
  }
  void isr_exit(Index isr, std::uint32_t core, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->isr_exit(isr, core, ts_ns);
    }
  }
  void span_begin(Index marker, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->span_begin(marker, ts_ns);
    }
  }
  void span_end(Index marker, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->span_end(marker, ts_ns);
    }
  }
  void instant(Index marker, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->instant(marker, ts_ns);
    }
  }
  void value(Index v, std::uint64_t ts_ns, std::int64_t val) {
    if (target_ != nullptr) {
      target_->value(v, ts_ns, val);
    }
  }
  void schema_span_begin(Index span) {
    if (target_ != nullptr) {
      target_->schema_span_begin(span);
    }
  }
  void schema_span_end(Index span, std::uint64_t begin_ns, std::uint64_t end_ns) {
    if (target_ != nullptr) {
      target_->schema_span_end(span, begin_ns, end_ns);
    }
  }
  void schema_event(Index event, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->schema_event(event, ts_ns);
    }
  }
  void counter(Index c, std::uint64_t ts_ns, double val) {
    if (target_ != nullptr) {
      target_->counter(c, ts_ns, val);
    }
  }
  void task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t core) {
    if (target_ != nullptr) {
      target_->task_state(task, ts_ns, state, core);
    }
  }
  void queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) {
    if (target_ != nullptr) {
      target_->queue_fill(queue, ts_ns, fill);
    }
  }
  void queue_op(Index queue, QueueOp op) {
    if (target_ != nullptr) {
      target_->queue_op(queue, op);
    }
  }
  void mutex_taken(Index queue, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->mutex_taken(queue, ts_ns);
    }
  }
  void mutex_released(Index queue, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->mutex_released(queue, ts_ns);
    }
  }
  void dropped(std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->dropped(ts_ns);
    }
  }
  void metadata_overflow(std::uint32_t core, std::uint64_t lost, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->metadata_overflow(core, lost, ts_ns);
    }
  }
  void link_fault(std::uint32_t core, TraceObserver::LinkFault fault, std::uint64_t frames, std::uint64_t ts_ns) {
    if (target_ != nullptr) {
      target_->link_fault(core, fault, frames, ts_ns);
    }
  }
  void name_isr(Index isr, std::string name) {
    if (target_ != nullptr) {
      target_->name_isr(isr, std::move(name));
    }
  }
  void name_marker(Index marker, std::string name) {
    if (target_ != nullptr) {
      target_->name_marker(marker, std::move(name));
    }
  }
  void name_value(Index v, std::string name) {
    if (target_ != nullptr) {
      target_->name_value(v, std::move(name));
    }
  }
  void name_task(Index task, std::string name, bool idle) {
    if (target_ != nullptr) {
      target_->name_task(task, std::move(name), idle);
    }
  }
  void name_queue(Index queue, std::string name, bool mutex) {
    if (target_ != nullptr) {
      target_->name_queue(queue, std::move(name), mutex);
    }
  }
  void name_counter(Index c, std::string name) {
    if (target_ != nullptr) {
      target_->name_counter(c, std::move(name));
    }
  }

 private:
  TraceObserver* target_;
};

}  // namespace tband
