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
#include <vector>

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
  ThreadTracker(Timeline& timeline, ObserverPort observer, std::string_view kind)
      : timeline_(timeline),
        names_(timeline.names()),
        observer_(observer),
        kind_(kind) {}

  /// A core whose "Running task" track goes in `process`; before any other call for it.
  void add_core(std::uint32_t core, TrackId process) {
    // Interned here, not when built: the importer fixes the names' order
    // (Perfetto's interned ids follow it).
    running_name_ = names_.intern("Running");
    if (cores_.size() <= core) {
      cores_.resize(core + 1u);
    }
    cores_[core].process = process;
  }
  /// The thread running on the core, if one was switched in there.
  [[nodiscard]] std::optional<std::uint32_t> running(std::uint32_t core) const { return cores_[core].current; }

  /// The thread runs on the core from now on: the one it replaces takes its
  /// switched-out state. Returns the thread, or nullptr when it was running
  /// there already (a yield with nothing else ready is no switch).
  Thread* switch_in(std::uint32_t core, std::uint32_t id, std::uint64_t ts_ns) {
    CoreRun& c = cores_[core];
    Thread& next = thread(id);
    if (c.current == id && next.running_on == core) {
      return nullptr;
    }
    if (c.current) {
      Thread& prev = thread(*c.current);
      if (prev.running_on) {
        timeline_.slice_end(ts_ns, prev.running_track);
        prev.running_on.reset();
      }
      set_state(prev, ts_ns, prev.switched_out_state);
    }
    if (c.running_track == 0) {
      c.running_track = timeline_.add_track(c.process, TrackKind::kSlices, "Running task", TrackRole::kCoreRunning);
    }
    if (c.slice_open) {
      timeline_.slice_end(ts_ns, c.running_track);
      c.slice_open = false;
    }
    if (next.running_on && *next.running_on != core) {
      // Still marked running on another core: that core missed its switch-out.
      timeline_.slice_end(ts_ns, next.running_track);
    }
    set_state(next, ts_ns, {TaskStateKind::kRunning, core, {}});
    // Then the core's slice, right after: the task's kTaskRunning slice tells
    // outputs which task the core's kCoreRunning slice is (trace/track.hpp).
    timeline_.slice_begin(ts_ns, next.running_track, running_name_);
    next.running_on = core;
    next.switched_out_state = {};
    c.current = id;
    // Every thread, the idle one too: a gap would look like the core ran
    // something unknown.
    timeline_.slice_begin(ts_ns, c.running_track, names_.intern(label(id)));
    c.slice_open = true;
    return &next;
  }

  /// The thread, made with its process and tracks when first met.
  Thread& thread(std::uint32_t id) {
    bool created = false;
    Thread& t = threads_.get(id, created);
    if (created) {
      t.process = timeline_.add_process(label(id), next_pid_++, TrackRole::kTask, id);
      t.state_track = timeline_.add_track(t.process, TrackKind::kSlices, "State");
      t.running_track = timeline_.add_track(t.process, TrackKind::kSlices, "Running", TrackRole::kTaskRunning);
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
  struct CoreRun {
    TrackId process = 0, running_track = 0;  // "Running task" slices
    std::optional<std::uint32_t> current;
    bool slice_open = false;
  };

  Timeline& timeline_;
  NameTable& names_;
  ObserverPort observer_;
  std::string kind_;
  NameId running_name_ = 0;
  std::vector<CoreRun> cores_;  // by core id
  IdMap<Thread> threads_;
  std::int32_t next_pid_ = 1000;
};

}  // namespace tband
