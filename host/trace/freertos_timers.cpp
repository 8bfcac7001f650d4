// FreeRTOS software timers: a "<timer> (timer)" track each, with an
// "Active, period N ticks" slice while the timer task keeps it running (from
// a start, reset or period change it received to a stop, a delete, or a
// one-shot timer's expiry), an "expired" instant each time it expires (its
// callback runs next), an instant for each command a task or an interrupt
// sent ("start requested", "stop requested (timer queue full)"; a delete
// only if it did not go in), and a "deleted" instant where the timer task
// carries out a delete.
// A failed creation is an instant with its fields.
#include "trace/interpreter.hpp"

namespace tband {

namespace {

bool starts(FrTimerCommand command) {
  switch (command) {
    case FrTimerCommand::FRTC_START_DONT_TRACE:
    case FrTimerCommand::FRTC_START:
    case FrTimerCommand::FRTC_RESET:
    case FrTimerCommand::FRTC_START_FROM_ISR:
    case FrTimerCommand::FRTC_RESET_FROM_ISR:
      return true;
    default:
      return false;
  }
}

bool changes_period(FrTimerCommand command) {
  return command == FrTimerCommand::FRTC_CHANGE_PERIOD || command == FrTimerCommand::FRTC_CHANGE_PERIOD_FROM_ISR;
}

std::string command_label(FrTimerCommand command, std::uint32_t value) {
  switch (command) {
    case FrTimerCommand::FRTC_START_DONT_TRACE:
    case FrTimerCommand::FRTC_START:
    case FrTimerCommand::FRTC_START_FROM_ISR:
      return "start";
    case FrTimerCommand::FRTC_RESET:
    case FrTimerCommand::FRTC_RESET_FROM_ISR:
      return "reset";
    case FrTimerCommand::FRTC_STOP:
    case FrTimerCommand::FRTC_STOP_FROM_ISR:
      return "stop";
    case FrTimerCommand::FRTC_CHANGE_PERIOD:
    case FrTimerCommand::FRTC_CHANGE_PERIOD_FROM_ISR:
      return "change period to " + std::to_string(value) + " ticks";
    case FrTimerCommand::FRTC_DELETE:
      return "delete";
  }
  return "command " + std::to_string(static_cast<unsigned>(command));
}

}  // namespace

// Met first by any event but its name, a timer gets its track at once.
void TraceInterpreter::timer_start(std::uint32_t id, std::uint64_t ts_ns) {
  const std::uint32_t period = syncs_.object(SyncFamily::kTimer, id).period;
  syncs_.activity_begin(SyncFamily::kTimer, id, ts_ns, "Active, period " + std::to_string(period) + " ticks");
}

void TraceInterpreter::handle(const TimerCreated& e, Context&) {
  syncs_.events_track(SyncFamily::kTimer, e.timer_id);
  SyncObjects::Object& t = syncs_.object(SyncFamily::kTimer, e.timer_id);
  t.period = e.period;
  t.auto_reload = e.auto_reload;
}

void TraceInterpreter::handle(const TimerName& e, Context&) { syncs_.name(SyncFamily::kTimer, e.timer_id, e.name); }

void TraceInterpreter::handle(const TimerCommandSend& e, Context& c) {
  syncs_.instant(SyncFamily::kTimer, e.timer_id, c.ts_ns,
                 command_label(e.command, e.value) + " requested" + (e.sent ? "" : " (timer queue full)"));
}

void TraceInterpreter::handle(const TimerCommandReceived& e, Context& c) {
  syncs_.events_track(SyncFamily::kTimer, e.timer_id);
  if (changes_period(e.command)) {
    syncs_.object(SyncFamily::kTimer, e.timer_id).period = e.value;
    timer_start(e.timer_id, c.ts_ns);
  } else if (starts(e.command)) {
    timer_start(e.timer_id, c.ts_ns);
  } else {
    syncs_.activity_end(SyncFamily::kTimer, e.timer_id, c.ts_ns);  // stop, delete
  }
  // A delete the queue took is not traced where it was sent (the timer may be
  // freed by then): its receipt shows it.
  if (e.command == FrTimerCommand::FRTC_DELETE) {
    syncs_.instant(SyncFamily::kTimer, e.timer_id, c.ts_ns, "deleted");
  }
}

// A one-shot timer stops when it expires; an auto-reload one goes on.
void TraceInterpreter::handle(const TimerExpired& e, Context& c) {
  syncs_.instant(SyncFamily::kTimer, e.timer_id, c.ts_ns, "expired");
  if (!syncs_.object(SyncFamily::kTimer, e.timer_id).auto_reload) {
    syncs_.activity_end(SyncFamily::kTimer, e.timer_id, c.ts_ns);
  }
}

}  // namespace tband
