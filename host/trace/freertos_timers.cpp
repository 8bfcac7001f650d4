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

std::string TraceInterpreter::timer_label(std::uint32_t id) {
  const Timer* t = timers_.find(id);
  return t != nullptr && !t->name.empty() ? t->name : "timer " + std::to_string(id);
}

TraceInterpreter::Timer& TraceInterpreter::timer(std::uint32_t id) {
  bool created = false;
  Timer& t = timers_.get(id, created);
  if (t.track == 0) {
    t.track = timeline_.add_track(0, TrackKind::kSlices, timer_label(id) + " (timer)");
  }
  return t;
}

void TraceInterpreter::timer_stop(Timer& t, std::uint64_t ts_ns) {
  if (t.active) {
    timeline_.slice_end(ts_ns, t.track);
    t.active = false;
  }
}

void TraceInterpreter::timer_start(Timer& t, std::uint64_t ts_ns) {
  timer_stop(t, ts_ns);
  timeline_.slice_begin(ts_ns, t.track, names_.intern("Active, period " + std::to_string(t.period) + " ticks"));
  t.active = true;
}

void TraceInterpreter::handle(const TimerCreated& e, Context&) {
  Timer& t = timer(e.timer_id);
  t.period = e.period;
  t.auto_reload = e.auto_reload;
}

void TraceInterpreter::handle(const TimerName& e, Context&) {
  bool created = false;
  Timer& t = timers_.get(e.timer_id, created);
  t.name.assign(e.name);
  if (t.track != 0) {
    timeline_.rename(t.track, t.name + " (timer)");
  }
}

void TraceInterpreter::handle(const TimerCommandSend& e, Context& c) {
  const std::string label = command_label(e.command, e.value) + " requested" + (e.sent ? "" : " (timer queue full)");
  timeline_.instant(c.ts_ns, timer(e.timer_id).track, names_.intern(label));
}

void TraceInterpreter::handle(const TimerCommandReceived& e, Context& c) {
  Timer& t = timer(e.timer_id);
  if (changes_period(e.command)) {
    t.period = e.value;
    timer_start(t, c.ts_ns);
  } else if (starts(e.command)) {
    timer_start(t, c.ts_ns);
  } else {
    timer_stop(t, c.ts_ns);  // stop, delete
  }
  // A delete the queue took is not traced where it was sent (the timer may be
  // freed by then): its receipt shows it.
  if (e.command == FrTimerCommand::FRTC_DELETE) {
    timeline_.instant(c.ts_ns, t.track, names_.intern("deleted"));
  }
}

// A one-shot timer stops when it expires; an auto-reload one goes on.
void TraceInterpreter::handle(const TimerExpired& e, Context& c) {
  Timer& t = timer(e.timer_id);
  timeline_.instant(c.ts_ns, t.track, names_.intern("expired"));
  if (!t.auto_reload) {
    timer_stop(t, c.ts_ns);
  }
}

}  // namespace tband
