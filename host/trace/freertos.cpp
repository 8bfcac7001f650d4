// The FreeRTOS part of the interpreter: one process per task (state slices,
// running slices, priority counter, task-local markers; the idle and timer
// tasks say so in their names), a "Running task" track per core (the idle
// task included), a fill counter per queue and "taken by" slices per mutex.
// Task states follow the kernel hooks: a task that blocks, delays, suspends or
// is deleted while running changes state when it is switched out.
#include "trace/interpreter.hpp"

namespace tband {

TraceInterpreter::Task* TraceInterpreter::current_task(Context& c, std::string_view event_name) {
  if (!tasks_.running(c.core.id)) {
    diagnose(DiagnosticKind::kNoCurrentTask, c.ts_ns,
             std::string{event_name} + " on core " + std::to_string(c.origin.core) +
                 " before any task was switched in there (" + where(c.origin) + ")");
    return nullptr;
  }
  return &task(*tasks_.running(c.core.id));
}

void TraceInterpreter::block_current(Context& c, std::string_view event_name, std::string what) {
  if (Task* t = current_task(c, event_name)) {
    t->switched_out_state = {TaskStateKind::kBlocked, 0, std::move(what)};
  }
}

void TraceInterpreter::block_on_queue(Context& c, std::string_view event_name, std::uint32_t queue_id, QueueOp op) {
  // A task waiting in xQueueSelectFromSet() receives from the set.
  const SyncObjects::Object* q = syncs_.find(SyncFamily::kQueue, queue_id);
  const bool set = q != nullptr && q->queue_kind == static_cast<std::uint8_t>(FrQueueKind::FRQK_QUEUE_SET);
  const char* verb = op == QueueOp::kBlockedPeek  ? "peek on "
                     : op == QueueOp::kBlockedSend ? "send to "
                     : set                         ? "select from "
                                                   : "receive from ";
  block_current(c, event_name, verb + queue_label(queue_id));
  count_queue_op(queue_id, op);
}

// ---- tasks --------------------------------------------------------------------------

void TraceInterpreter::handle(const TaskSwitchedIn& e, Context& c) {
  if (Task* next = tasks_.switch_in(c.core.id, e.task_id, c.ts_ns)) {
    next->blocked_on_stream_buffer = false;
  }
}

void TraceInterpreter::handle(const TaskToRdyState& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, {});
  }
}

void TraceInterpreter::handle(const TaskResumed& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, {});
  }
}

void TraceInterpreter::handle(const TaskResumedFromIsr& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.running_on) {
    set_task_state(t, c.ts_ns, {});
  }
}

void TraceInterpreter::handle(const TaskSuspended& e, Context& c) {
  leave(e.task_id, TaskStateKind::kSuspended, c);
}

void TraceInterpreter::handle(const CurtaskDelay& e, Context& c) {
  block_current(c, "curtask_delay", "delay " + std::to_string(e.ticks) + " ticks");
}

// The timer task blocks in vTaskPlaceOnEventListRestricted(), which traces
// it as a delay until now + its timeout (now - 1, wrapped, when it waits for
// no timer): it waits for a command on its queue or its next timer's expiry.
void TraceInterpreter::handle(const CurtaskDelayUntil& e, Context& c) {
  if (tasks_.running(c.core.id) && task(*tasks_.running(c.core.id)).kind == TaskKind::kTimer) {
    block_current(c, "curtask_delay_until", kTimerTaskWait);
    return;
  }
  block_current(c, "curtask_delay_until", "delay until tick " + std::to_string(e.time_to_wake));
}

void TraceInterpreter::handle(const TaskPrioritySet& e, Context& c) { set_priority(e.task_id, c.ts_ns, e.priority); }
void TraceInterpreter::handle(const TaskPriorityInherit& e, Context& c) { set_priority(e.task_id, c.ts_ns, e.priority); }
void TraceInterpreter::handle(const TaskPriorityDisinherit& e, Context& c) {
  set_priority(e.task_id, c.ts_ns, e.priority);
}

void TraceInterpreter::handle(const TaskCreated& e, Context& c) {
  Task& t = task(e.task_id);
  if (!t.has_state) {
    set_task_state(t, c.ts_ns, {});
  }
}

void TraceInterpreter::handle(const TaskDeleted& e, Context& c) {
  leave(e.task_id, TaskStateKind::kDeleted, c);
}

// Suspended or deleted, by itself or by the task running on this core: a
// running task changes state when it is switched out.
void TraceInterpreter::leave(std::uint32_t id, TaskStateKind kind, Context& c) {
  TaskState state{kind, 0, {}};
  if (tasks_.running(c.core.id) && *tasks_.running(c.core.id) != id) {
    state.detail = task_label(*tasks_.running(c.core.id));
  }
  Task& t = task(id);
  if (t.running_on) {
    t.switched_out_state = std::move(state);
  } else {
    set_task_state(t, c.ts_ns, std::move(state));
  }
}

void TraceInterpreter::handle(const TaskName& e, Context&) {
  Task& t = task(e.task_id);
  t.name.assign(e.name);
  name_task_process(t);
}

// The kernel's own tasks say what they are in their process's name; the
// marks may come after the task ran (V11 sends them once the scheduler has
// switched in its first task), so the process is renamed, not its slices.
void TraceInterpreter::name_task_process(Task& t) {
  std::string name = t.name;
  if (t.kind == TaskKind::kIdle) {
    name += " (idle task, core " + std::to_string(t.idle_core) + ")";
  } else if (t.kind == TaskKind::kTimer) {
    name += " (timer task)";
  }
  if (!t.name.empty()) {
    timeline_.rename(t.process, name);
  }
}

void TraceInterpreter::handle(const TaskIsIdleTask& e, Context&) {
  Task& t = task(e.task_id);
  t.kind = TaskKind::kIdle;
  t.idle_core = e.core_id;
  name_task_process(t);
}

void TraceInterpreter::handle(const TaskIsTimerTask& e, Context&) {
  Task& t = task(e.task_id);
  t.kind = TaskKind::kTimer;
  name_task_process(t);
}

// ---- queues ---------------------------------------------------------------------------

void TraceInterpreter::count_queue_op(std::uint32_t id, QueueOp op) {
  observer_.queue_op(syncs_.object(SyncFamily::kQueue, id).obs_id, op);
}

void TraceInterpreter::queue_fill(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t fill,
                                  std::optional<std::uint32_t> by_task) {
  const SyncObjects::Object& q = syncs_.object(SyncFamily::kQueue, id);
  observer_.queue_fill(q.obs_id, ts_ns, fill);
  if (!is_freertos_mutex(q.queue_kind)) {
    syncs_.level(SyncFamily::kQueue, id, ts_ns, fill);
    return;
  }
  // A mutex holds one item while free: 0 means taken, by the task that took
  // it. Empty without a taker is a mutex not given yet: the kernel creates
  // mutexes empty (the hooks report that) and gives them at once.
  if (fill == 0 && by_task) {
    observer_.mutex_taken(q.obs_id, ts_ns);
    syncs_.hold(SyncFamily::kQueue, id, ts_ns, task_label(*by_task));
  } else {
    observer_.mutex_released(q.obs_id, ts_ns);
    if (fill == 0) {
      syncs_.unheld(SyncFamily::kQueue, id, ts_ns);
    } else {
      syncs_.hold(SyncFamily::kQueue, id, ts_ns, std::nullopt);
    }
  }
}

void TraceInterpreter::handle(const QueueCreated& e, Context&) { syncs_.object(SyncFamily::kQueue, e.queue_id); }

void TraceInterpreter::handle(const QueueName& e, Context&) { syncs_.name(SyncFamily::kQueue, e.queue_id, e.name); }

void TraceInterpreter::handle(const QueueKind& e, Context&) {
  syncs_.object(SyncFamily::kQueue, e.queue_id).queue_kind = static_cast<std::uint8_t>(e.kind);
}

void TraceInterpreter::handle(const QueueSend& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kSend);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, tasks_.running(c.core.id));
}
void TraceInterpreter::handle(const QueueSendFromIsr& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kSend);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueOverwrite& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kSend);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, tasks_.running(c.core.id));
}
void TraceInterpreter::handle(const QueueOverwriteFromIsr& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kSend);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueReceive& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kReceive);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, tasks_.running(c.core.id));
}
void TraceInterpreter::handle(const QueueReceiveFromIsr& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kReceive);
  queue_fill(e.queue_id, c.ts_ns, e.len_after, std::nullopt);
}
void TraceInterpreter::handle(const QueueReset& e, Context& c) {
  count_queue_op(e.queue_id, QueueOp::kReset);
  queue_fill(e.queue_id, c.ts_ns, 0, tasks_.running(c.core.id));
}
void TraceInterpreter::handle(const QueueCurLength& e, Context& c) {
  queue_fill(e.queue_id, c.ts_ns, e.length, std::nullopt);
}

void TraceInterpreter::handle(const CurtaskBlockOnQueuePeek& e, Context& c) {
  block_on_queue(c, "curtask_block_on_queue_peek", e.queue_id, QueueOp::kBlockedPeek);
}
void TraceInterpreter::handle(const CurtaskBlockOnQueueSend& e, Context& c) {
  block_on_queue(c, "curtask_block_on_queue_send", e.queue_id, QueueOp::kBlockedSend);
}
void TraceInterpreter::handle(const CurtaskBlockOnQueueReceive& e, Context& c) {
  block_on_queue(c, "curtask_block_on_queue_receive", e.queue_id, QueueOp::kBlockedReceive);
}

// ---- task-local markers ------------------------------------------------------------------

void TraceInterpreter::handle(const TaskEvtmarkerName& e, Context&) {
  markers_.name_marker(task(e.task_id).markers, e.evtmarker_id, e.name);
}

void TraceInterpreter::handle(const TaskEvtmarker& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker")) {
    markers_.instant(t->markers, e.evtmarker_id, c.ts_ns, e.msg);
  }
}

void TraceInterpreter::handle(const TaskEvtmarkerBegin& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker_begin")) {
    markers_.begin(t->markers, e.evtmarker_id, c.ts_ns, e.msg);
  }
}

void TraceInterpreter::handle(const TaskEvtmarkerEnd& e, Context& c) {
  if (Task* t = current_task(c, "task_evtmarker_end")) {
    marker_end(t->markers, e.evtmarker_id, "task event marker", c);
  }
}

void TraceInterpreter::handle(const TaskValmarkerName& e, Context&) {
  markers_.name_value(task(e.task_id).markers, e.valmarker_id, e.name);
}

void TraceInterpreter::handle(const TaskValmarker& e, Context& c) {
  if (Task* t = current_task(c, "task_valmarker")) {
    markers_.value(t->markers, e.valmarker_id, c.ts_ns, e.val);
  }
}

void TraceInterpreter::finish_freertos() {
  for (auto& [id, t] : tasks_.entries()) {
    if (t.name.empty()) {
      diagnose(DiagnosticKind::kUnnamedId, std::nullopt, "task " + std::to_string(id) + " was never named");
    }
  }
  // Objects with a track and no name. The kernel has no registry for event
  // groups, stream buffers and timers: only the firmware's name call names them.
  for (const SyncFamily family :
       {SyncFamily::kQueue, SyncFamily::kEventFlags, SyncFamily::kBuffer, SyncFamily::kTimer}) {
    syncs_.each_unnamed(family, [this](const std::string& label) {
      diagnose(DiagnosticKind::kUnnamedId, std::nullopt, label + " was never named");
    });
  }
}

}  // namespace tband
