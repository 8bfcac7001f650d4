// The FreeRTOS part of the interpreter: one process per task (state slices,
// running slices, priority counter, task-local markers), a "Running task"
// track per core, a fill counter per queue and "taken by" slices per mutex.
// Task states follow the kernel hooks: a task that blocks, delays, suspends or
// is deleted while running changes state when it is switched out.
#include "trace/interpreter.hpp"

namespace tband {

namespace {

bool is_mutex(std::optional<std::uint8_t> kind) {
  return kind && (*kind == static_cast<std::uint8_t>(FrQueueKind::FRQK_MUTEX) ||
                  *kind == static_cast<std::uint8_t>(FrQueueKind::FRQK_RECURSIVE_MUTEX));
}

}  // namespace

std::string TraceInterpreter::task_label(std::uint32_t id) {
  const Task* t = tasks_.find(id);
  return t != nullptr && !t->name.empty() ? t->name : "task " + std::to_string(id);
}

TraceInterpreter::Task& TraceInterpreter::task(std::uint32_t id) {
  bool created = false;
  Task& t = tasks_.get(id, created);
  if (created) {
    const std::string label = task_label(id);
    t.process = timeline_.add_process(label, next_task_pid_++);
    t.state_track = timeline_.add_track(t.process, TrackKind::kSlices, "State");
    t.running_track = timeline_.add_track(t.process, TrackKind::kSlices, "Running");
  }
  return t;
}

void TraceInterpreter::set_task_state(Task& t, std::uint64_t ts_ns, const std::string& state) {
  if (t.has_state) {
    if (t.state == state) {
      return;  // e.g. a ready task made ready again
    }
    timeline_.slice_end(ts_ns, t.state_track);
  }
  timeline_.slice_begin(ts_ns, t.state_track, names_.intern_bounded(state), {}, state);
  t.state = state;
  t.has_state = true;
}

TraceInterpreter::Task* TraceInterpreter::current_task(Context& c, std::string_view event_name) {
  if (!c.core.current_task) {
    diagnose(DiagnosticKind::kNoCurrentTask, c.ts_ns,
             std::string{event_name} + " on core " + std::to_string(c.origin.core) +
                 " before any task was switched in there (" + where(c.origin) + ")");
    return nullptr;
  }
  return &task(*c.core.current_task);
}

void TraceInterpreter::block_current(Context& c, std::string_view event_name, std::string state) {
  if (Task* t = current_task(c, event_name)) {
    t->switched_out_state = std::move(state);
  }
}

void TraceInterpreter::set_priority(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t priority) {
  Task& t = task(id);
  if (t.priority_track == 0) {
    t.priority_track = timeline_.add_track(t.process, TrackKind::kCounter, "Priority");
  }
  timeline_.counter(ts_ns, t.priority_track, priority);
}

// ---- tasks --------------------------------------------------------------------------

void TraceInterpreter::handle(const TaskSwitchedIn& e, Context& c) {
  Task& next = task(e.task_id);
  if (c.core.current_task) {
    Task& prev = task(*c.core.current_task);
    if (prev.running_on) {
      timeline_.slice_end(c.ts_ns, prev.running_track);
      prev.running_on.reset();
    }
    set_task_state(prev, c.ts_ns, prev.switched_out_state);
  }
  if (c.core.running_task_track == 0) {
    c.core.running_task_track = timeline_.add_track(c.core.process, TrackKind::kSlices, "Running task");
  }
  if (c.core.running_slice_open) {
    timeline_.slice_end(c.ts_ns, c.core.running_task_track);
    c.core.running_slice_open = false;
  }
  if (next.running_on && *next.running_on != c.origin.core) {
    // Still marked running on another core: that core missed its switch-out.
    timeline_.slice_end(c.ts_ns, next.running_track);
  }
  set_task_state(next, c.ts_ns, "Running on core " + std::to_string(c.origin.core));
  timeline_.slice_begin(c.ts_ns, next.running_track, running_name_);
  next.running_on = c.origin.core;
  next.switched_out_state = "Ready";
  c.core.current_task = e.task_id;
  if (next.kind != TaskKind::kIdle) {
    timeline_.slice_begin(c.ts_ns, c.core.running_task_track, names_.intern(task_label(e.task_id)));
    c.core.running_slice_open = true;
  }
}

void TraceInterpreter::handle(const TaskToRdyState& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, "Ready");
  }
}

void TraceInterpreter::handle(const TaskResumed& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, "Ready");
  }
}

void TraceInterpreter::handle(const TaskResumedFromIsr& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, "Ready");
  }
}

void TraceInterpreter::handle(const TaskSuspended& e, Context& c) { leave(e.task_id, "Suspended", c); }

void TraceInterpreter::handle(const CurtaskDelay& e, Context& c) {
  block_current(c, "curtask_delay", "Blocked: delay " + std::to_string(e.ticks) + " ticks");
}

void TraceInterpreter::handle(const CurtaskDelayUntil& e, Context& c) {
  block_current(c, "curtask_delay_until", "Blocked: delay until tick " + std::to_string(e.time_to_wake));
}

void TraceInterpreter::handle(const TaskPrioritySet& e, Context& c) { set_priority(e.task_id, c.ts_ns, e.priority); }
void TraceInterpreter::handle(const TaskPriorityInherit& e, Context& c) { set_priority(e.task_id, c.ts_ns, e.priority); }
void TraceInterpreter::handle(const TaskPriorityDisinherit& e, Context& c) {
  set_priority(e.task_id, c.ts_ns, e.priority);
}

void TraceInterpreter::handle(const TaskCreated& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.has_state) {
    set_task_state(t, c.ts_ns, "Ready");
  }
}

void TraceInterpreter::handle(const TaskDeleted& e, Context& c) { leave(e.task_id, "Deleted", c); }

// Suspended or deleted, by itself or by the task running on this core: a
// running task changes state when it is switched out.
void TraceInterpreter::leave(std::uint32_t id, std::string state, Context& c) {
  if (c.core.current_task && *c.core.current_task != id) {
    state += " by " + task_label(*c.core.current_task);
  }
  Task& t = task(id);
  if (t.running_on) {
    t.switched_out_state = std::move(state);
  } else {
    set_task_state(t, c.ts_ns, state);
  }
}

void TraceInterpreter::handle(const TaskName& e, Context&) {
  Task& t = task(e.task_id);
  t.name.assign(e.name);
  timeline_.rename(t.process, t.name);
}

void TraceInterpreter::handle(const TaskIsIdleTask& e, Context&) { task(e.task_id).kind = TaskKind::kIdle; }
void TraceInterpreter::handle(const TaskIsTimerTask& e, Context&) { task(e.task_id).kind = TaskKind::kTimer; }

// ---- queues ---------------------------------------------------------------------------

std::string TraceInterpreter::queue_label(std::uint32_t id) {
  const Queue* q = queues_.find(id);
  return q != nullptr && !q->name.empty() ? q->name : "queue " + std::to_string(id);
}

TraceInterpreter::Queue& TraceInterpreter::queue(std::uint32_t id) {
  bool created = false;
  return queues_.get(id, created);
}

void TraceInterpreter::queue_fill(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t fill,
                                  std::optional<std::uint32_t> by_task) {
  Queue& q = queue(id);
  const bool mutex = is_mutex(q.kind);
  if (q.track == 0 || q.track_is_mutex != mutex) {
    if (q.slice_open) {
      timeline_.slice_end(ts_ns, q.track);
      q.slice_open = false;
    }
    q.track = timeline_.add_track(0, mutex ? TrackKind::kSlices : TrackKind::kCounter,
                                  queue_label(id) + (mutex ? " holder" : " fill"));
    q.track_is_mutex = mutex;
  }
  if (!mutex) {
    timeline_.counter(ts_ns, q.track, fill);
    return;
  }
  // A mutex holds one item while free: 0 means taken.
  if (q.slice_open) {
    timeline_.slice_end(ts_ns, q.track);
  }
  const std::string state = fill == 0 ? (by_task ? "Taken by " + task_label(*by_task) : std::string{"Taken"})
                                      : std::string{"Available"};
  timeline_.slice_begin(ts_ns, q.track, names_.intern(state));
  q.slice_open = true;
}

void TraceInterpreter::handle(const QueueCreated& e, Context&) { queue(e.queue_id); }

void TraceInterpreter::handle(const QueueName& e, Context&) {
  Queue& q = queue(e.queue_id);
  q.name.assign(e.name);
  if (q.track != 0) {
    timeline_.rename(q.track, q.name + (q.track_is_mutex ? " holder" : " fill"));
  }
}

void TraceInterpreter::handle(const QueueKind& e, Context&) { queue(e.queue_id).kind = static_cast<std::uint8_t>(e.kind); }

void TraceInterpreter::handle(const QueueSend& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, c.core.current_task);
}
void TraceInterpreter::handle(const QueueSendFromIsr& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueOverwrite& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, c.core.current_task);
}
void TraceInterpreter::handle(const QueueOverwriteFromIsr& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueReceive& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, c.core.current_task);
}
void TraceInterpreter::handle(const QueueReceiveFromIsr& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueReset& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, 0, c.core.current_task);
}
void TraceInterpreter::handle(const QueueCurLength& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.length, std::nullopt);
}

void TraceInterpreter::handle(const CurtaskBlockOnQueuePeek& e, Context& c) {
  block_current(c, "curtask_block_on_queue_peek", "Blocked: peek on " + queue_label(e.queue_id));
}
void TraceInterpreter::handle(const CurtaskBlockOnQueueSend& e, Context& c) {
  block_current(c, "curtask_block_on_queue_send", "Blocked: send to " + queue_label(e.queue_id));
}
void TraceInterpreter::handle(const CurtaskBlockOnQueueReceive& e, Context& c) {
  block_current(c, "curtask_block_on_queue_receive", "Blocked: receive from " + queue_label(e.queue_id));
}

// ---- task-local markers ------------------------------------------------------------------

TraceInterpreter::Marker& TraceInterpreter::task_marker(Task& t, std::uint32_t marker_id) {
  bool created = false;
  Marker& m = t.markers.get(marker_id, created);
  if (created) {
    if (std::string* early = t.marker_names.find(marker_id)) {
      m.name = *early;
    }
    m.track = timeline_.add_track(t.process, TrackKind::kSlices,
                                  m.name.empty() ? "evtmarker " + std::to_string(marker_id) : m.name);
    m.name_id = names_.intern(timeline_.track(m.track).name);
  }
  return m;
}

void TraceInterpreter::handle(const TaskEvtmarkerName& e, Context&) {
  Task& t = task(e.task_id);
  if (Marker* m = t.markers.find(e.evtmarker_id)) {
    m->name.assign(e.name);
    timeline_.rename(m->track, m->name);
    m->name_id = names_.intern(m->name);
  } else {
    bool created = false;
    t.marker_names.get(e.evtmarker_id, created).assign(e.name);
  }
}

void TraceInterpreter::handle(const TaskEvtmarker& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker")) {
    marker_instant(task_marker(*t, e.evtmarker_id), c.ts_ns, e.msg);
  }
}

void TraceInterpreter::handle(const TaskEvtmarkerBegin& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker_begin")) {
    marker_begin(task_marker(*t, e.evtmarker_id), c.ts_ns, e.msg);
  }
}

void TraceInterpreter::handle(const TaskEvtmarkerEnd& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker_end")) {
    marker_end(task_marker(*t, e.evtmarker_id), c.ts_ns, "task event marker", c);
  }
}

void TraceInterpreter::handle(const TaskValmarkerName& e, Context&) {
  Task& t = task(e.task_id);
  if (ValueMarker* m = t.value_markers.find(e.valmarker_id)) {
    m->name.assign(e.name);
    timeline_.rename(m->track, m->name);
  } else {
    bool created = false;
    t.value_marker_names.get(e.valmarker_id, created).assign(e.name);
  }
}

void TraceInterpreter::handle(const TaskValmarker& e, Context& c) {
  Task* t = current_task(c, "task_valmarker");
  if (t == nullptr) {
    return;
  }
  bool created = false;
  ValueMarker& m = t->value_markers.get(e.valmarker_id, created);
  if (created) {
    if (std::string* early = t->value_marker_names.find(e.valmarker_id)) {
      m.name = *early;
    }
    m.track = timeline_.add_track(t->process, TrackKind::kCounter,
                                  m.name.empty() ? "valmarker " + std::to_string(e.valmarker_id) : m.name);
  }
  timeline_.counter(c.ts_ns, m.track, e.val);
}

void TraceInterpreter::finish_freertos() {
  for (auto& [id, t] : tasks_.entries()) {
    if (t.name.empty()) {
      diagnose(DiagnosticKind::kUnnamedId, std::nullopt, "task " + std::to_string(id) + " was never named");
    }
  }
  for (auto& [id, q] : queues_.entries()) {
    if (q.name.empty() && q.track != 0) {
      diagnose(DiagnosticKind::kUnnamedId, std::nullopt, "queue " + std::to_string(id) + " was never named");
    }
  }
}

}  // namespace tband
