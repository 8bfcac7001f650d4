#include <algorithm>
#include "trace/interpreter.hpp"

#include <deque>
#include <variant>

#include "trace/escaped_strings.hpp"

namespace tband {

TraceInterpreter::TraceInterpreter(Timeline& timeline, Diagnostics& diagnostics, InterpreterOptions options)
    : timeline_(timeline),
      names_(timeline.names()),
      diagnostics_(diagnostics),
      options_(options),
      observer_(options.observer),
      isrs_(timeline, observer_),
      markers_(timeline, observer_),
      tasks_(timeline, observer_, "task"),
      syncs_(timeline, observer_) {
  if (options_.assumed_ns_per_ts != 0) {
    ns_per_ts_ = options_.assumed_ns_per_ts;
  }
  for (const EventInfo& info : all_event_infos()) {
    event_name_ids_.push_back(names_.intern(info.name));
    auto& fields = field_name_ids_.emplace_back();
    for (const FieldInfo& field : info.fields) {
      fields.push_back(names_.intern(field.name));
    }
    generic_only_.push_back(options_.mode == TraceMode::kBareMetal && info.group == "freertos" ? 1 : 0);
  }
  diag_message_name_ = names_.intern("message");
  names_.intern("Running");  // the threads' running slices: its id stays where it was
  diagnostics_track_ = timeline_.add_track(0, TrackKind::kSlices, "Diagnostics");
  for (std::uint32_t i = 0; i < options_.core_count; ++i) {
    core(i, EventOrigin{});
  }
}

// ---- entry points -------------------------------------------------------------

// Inlined into on_event, the hot path of every conversion (a call costs 4%).
[[gnu::always_inline]] inline TraceInterpreter::Core* TraceInterpreter::enter(
    const EventOrigin& origin, std::string_view event_name, bool sets_time_span, std::uint64_t& ts_ns) {
  ++events_;
  if (origin.core >= kMaxCores) [[unlikely]] {
    diagnose(DiagnosticKind::kCoreOutOfRange, std::nullopt,
             std::string{event_name} + " for core " + std::to_string(origin.core) +
                 " dropped: no target has that many cores (" + where(origin) + ")");
    return nullptr;
  }
  Core* active = origin.core < active_cores_.size() ? active_cores_[origin.core] : nullptr;
  Core& c = active != nullptr ? *active : core(origin.core, origin);
  ts_ns = c.last_ts_ns;
  // A core_id at tick 0 is no time: the runtime stamps every start's core_id
  // frames 0 (as the reference does), so a second start is no clock going back.
  if (origin.has_ts && (sets_time_span || origin.ts != 0)) {
    const std::uint64_t ts = origin.ts;
    if (!have_resolution_ && ts != 0) {
      // Tick 0 is 0 ns at any resolution (the runtime stamps core_id 0 and
      // sends it before the metadata), so only later ticks can be wrong.
      events_before_resolution_ = true;
    }
    ts_ns = ts * ns_per_ts_;
    if (sets_time_span) {
      first_ts_ns_ = seen_any_ts_ ? std::min(first_ts_ns_, ts_ns) : ts_ns;
      last_any_ts_ns_ = std::max(last_any_ts_ns_, ts_ns);
      seen_any_ts_ = true;
      observer_.timestamp(ts_ns);
    }
    if (c.seen_ts && ts < c.last_ts) {
      diagnose(DiagnosticKind::kTimestampBackwards, ts_ns,
               "core " + std::to_string(origin.core) + ": ts " + std::to_string(ts) + " after ts " +
                   std::to_string(c.last_ts) + " (" + where(origin) + ")");
    } else {
      c.last_ts = ts;
      c.last_ts_ns = ts_ns;
      c.seen_ts = true;
    }
  }
  return &c;
}

namespace {

// The index of event type E in the Event variant (and in all_event_infos()).
template <class E, class V>
struct IndexIn;
template <class E, class... Ts>
struct IndexIn<E, std::variant<Ts...>> {
  static constexpr std::size_t value = [] {
    std::size_t i = 0;
    (void)((std::is_same_v<E, Ts> ? true : (++i, false)) || ...);
    return i;
  }();
};

}  // namespace

// One dispatch on the event's type first, then everything for that type
// inline: checks that cannot apply to it (a string field's UTF-8) compile away.
void TraceInterpreter::on_event(const Event& event, const EventOrigin& origin) {
  std::visit([&](const auto& e) { on_typed(e, event, origin); }, event);
}

template <class E>
[[gnu::always_inline]] inline void TraceInterpreter::on_typed(const E& e, const Event& event,
                                                              const EventOrigin& origin) {
  std::uint64_t ts_ns = 0;
  // core_id is stamped 0 by the runtime: it does not start the trace's time span.
  Core* c = enter(origin, E::kName, !std::is_same_v<E, CoreId>, ts_ns);
  if (c == nullptr) {
    return;
  }
  Context ctx{origin, *c, ts_ns};
  std::optional<std::string_view> invalid;  // the first string field that is not UTF-8
  detail::each_invalid_string(e, [&](std::string_view name, std::string_view) {
    if (!invalid) {
      invalid = name;
    }
  });
  if (invalid) [[unlikely]] {
    std::deque<std::string> escaped;
    const Event shown = with_escaped_strings(event, escaped);
    report_invalid_utf8(E::info(), *invalid, ctx);
    dispatch(shown, ctx);
    return;
  }
  if (generic_only_[IndexIn<E, Event>::value]) [[unlikely]] {
    ++freertos_in_bare_metal_;
    generic_instant(event, ctx);
    return;
  }
  handle(e, ctx);
}

void TraceInterpreter::dispatch(const Event& event, Context& ctx) {
  if (generic_only_[event.index()]) {
    ++freertos_in_bare_metal_;
    generic_instant(event, ctx);
    return;
  }
  std::visit([&](const auto& e) { handle(e, ctx); }, event);
}

// Every output holds text, so such a string is shown escaped (\xFF), and said
// once per event; `tband dump --json` has its exact bytes.
void TraceInterpreter::report_invalid_utf8(const EventInfo& info, std::string_view field, const Context& ctx) {
  diagnose(DiagnosticKind::kInvalidUtf8, ctx.ts_ns,
           std::string{info.name} + "." + std::string{field} + " is not UTF-8: shown with \\x escapes (" +
               where(ctx.origin) + ")");
}

void TraceInterpreter::on_dynamic_event(const DynamicEvent& event, const EventOrigin& origin) {
  std::uint64_t ts_ns = 0;
  Core* c = enter(origin, event.info().name, true, ts_ns);
  if (c == nullptr) {
    return;
  }
  Context ctx{origin, *c, ts_ns};
  if (const auto field = first_invalid_utf8_field(event)) [[unlikely]] {
    std::deque<std::string> escaped;
    report_invalid_utf8(event.info(), *field, ctx);
    show_dynamic(with_escaped_strings(event, escaped), ctx);
    return;
  }
  show_dynamic(event, ctx);
}

void TraceInterpreter::on_decode_error(const DecodeError& error, const EventOrigin& origin) {
  on_decode_error(error, describe(error), origin);
}

void TraceInterpreter::on_decode_error(const DecodeError& error, const std::string& description,
                                       const EventOrigin& origin) {
  if (error.kind == DecodeErrorKind::kLinkLost || error.kind == DecodeErrorKind::kLinkCorrupt ||
      error.kind == DecodeErrorKind::kLinkStale) [[unlikely]] {
    on_link_fault(error, description, origin);
    return;
  }
  const std::optional<std::uint64_t> ts_ns =
      origin.core < kMaxCores ? std::optional{core(origin.core, origin).last_ts_ns} : std::nullopt;
  // A frame cut off by the end of the input is a capture stopped mid-frame,
  // which a check may tolerate where corruption inside the stream it would not.
  const DiagnosticKind kind =
      error.kind == DecodeErrorKind::kTruncatedFrame ? DiagnosticKind::kTruncatedEnd : DiagnosticKind::kDecodeError;
  if (error.kind == DecodeErrorKind::kEmptyFrame && error.value > 1 && origin.at != nullptr) {
    // A run of empty frames (a zero-filled region): one diagnostic for all, with the bytes it covers.
    const std::uint64_t last = origin.at->offset + origin.at->length - 1;
    diagnose(kind, ts_ns,
             (origin.input != nullptr ? *origin.input : std::string{"input"}) + ": " + std::to_string(error.value) +
                 " empty frames at bytes " + std::to_string(origin.at->offset) + "-" + std::to_string(last));
    return;
  }
  diagnose(kind, ts_ns, where(origin) + ": " + description);
}

void TraceInterpreter::on_link_fault(const DecodeError& error, const std::string& description,
                                     const EventOrigin& origin) {
  // The core the firmware numbered the frame for, which the stream also
  // follows (core_id); the time is that core's last event before the fault.
  const std::uint32_t link_core = error.link_core;
  const std::optional<std::uint64_t> ts_ns =
      link_core < kMaxCores ? std::optional{core(link_core, origin).last_ts_ns} : std::nullopt;
  using Fault = TraceObserver::LinkFault;
  DiagnosticKind kind = DiagnosticKind::kLinkCorrupt;
  Fault fault = Fault::kCorrupt;
  std::uint64_t frames = 1;
  if (error.kind == DecodeErrorKind::kLinkLost) {
    kind = DiagnosticKind::kLinkLost;
    fault = Fault::kLost;
    frames = error.value;
  } else if (error.kind == DecodeErrorKind::kLinkStale) {
    kind = DiagnosticKind::kLinkStale;
    fault = Fault::kStale;
  }
  observer_.link_fault(link_core, fault, frames, ts_ns.value_or(0));
  diagnose(kind, ts_ns, where(origin) + ": " + description);  // at: the core's last event before it
}

void TraceInterpreter::finish() {
  // Without the trace's resolution, the one given (--ts-resolution-ns) is no
  // assumption to warn about; one that differs from the trace's is.
  if (events_before_resolution_ && (have_resolution_ || options_.assumed_ns_per_ts == 0)) {
    const std::string assumed = options_.assumed_ns_per_ts != 0
                                    ? std::to_string(options_.assumed_ns_per_ts) + " ns per tick (--ts-resolution-ns)"
                                    : std::string{"1 ns per tick"};
    diagnose(DiagnosticKind::kNoTimestampResolution, std::nullopt,
             have_resolution_ ? "ts_resolution_ns (" + std::to_string(ns_per_ts_) +
                                    " ns per tick) arrived after the first events; those assume " + assumed
                              : "the trace has no ts_resolution_ns event; assumed 1 ns per tick (give "
                                "--ts-resolution-ns if the target's clock is known)");
  }
  if (freertos_in_bare_metal_ != 0) {
    diagnose(DiagnosticKind::kWrongMode, std::nullopt,
             std::to_string(freertos_in_bare_metal_) +
                 " FreeRTOS event(s) in a bare-metal conversion were shown as plain events; convert with "
                 "--mode freertos");
  }
  MarkerTracker::each_unnamed(global_markers_, [&](std::string_view what, std::uint32_t id) {
    diagnose(DiagnosticKind::kUnnamedId, std::nullopt, std::string{what} + " " + std::to_string(id) + " was never named");
  });
  isrs_.each_unnamed([&](std::uint32_t core_id, std::uint32_t id) {
    diagnose(DiagnosticKind::kUnnamedId, std::nullopt,
             "ISR " + std::to_string(id) + " on core " + std::to_string(core_id) + " was never named");
  });
  finish_freertos();
  name_observed();
  show_left_off_diagnostics();
}

// Things are named at the end: names may come after first use. An observer
// (a stats row) gets the name of the thing's track.
void TraceInterpreter::name_observed() {
  observe_names_now();
  // Named but never used: rows of zeros, so that rules can say "never".
  markers_.observe_unused(global_markers_);
  isrs_.observe_unused();
  for (auto& [id, t] : tasks_.entries()) {
    markers_.observe_unused(t.markers);
  }
}

void TraceInterpreter::observe_names_now() {
  markers_.observe_names(global_markers_);
  isrs_.observe_names();
  for (auto& [id, t] : tasks_.entries()) {
    observer_.name_task(t.obs_id, task_label(id), t.kind == TaskKind::kIdle);
    markers_.observe_names(t.markers);
  }
  syncs_.name_observed([](const SyncObjects::Object& q) { return is_freertos_mutex(q.queue_kind); });
}

// ---- helpers -------------------------------------------------------------------

void TraceInterpreter::diagnose(DiagnosticKind kind, std::optional<std::uint64_t> ts_ns, std::string message) {
  // On the trace's diagnostics track too (at the time it happened, or at 0), up to a bound.
  if (diagnostics_on_track_ < kMaxDiagnosticsOnTrack) {
    ++diagnostics_on_track_;
    show_diagnostic(to_string(kind), ts_ns.value_or(0), message);
  } else {
    ++left_off_track_[static_cast<std::size_t>(kind)];
  }
  diagnostics_.report(kind, ts_ns, std::move(message));
}

void TraceInterpreter::show_diagnostic(std::string_view title, std::uint64_t ts_ns, const std::string& message) {
  FieldInfo static_message_info{"message", FieldType::kStr, nullptr, false, false, "", {}};
  FieldValue value;
  value.info = &static_message_info;
  value.str = message;
  const Arg arg{diag_message_name_, &value};
  timeline_.instant(ts_ns, diagnostics_track_, names_.intern(title), {&arg, 1});
}

// One last instant that says what the track left out, kind by kind.
void TraceInterpreter::show_left_off_diagnostics() {
  std::uint64_t total = 0;
  std::string by_kind;
  for (std::size_t k = 0; k < left_off_track_.size(); ++k) {
    if (left_off_track_[k] != 0) {
      total += left_off_track_[k];
      by_kind += (by_kind.empty() ? "" : ", ") + std::to_string(left_off_track_[k]) + " x " +
                 std::string{diagnostic_id(static_cast<DiagnosticKind>(k))};
    }
  }
  if (total == 0) {
    return;
  }
  show_diagnostic("diagnostics left out", last_any_ts_ns_,
                  std::to_string(total) + " more diagnostic(s) not shown on this track (" + by_kind +
                      "); tband's summary on stderr counts them all");
}

std::string TraceInterpreter::where(const EventOrigin& origin) const {
  std::string out = origin.input != nullptr ? *origin.input : std::string{"input"};
  if (origin.at != nullptr) {
    out += " byte " + std::to_string(origin.at->offset);
  }
  return out;
}

TraceInterpreter::Core& TraceInterpreter::core(std::uint32_t id, const EventOrigin& origin) {
  if (id < active_cores_.size() && active_cores_[id] != nullptr) {
    return *active_cores_[id];
  }
  if (id >= options_.core_count) {
    diagnose(DiagnosticKind::kCoreOutOfRange, std::nullopt,
             "events for core " + std::to_string(id) + " but --core-count is " + std::to_string(options_.core_count) +
                 " (" + where(origin) + ")");
  }
  if (cores_.size() <= id) {
    cores_.resize(id + 1u);
    active_cores_.resize(id + 1u, nullptr);
  }
  Core& c = cores_[id];
  c.id = id;
  active_cores_[id] = &c;
  c.process = timeline_.add_process("Core " + std::to_string(id), static_cast<std::int32_t>(id) + 1);
  isrs_.add_core(id, c.process);
  tasks_.add_core(id, c.process);
  return c;
}

void TraceInterpreter::marker_end_without_begin(MarkerScope& scope, std::uint32_t id, std::string_view what,
                                                Context& c) {
  diagnose(DiagnosticKind::kEndWithoutBegin, c.ts_ns,
           std::string{what} + " '" + markers_.marker_label(scope, id) + "' ends with no span open (" +
               where(c.origin) + ")");
}

// ---- generic events --------------------------------------------------------------

template <class E>
void TraceInterpreter::handle(const E& e, Context& c) {
  generic_instant(Event{e}, c);
}

void TraceInterpreter::generic_instant(const Event& event, Context& c) {
  if (c.core.events_track == 0) {
    c.core.events_track = timeline_.add_track(c.core.process, TrackKind::kSlices, "Other events");
  }
  const std::size_t index = event.index();
  generic_values_.clear();
  visit_fields(event, [&](const FieldValue& field) {
    if (!field.info->implicit && field.present) {  // the timestamp is the instant's time
      generic_values_.push_back(field);
    }
  });
  args_.clear();
  for (const FieldValue& field : generic_values_) {
    const auto field_index = static_cast<std::size_t>(field.info - event_info(event).fields.data());
    args_.push_back({field_name_ids_[index][field_index], &field});
  }
  timeline_.instant(c.ts_ns, c.core.events_track, event_name_ids_[index], args_);
}

// ---- base events ------------------------------------------------------------------

void TraceInterpreter::handle(const CoreId&, Context&) {
  // The stream already switched to this core (event_stream.cpp).
}

void TraceInterpreter::handle(const DroppedEvtCnt& e, Context& c) {
  if (e.cnt > last_dropped_total_) {
    const std::uint64_t lost = e.cnt - last_dropped_total_;
    diagnose(DiagnosticKind::kDroppedEvents, c.ts_ns,
             std::to_string(lost) + " event(s) dropped by the tracer before this point (" + std::to_string(e.cnt) +
                 " in total; " + where(c.origin) + ")");
    last_dropped_total_ = e.cnt;
    observer_.dropped(c.ts_ns);
  }
}

void TraceInterpreter::handle(const TsResolutionNs& e, Context&) {
  if (e.ns_per_ts == 0) {
    return;
  }
  if (events_before_resolution_ && !have_resolution_ && e.ns_per_ts == ns_per_ts_) {
    // The events before it were read at the resolution it confirms.
    events_before_resolution_ = false;
  }
  ns_per_ts_ = e.ns_per_ts;
  have_resolution_ = true;
}

void TraceInterpreter::handle(const IsrName& e, Context& c) { isrs_.name(c.core.id, e.isr_id, e.name); }

void TraceInterpreter::handle(const IsrEnter& e, Context& c) { isrs_.enter(c.core.id, e.isr_id, c.ts_ns); }

void TraceInterpreter::handle(const IsrExit& e, Context& c) {
  if (!isrs_.exit(c.core.id, e.isr_id, c.ts_ns)) [[unlikely]] {
    isr_exit_without_enter(e.isr_id, c);
  }
}

void TraceInterpreter::isr_exit_without_enter(std::uint32_t isr_id, Context& c) {
  diagnose(DiagnosticKind::kEndWithoutBegin, c.ts_ns,
           "isr_exit of '" + isrs_.label(c.core.id, isr_id) + "' on core " + std::to_string(c.origin.core) +
               " without isr_enter (" + where(c.origin) + ")");
}

void TraceInterpreter::handle(const EvtmarkerName& e, Context&) {
  markers_.name_marker(global_markers_, e.evtmarker_id, e.name);
}

void TraceInterpreter::handle(const Evtmarker& e, Context& c) {
  markers_.instant(global_markers_, e.evtmarker_id, c.ts_ns, e.msg);
}

void TraceInterpreter::handle(const EvtmarkerBegin& e, Context& c) {
  markers_.begin(global_markers_, e.evtmarker_id, c.ts_ns, e.msg);
}

void TraceInterpreter::handle(const EvtmarkerEnd& e, Context& c) {
  marker_end(global_markers_, e.evtmarker_id, "event marker", c);
}

void TraceInterpreter::handle(const ValmarkerName& e, Context&) {
  markers_.name_value(global_markers_, e.valmarker_id, e.name);
}

void TraceInterpreter::handle(const Valmarker& e, Context& c) {
  markers_.value(global_markers_, e.valmarker_id, c.ts_ns, e.val);
}

void TraceInterpreter::handle(const MetadataOverflow& e, Context& c) {
  diagnose(DiagnosticKind::kMetadataOverflow, c.ts_ns,
           "core " + std::to_string(e.core_id) + "'s metadata buffer overflowed: " + std::to_string(e.lost_evts) +
               " metadata event(s), " + std::to_string(e.lost_bytes) +
               " bytes lost in total; some names may be missing");
  observer_.metadata_overflow(e.core_id, e.lost_evts, c.ts_ns);
}

}  // namespace tband
