// Threads (FreeRTOS tasks, ThreadX threads): a process each with a state
// track, a "Running" track, a priority counter and the thread's own markers.
// Knows no RTOS: an importer decides when a thread changes state; what the
// RTOS alone knows of a thread (FreeRTOS: idle or timer task, notification
// values) it keeps in Extra, which every thread carries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/id_map.hpp"
#include "trace/marker_tracker.hpp"
#include "trace/names.hpp"
#include "trace/task_state.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

struct NoThreadExtra {};

template <class Extra = NoThreadExtra>
class ThreadTracker {
 public:
  struct Thread : Extra {
    TrackId process = 0, state_track = 0, running_track = 0, priority_track = 0;
    std::string name;
    std::optional<std::uint32_t> running_on;  // core
    bool has_state = false;
    TaskState state;               // the open state slice
    TaskState switched_out_state;  // state once it stops running (Ready unless it blocked or left)
    TraceObserver::Index obs_id = TraceObserver::kNone;
    MarkerScope markers;  // thread-local markers
  };

  /// `kind` names threads without a name: "<kind> <id>".
  ThreadTracker(Timeline& timeline, TraceObserver& observer, std::string_view kind)
      : timeline_(timeline), names_(timeline.names()), observer_(observer), kind_(kind) {}

  /// The thread, made with its process and tracks when first met.
  Thread& thread(std::uint32_t id) {
    bool created = false;
    Thread& t = threads_.get(id, created);
    if (created) {
      t.process = timeline_.add_process(label(id), next_pid_++);
      t.state_track = timeline_.add_track(t.process, TrackKind::kSlices, "State");
      t.running_track = timeline_.add_track(t.process, TrackKind::kSlices, "Running");
      t.obs_id = observer_.add_task();
      t.markers.parent = t.process;
      t.markers.owner = t.obs_id;
    }
    return t;
  }
  [[nodiscard]] Thread* find(std::uint32_t id) { return threads_.find(id); }
  /// (id, thread) pairs in the order they were met.
  [[nodiscard]] auto& entries() noexcept { return threads_.entries(); }

  /// Its name, or "<kind> <id>".
  [[nodiscard]] std::string label(std::uint32_t id) {
    const Thread* t = threads_.find(id);
    return t != nullptr && !t->name.empty() ? t->name : kind_ + " " + std::to_string(id);
  }

  /// Closes the open state slice and opens one for `state`, unless it is the same.
  void set_state(Thread& t, std::uint64_t ts_ns, TaskState state) {
    if (t.has_state) {
      if (t.state == state) {
        return;  // e.g. a ready thread made ready again
      }
      timeline_.slice_end(ts_ns, t.state_track);
    }
    observer_.task_state(t.obs_id, ts_ns, state.kind, state.core);
    const std::string text = state.text();
    timeline_.slice_begin(ts_ns, t.state_track, names_.intern_bounded(text), {}, text);
    t.state = std::move(state);
    t.has_state = true;
  }

  void set_priority(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t priority) {
    Thread& t = thread(id);
    if (t.priority_track == 0) {
      t.priority_track = timeline_.add_track(t.process, TrackKind::kCounter, "Priority");
    }
    timeline_.counter(ts_ns, t.priority_track, priority);
  }

 private:
  Timeline& timeline_;
  NameTable& names_;
  TraceObserver& observer_;
  std::string kind_;
  IdMap<Thread> threads_;
  std::int32_t next_pid_ = 1000;
};

}  // namespace tband
