// Turns decoded events into a timeline: tracks with slices, instants and
// counters (the Perfetto mapping of the reference converter, extended), and
// diagnostics for everything odd. Works on one event at a time in timestamp
// order; its memory grows with the number of markers, ISRs, tasks and queues,
// never with the length of the trace.
//
// Every event type has a handler chosen at compile time from the Event
// variant. Types without a dedicated handler (such as an event a user has just
// added to the schema) go to the generic one: an instant on its core's
// "Other events" track carrying all its fields as arguments. Events decoded
// from a schema loaded at run time are shown as their display rules say
// (display_rules.cpp).
//
// Interrupt handlers, markers and threads are kept by RTOS-neutral trackers
// (isr_tracker.hpp, marker_tracker.hpp, thread_tracker.hpp); the handlers of
// the FreeRTOS events decide what happens and call them; so do sync objects
// (sync_object_tracker.hpp: queues, semaphores, mutexes, event groups, stream
// buffers, timers, queue sets).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "decode/cobs_deframer.hpp"
#include "schema/runtime_decoder.hpp"
#include "tband_events.hpp"
#include "trace/diagnostics.hpp"
#include "trace/field_key.hpp"
#include "trace/id_map.hpp"
#include "trace/isr_tracker.hpp"
#include "trace/marker_tracker.hpp"
#include "trace/names.hpp"
#include "trace/sync_object_tracker.hpp"
#include "trace/thread_tracker.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

enum class TraceMode : std::uint8_t { kBareMetal, kFreeRtos };

struct InterpreterOptions {
  TraceMode mode = TraceMode::kFreeRtos;
  std::uint32_t core_count = 1;
  /// Also told what the model sees (statistics for tband stats/check/report); nullptr: nobody.
  TraceObserver* observer = nullptr;
  /// Nanoseconds per tick until the trace says (its ts_resolution_ns event,
  /// which wins): for a trace without one, e.g. a recording that began after
  /// the target's start. 0: 1 ns per tick, with a diagnostic.
  std::uint64_t assumed_ns_per_ts = 0;
  /// Its largest value, an hour per tick: beyond that, times of a few ticks
  /// would leave the 64-bit nanosecond range the outputs use.
  static constexpr std::uint64_t kMaxAssumedNsPerTs = 3'600'000'000'000;
};

/// Where an event came from, for diagnostics.
struct EventOrigin {
  std::uint32_t core = 0;
  const std::string* input = nullptr;  // the input's display name
  const FrameLocation* at = nullptr;
  bool has_ts = false;  // false for metadata
  std::uint64_t ts = 0;  // the event's timestamp in ticks
};

class TraceInterpreter {
 public:
  /// Cores beyond --core-count still get tracks (with a diagnostic), up to
  /// this many; events for higher core ids (a corrupt core_id) are dropped.
  static constexpr std::uint32_t kMaxCores = 1024;
  /// The "Diagnostics" track shows this many; the rest are counted in one
  /// last instant, so a trace full of garbage keeps a bounded output (the
  /// summary on stderr still counts every one).
  static constexpr std::uint64_t kMaxDiagnosticsOnTrack = 1000;

  TraceInterpreter(Timeline& timeline, Diagnostics& diagnostics, InterpreterOptions options);

  void on_event(const Event& event, const EventOrigin& origin);
  /// An event of a schema loaded at run time: shown as its display rule says.
  void on_dynamic_event(const DynamicEvent& event, const EventOrigin& origin);
  void on_decode_error(const DecodeError& error, const EventOrigin& origin);
  /// The same with the error already described (naming run-time events too).
  void on_decode_error(const DecodeError& error, const std::string& description, const EventOrigin& origin);
  void on_link_fault(const DecodeError& error, const std::string& description, const EventOrigin& origin);
  /// A problem found outside the event stream (schema identity, unknown ids),
  /// reported once: on stderr's summary and the Diagnostics track.
  void report(DiagnosticKind kind, std::string message) { diagnose(kind, std::nullopt, std::move(message)); }
  /// End of the trace: reports ids that were used but never named, and more.
  void finish();
  /// Tells the observer the names known so far (finish() tells them all at
  /// the end): for a view that shows the figures while the trace goes on.
  void observe_names_now();

  [[nodiscard]] std::uint64_t events() const noexcept { return events_; }
  /// Earliest and latest event time in ns (core_id's tick-0 stamp aside); equal when none.
  [[nodiscard]] std::uint64_t first_ts_ns() const noexcept { return seen_any_ts_ ? first_ts_ns_ : 0; }
  [[nodiscard]] std::uint64_t last_ts_ns() const noexcept { return last_any_ts_ns_; }
  /// The newest dropped_evt_cnt total: events the target dropped.
  [[nodiscard]] std::uint64_t dropped_events() const noexcept { return last_dropped_total_; }
  /// Run-time filter changes in the trace (filter_ids, filter_object_off/on):
  /// events missing after one were filtered, not lost.
  [[nodiscard]] std::uint64_t filter_changes() const noexcept { return filter_changes_; }

 private:
  // ---- state ---------------------------------------------------------------
  enum class TaskKind : std::uint8_t { kNormal, kIdle, kTimer };
  struct FreeRtosTask {  // what only FreeRTOS knows of a thread
    TaskKind kind = TaskKind::kNormal;
    std::uint32_t idle_core = 0;         // kind kIdle: the core it is the idle task of
    std::vector<TrackId> notify_tracks;  // "Notification value" counters, by index (0: none yet)
    // Blocked on a stream buffer: the notification wait the kernel blocks in
    // keeps that state (cleared when the task runs again).
    bool blocked_on_stream_buffer = false;
  };
  using Tasks = ThreadTracker<FreeRtosTask>;
  using Task = Tasks::Thread;
  // What only FreeRTOS knows of a sync object.
  struct FreeRtosObject {
    std::optional<std::uint8_t> queue_kind;  // FrQueueKind (queue family)
    std::uint32_t period = 0;                // timers: ticks
    bool auto_reload = false;
  };
  using SyncObjects = SyncObjectTracker<FreeRtosObject>;
  static bool is_freertos_mutex(std::optional<std::uint8_t> kind) {
    return kind && (*kind == static_cast<std::uint8_t>(FrQueueKind::FRQK_MUTEX) ||
                    *kind == static_cast<std::uint8_t>(FrQueueKind::FRQK_RECURSIVE_MUTEX));
  }
  struct Core {
    std::uint32_t id = 0;
    TrackId process = 0, events_track = 0, filter_track = 0;
    std::uint64_t last_ts = 0;
    std::uint64_t last_ts_ns = 0;
    bool seen_ts = false;
  };
  struct Context {
    const EventOrigin& origin;
    Core& core;
    std::uint64_t ts_ns;
  };

  // ---- events shown by display rules (display_rules.cpp) --------------------
  struct OpenSpan {
    std::uint64_t serial = 0;  // which OpenRef it is
    NameId name = 0;
    std::string literal;  // the name's text when name is kLiteralName
  };
  // A track template's text as made for one track: literal text, or a field's
  // value text with the field's name (a name rule's label may replace it).
  struct NamePiece {
    std::string text;
    std::string_view field;  // empty: literal (views the schema's field name)
  };
  struct DisplayTrack {
    TrackId id = 0;
    std::vector<OpenSpan> open;  // innermost last
    TraceObserver::Index obs_id = TraceObserver::kNone;  // a counter track's figures
    std::vector<NamePiece> pieces;  // its template's pieces, when it refers to fields (renamed by labels)
    std::string unit;               // a counter's unit, shown after the name
    TrackId parent = 0;
    TrackKind kind = TrackKind::kSlices;
  };
  struct OpenRef {  // a span that is open, on its track
    FieldKey key;  // its key field values
    DisplayTrack* track;
    std::uint64_t serial;
    std::uint64_t begin_ns;
  };
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
  };
  template <class T>
  using ByText = std::unordered_map<std::string, T, TextHash, std::equal_to<>>;
  struct RuleState {  // per run-time event
    std::vector<NameId> field_names;
    std::vector<std::uint32_t> arg_fields;  // the fields shown as arguments
    NameId default_name = 0;  // the event's name, or for a span_begin the span's
    KeyFields track_key, name_key;  // fields the templates use
    KeyFields span_key;             // a span's key fields
    std::vector<OpenRef>* open = nullptr;        // span_begin/span_end: the span's open spans, oldest first
    RecentKeys<DisplayTrack*> recent_tracks;     // by parent and the track template's values
    RecentKeys<NameId> recent_names;             // by the name template's values
    ByText<DisplayTrack*> tracks;                // the same, all of them (FieldKey::bytes())
    ByText<NameId> names;
    TraceObserver::Index obs_id = TraceObserver::kNone;  // its span's figures, or its instants'
  };

  // ---- dispatch ---------------------------------------------------------------
  template <class E>
  void handle(const E& e, Context& c);  // generic: an instant with every field

  void handle(const CoreId& e, Context& c);
  void handle(const DroppedEvtCnt& e, Context& c);
  void handle(const TsResolutionNs& e, Context& c);
  void handle(const IsrName& e, Context& c);
  void handle(const IsrEnter& e, Context& c);
  // Inlined into on_event (a call and its frame cost ~10 instructions per
  // event; the compiler left these two out of line).
  [[gnu::always_inline]] inline void handle(const IsrExit& e, Context& c);
  void handle(const EvtmarkerName& e, Context& c);
  void handle(const Evtmarker& e, Context& c);
  void handle(const EvtmarkerBegin& e, Context& c);
  [[gnu::always_inline]] inline void handle(const EvtmarkerEnd& e, Context& c);
  void handle(const ValmarkerName& e, Context& c);
  void handle(const Valmarker& e, Context& c);
  void handle(const MetadataOverflow& e, Context& c);
  // Run-time filters (run_time_filter.cpp)
  void handle(const FilterIds& e, Context& c);
  void handle(const FilterObjectOff& e, Context& c);
  void handle(const FilterObjectOn& e, Context& c);
  void handle(const FilterIdsInitial& e, Context& c);
  void handle(const FilterObjectInitial& e, Context& c);
  void handle(const FilterKeyName& e, Context& c);
  void filter_instant(Context& c, const std::string& text);
  void filter_ids_changed(std::uint32_t word, std::uint32_t enabled, const char* what, Context& c);
  [[nodiscard]] std::string filter_object_label(std::uint32_t key, std::uint32_t object_id) const;
  // FreeRTOS (freertos.cpp)
  void handle(const TaskSwitchedIn& e, Context& c);
  void handle(const TaskToRdyState& e, Context& c);
  void handle(const TaskResumed& e, Context& c);
  void handle(const TaskResumedFromIsr& e, Context& c);
  void handle(const TaskSuspended& e, Context& c);
  void handle(const CurtaskDelay& e, Context& c);
  void handle(const CurtaskDelayUntil& e, Context& c);
  void handle(const TaskPrioritySet& e, Context& c);
  void handle(const TaskPriorityInherit& e, Context& c);
  void handle(const TaskPriorityDisinherit& e, Context& c);
  void handle(const TaskCreated& e, Context& c);
  void handle(const TaskName& e, Context& c);
  void handle(const TaskIsIdleTask& e, Context& c);
  void handle(const TaskIsTimerTask& e, Context& c);
  void handle(const TaskDeleted& e, Context& c);
  void handle(const QueueCreated& e, Context& c);
  void handle(const QueueName& e, Context& c);
  void handle(const QueueKind& e, Context& c);
  void handle(const QueueSend& e, Context& c);
  void handle(const QueueSendFromIsr& e, Context& c);
  void handle(const QueueOverwrite& e, Context& c);
  void handle(const QueueOverwriteFromIsr& e, Context& c);
  void handle(const QueueReceive& e, Context& c);
  void handle(const QueueReceiveFromIsr& e, Context& c);
  void handle(const QueueReset& e, Context& c);
  void handle(const CurtaskBlockOnQueuePeek& e, Context& c);
  void handle(const CurtaskBlockOnQueueSend& e, Context& c);
  void handle(const CurtaskBlockOnQueueReceive& e, Context& c);
  void handle(const QueueCurLength& e, Context& c);
  void handle(const TaskEvtmarkerName& e, Context& c);
  void handle(const TaskEvtmarker& e, Context& c);
  void handle(const TaskEvtmarkerBegin& e, Context& c);
  void handle(const TaskEvtmarkerEnd& e, Context& c);
  void handle(const TaskValmarkerName& e, Context& c);
  void handle(const TaskValmarker& e, Context& c);
  // FreeRTOS task notifications and event groups (freertos_objects.cpp)
  void handle(const TaskNotify& e, Context& c);
  void handle(const TaskNotifyFromIsr& e, Context& c);
  void handle(const CurtaskBlockOnNotifyTake& e, Context& c);
  void handle(const CurtaskBlockOnNotifyWait& e, Context& c);
  void handle(const CurtaskNotifyTake& e, Context& c);
  void handle(const CurtaskNotifyWait& e, Context& c);
  void handle(const EventGroupCreated& e, Context& c);
  void handle(const EventGroupName& e, Context& c);
  void handle(const EventGroupSetBits& e, Context& c);
  void handle(const EventGroupClearBits& e, Context& c);
  void handle(const CurtaskBlockOnEventGroupWait& e, Context& c);
  void handle(const CurtaskBlockOnEventGroupSync& e, Context& c);
  // FreeRTOS stream and message buffers (freertos_stream_buffers.cpp)
  void handle(const StreamBufferCreated& e, Context& c);
  void handle(const StreamBufferName& e, Context& c);
  void handle(const StreamBufferReset& e, Context& c);
  void handle(const StreamBufferSend& e, Context& c);
  void handle(const StreamBufferSendFromIsr& e, Context& c);
  void handle(const StreamBufferReceive& e, Context& c);
  void handle(const StreamBufferReceiveFromIsr& e, Context& c);
  void handle(const CurtaskBlockOnStreamBufferSend& e, Context& c);
  void handle(const CurtaskBlockOnStreamBufferReceive& e, Context& c);
  // FreeRTOS software timers (freertos_timers.cpp)
  void handle(const TimerCreated& e, Context& c);
  void handle(const TimerName& e, Context& c);
  void handle(const TimerCommandSend& e, Context& c);
  void handle(const TimerCommandReceived& e, Context& c);
  void handle(const TimerExpired& e, Context& c);
  // FreeRTOS queue sets (freertos_queue_sets.cpp)
  void handle(const QueueSetSend& e, Context& c);
  void handle(const QueueSetAdd& e, Context& c);
  void handle(const QueueSetRemove& e, Context& c);
  void handle(const QueueSetSelect& e, Context& c);
  void handle(const QueueSetSelectFromIsr& e, Context& c);

  void generic_instant(const Event& event, Context& c);
  void dispatch(const Event& event, Context& c);
  void report_invalid_utf8(const EventInfo& info, std::string_view field, const Context& c);

  // Common to every event: its core, time and time checks. Null if dropped.
  Core* enter(const EventOrigin& origin, std::string_view event_name, bool sets_time_span, std::uint64_t& ts_ns);
  template <class E>
  void on_typed(const E& e, const Event& event, const EventOrigin& origin);

  // Display rules (display_rules.cpp).
  void show_dynamic(const DynamicEvent& e, Context& c);
  RuleState& rule_state(const RuntimeEvent& event);
  DisplayTrack& display_track(const DynamicEvent& e, RuleState& state, Context& c, TrackKind kind);
  NameId display_name(const DynamicEvent& e, RuleState& state, std::string& literal);
  [[nodiscard]] std::string span_label(const DynamicEvent& e) const;
  void display_span_end(const DynamicEvent& e, RuleState& state, Context& c);
  void display_counter(const DynamicEvent& e, RuleState& state, Context& c);
  void apply_name_rule(const DynamicEvent& e);
  [[nodiscard]] std::string format_with_labels(const NameTemplate& t, const DynamicEvent& e) const;
  [[nodiscard]] std::string render_pieces(const std::vector<NamePiece>& pieces) const;
  [[nodiscard]] const std::string* label_of(std::string_view field, std::string_view value) const;

  // ---- helpers ----------------------------------------------------------------
  Core& core(std::uint32_t id, const EventOrigin& origin);
  void diagnose(DiagnosticKind kind, std::optional<std::uint64_t> ts_ns, std::string message);
  void show_diagnostic(std::string_view title, std::uint64_t ts_ns, const std::string& message);
  void show_left_off_diagnostics();
  [[nodiscard]] std::string where(const EventOrigin& origin) const;
  // A span ends; inline, with its diagnostic out of line (a hot path of every
  // conversion: the cold path's string building cost the call a large frame).
  void marker_end(MarkerScope& scope, std::uint32_t id, std::string_view what, Context& c) {
    if (!markers_.end(scope, id, c.ts_ns)) [[unlikely]] {
      marker_end_without_begin(scope, id, what, c);
    }
  }
  [[gnu::noinline, gnu::cold]] void marker_end_without_begin(MarkerScope& scope, std::uint32_t id,
                                                             std::string_view what, Context& c);
  [[gnu::noinline, gnu::cold]] void isr_exit_without_enter(std::uint32_t isr_id, Context& c);

  // FreeRTOS helpers (freertos.cpp)
  Task& task(std::uint32_t id) { return tasks_.thread(id); }
  std::string task_label(std::uint32_t id) { return tasks_.label(id); }
  void name_task_process(Task& t);
  void set_task_state(Task& t, std::uint64_t ts_ns, TaskState state) { tasks_.set_state(t, ts_ns, std::move(state)); }
  Task* current_task(Context& c, std::string_view event_name);
  static constexpr const char* kTimerTaskWait = "waiting for timer command or expiry";
  /// The current task blocks on `what` ("delay 5 ticks") when it is switched out.
  void block_current(Context& c, std::string_view event_name, std::string what);
  void block_on_queue(Context& c, std::string_view event_name, std::uint32_t queue_id, QueueOp op);
  void leave(std::uint32_t id, TaskStateKind kind, Context& c);
  void count_queue_op(std::uint32_t id, QueueOp op);
  void set_priority(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t priority) {
    tasks_.set_priority(id, ts_ns, priority);
  }
  std::string queue_label(std::uint32_t id) { return syncs_.label(SyncFamily::kQueue, id); }
  void queue_fill(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t fill, std::optional<std::uint32_t> by_task);
  void notify_value(std::uint32_t task_id, std::uint8_t index, std::uint64_t ts_ns, std::uint32_t value);
  void block_on_stream_buffer(Context& c, std::string_view event_name, std::string what);
  void timer_start(std::uint32_t id, std::uint64_t ts_ns);
  void queue_set_instant(std::uint32_t set_id, std::uint64_t ts_ns, const std::string& label);
  void finish_freertos();
  void name_observed();

  Timeline& timeline_;
  NameTable& names_;
  Diagnostics& diagnostics_;
  InterpreterOptions options_;
  ObserverPort observer_;
  IsrTracker isrs_;
  MarkerTracker markers_;
  Tasks tasks_;
  std::deque<Core> cores_;          // a deque: growing it never moves a Core that a Context refers to
  std::vector<Core*> active_cores_;  // by core id; nullptr until the core has its tracks (fast lookup)
  MarkerScope global_markers_;
  SyncObjects syncs_;
  TrackId diagnostics_track_ = 0;
  std::uint64_t diagnostics_on_track_ = 0;
  std::array<std::uint64_t, static_cast<std::size_t>(DiagnosticKind::kCount)> left_off_track_{};
  std::uint64_t ns_per_ts_ = 1;
  bool have_resolution_ = false;
  bool events_before_resolution_ = false;
  std::uint64_t last_dropped_total_ = 0;
  std::array<std::uint32_t, 8> filter_ids_{0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu,
                                           0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
  std::vector<std::string> filter_key_names_;  // by key number (filter_key_name)
  std::uint64_t filter_changes_ = 0;
  std::uint64_t events_ = 0;
  bool seen_any_ts_ = false;
  std::uint64_t first_ts_ns_ = 0;
  std::uint64_t last_any_ts_ns_ = 0;
  std::uint64_t freertos_in_bare_metal_ = 0;
  // Interned names of every event and field, by the event's variant index.
  std::vector<NameId> event_name_ids_;
  std::vector<std::vector<NameId>> field_name_ids_;
  std::vector<std::uint8_t> generic_only_;  // FreeRTOS events in bare-metal mode
  std::vector<Arg> args_;           // scratch for generic instants
  std::vector<FieldValue> generic_values_;  // the values args_ point to
  std::unordered_map<const RuntimeEvent*, RuleState> rule_states_;
  std::array<std::pair<const RuntimeEvent*, RuleState*>, 256> rule_by_id_{};  // the last event seen per id
  std::deque<DisplayTrack> display_tracks_;
  ByText<DisplayTrack*> display_tracks_by_name_;  // by parent, kind and name
  // Name rules' labels: by field name, a zero byte and the value's text.
  ByText<std::string> labels_;
  ByText<std::vector<DisplayTrack*>> tracks_by_value_;  // the same keys: tracks whose templates show the value
  ByText<std::vector<OpenRef>> open_spans_;        // by span name
  ByText<TraceObserver::Index> span_obs_ids_;       // by span name
  FieldKey key_;                                   // scratch
  std::uint64_t next_span_serial_ = 0;
  NameId diag_message_name_ = 0;
};

}  // namespace tband
