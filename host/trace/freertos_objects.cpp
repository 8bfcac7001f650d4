// FreeRTOS kernel objects besides tasks and queues (the FreeRTOS part of the
// interpreter is freertos.cpp): task notifications, a "Notification value"
// counter in the notified task's process (one per index used), and event
// groups, a "<group> bits" counter each. A task that blocks on either says on
// what in its state ("Blocked: take notification", "Blocked: wait bits 0x05
// on flags"). Events without a handler here (event group requests from
// interrupts, the end of a wait, deletion) are instants with their fields.
#include <cstdio>

#include "trace/interpreter.hpp"

namespace tband {

namespace {

std::string hex(std::uint32_t bits) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%02X", bits);
  return text;
}

// " [2]" for a notification other than the first of the task's array.
std::string notify_index(std::uint8_t index) { return index == 0 ? "" : " [" + std::to_string(index) + "]"; }

}  // namespace

// ---- task notifications ---------------------------------------------------------------

void TraceInterpreter::notify_value(std::uint32_t task_id, std::uint8_t index, std::uint64_t ts_ns,
                                    std::uint32_t value) {
  Task& t = task(task_id);
  if (t.notify_tracks.size() <= index) {
    t.notify_tracks.resize(index + 1u, 0);
  }
  TrackId& track = t.notify_tracks[index];
  if (track == 0) {
    track = timeline_.add_track(t.process, TrackKind::kCounter, "Notification value" + notify_index(index));
  }
  timeline_.counter(ts_ns, track, value);
}

void TraceInterpreter::handle(const TaskNotify& e, Context& c) { notify_value(e.task_id, e.index, c.ts_ns, e.value); }

void TraceInterpreter::handle(const TaskNotifyFromIsr& e, Context& c) {
  notify_value(e.task_id, e.index, c.ts_ns, e.value);
}

void TraceInterpreter::handle(const CurtaskBlockOnNotifyTake& e, Context& c) {
  block_current(c, "curtask_block_on_notify_take", "take notification" + notify_index(e.index));
}

// Stream buffers block in a notification wait: the task keeps the state
// the stream buffer gave it.
void TraceInterpreter::handle(const CurtaskBlockOnNotifyWait& e, Context& c) {
  if (tasks_.running(c.core.id) && task(*tasks_.running(c.core.id)).blocked_on_stream_buffer) {
    return;
  }
  block_current(c, "curtask_block_on_notify_wait", "wait for notification" + notify_index(e.index));
}

void TraceInterpreter::handle(const CurtaskNotifyTake& e, Context& c) {
  if (current_task(c, "curtask_notify_take") != nullptr) {
    notify_value(*tasks_.running(c.core.id), e.index, c.ts_ns, e.value_after);
  }
}

void TraceInterpreter::handle(const CurtaskNotifyWait& e, Context& c) {
  if (Task* t = current_task(c, "curtask_notify_wait")) {
    t->blocked_on_stream_buffer = false;  // its wait, if it was one, is over
    notify_value(*tasks_.running(c.core.id), e.index, c.ts_ns, e.value_after);
  }
}

// ---- event groups -----------------------------------------------------------------------

// A new group's bits are all clear.
void TraceInterpreter::handle(const EventGroupCreated& e, Context& c) {
  syncs_.level(SyncFamily::kEventFlags, e.group_id, c.ts_ns, 0);
}

void TraceInterpreter::handle(const EventGroupName& e, Context&) {
  syncs_.name(SyncFamily::kEventFlags, e.group_id, e.name);
}

void TraceInterpreter::handle(const EventGroupSetBits& e, Context& c) {
  syncs_.level(SyncFamily::kEventFlags, e.group_id, c.ts_ns, e.value);
}

void TraceInterpreter::handle(const EventGroupClearBits& e, Context& c) {
  syncs_.level(SyncFamily::kEventFlags, e.group_id, c.ts_ns, e.value);
}

void TraceInterpreter::handle(const CurtaskBlockOnEventGroupWait& e, Context& c) {
  block_current(c, "curtask_block_on_event_group_wait",
                "wait bits " + hex(e.bits) + " on " + syncs_.label(SyncFamily::kEventFlags, e.group_id));
}

void TraceInterpreter::handle(const CurtaskBlockOnEventGroupSync& e, Context& c) {
  block_current(c, "curtask_block_on_event_group_sync",
                "sync bits " + hex(e.bits) + " on " + syncs_.label(SyncFamily::kEventFlags, e.group_id));
}

}  // namespace tband
