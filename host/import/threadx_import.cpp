#include "import/threadx_import.hpp"

#include <array>
#include <map>
#include <unordered_map>

#include "decode/field_value.hpp"
#include "decode/schema_info.hpp"
#include "import/threadx_buffer.hpp"
#include "trace/isr_tracker.hpp"
#include "trace/sync_object_tracker.hpp"
#include "trace/thread_tracker.hpp"

namespace tband::threadx {

namespace {

constexpr std::uint32_t kCore = 0;      // ThreadX (not SMP) runs on one core
constexpr std::uint32_t kIdleThread = 0;  // no thread runs: shown as the thread "idle"
constexpr std::uint32_t kResume = 1, kSuspend = 2, kIsrEnter = 3, kIsrExit = 4, kTimeSlice = 5, kRunning = 6,
                        kPriorityChange = 108, kRelinquish = 109;
// TX_TRACE_THREAD_SUSPEND's new states that end the thread (tx_api.h: completed, terminated) and TX_SUSPENDED.
constexpr std::uint32_t kCompleted = 1, kTerminated = 2, kSuspendedState = 3, kSleepState = 4,
                        kPriorityChangeState = 14;

std::string hex(std::uint32_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x00000000";
  for (std::size_t i = 0; i < 8; ++i) {
    out[9 - i] = kDigits[(v >> (4 * i)) & 0xF];
  }
  return out;
}

// Service calls that record their object's level as it was before the call
// (tx_trace.h's fields): a queue's messages, a semaphore's count, a block
// pool's free blocks, a mutex's owner, an event flags group's flags (get
// only), a byte pool's available bytes (release only). The level after a
// call is what the next call on the same object records (nothing else
// changes it); after the last one, or when the next call records nothing, it
// is inferred from the call where it can be.
enum class Level : std::uint8_t { kNone, kQueue, kSemaphore, kMutex, kBlockPool, kEventFlags, kBytePool };
constexpr std::size_t kNoField = 4;  // the call records no level
struct LevelOp {
  Level level = Level::kNone;
  std::size_t field = kNoField;  // the information field holding the level before the call
  int delta = 0;                 // the change when the call goes through at once (queue, semaphore)
  bool take = false;             // a mutex get (put otherwise)
};
constexpr LevelOp level_op(std::uint32_t event) {
  switch (event) {
    case 63: case 69: return {Level::kQueue, 3, +1, false};      // front send, send: enqueued
    case 68: return {Level::kQueue, 3, -1, false};               // receive: enqueued
    case 83: return {Level::kSemaphore, 2, -1, false};           // get: current count
    case 80: case 88: return {Level::kSemaphore, 1, +1, false};  // ceiling put, put: current count
    case 52: return {Level::kMutex, 2, 0, true};                 // get: owning thread
    case 57: return {Level::kMutex, 1, 0, false};                // put: owning thread
    case 10: case 17: return {Level::kBlockPool, 3, 0, false};   // allocate: remaining blocks; release
    case 32: return {Level::kEventFlags, 2, 0, false};           // get: current flags
    case 36: return {Level::kEventFlags};                        // set: flags to set, set option
    case 27: return {Level::kBytePool, 3, 0, false};             // release: available bytes
    case 20: return {Level::kBytePool};                          // allocate: size requested
    default: return {};
  }
}
constexpr std::uint32_t kBlockAllocate = 10, kBlockRelease = 17, kFlagsGet = 32, kFlagsSet = 36;
constexpr std::uint32_t kTimerActivate = 122, kTimerChange = 123, kTimerCreate = 124, kTimerDeactivate = 125,
                        kTimerDelete = 126;
// tx_api.h's event flags options: bit 1 AND (OR without), bit 0 clear (get only).
constexpr std::uint32_t kFlagsAnd = 2, kFlagsClear = 1;

// What only ThreadX knows of a sync object (SyncObjectTracker's Extra).
struct ObjectExtra {
  Level kind = Level::kNone;  // which calls it takes
  bool started = false;       // its level shown
  std::uint32_t owner = 0;
  std::optional<std::uint32_t> value;  // the counter's last value (free blocks, flags, free bytes)
  TraceObserver::Index counter_obs = TraceObserver::kNone;  // the counter's figures ("<pool> free blocks")
  std::uint32_t reschedule_ticks = 0;                       // a timer's period (0: one-shot)
};

struct ThreadExtra {
  std::uint32_t last_object = 0;  // the object of its last service call: what a suspension waits on
  LevelOp last_op;                // and that call's kind
  std::uint32_t shown_priority = 0xFFFFFFFFu;
  TrackId calls_track = 0;  // "Service calls" instants
};

class Importer {
 public:
  Importer(const Buffer& buffer, const std::string& input, const ImportOptions& options, Timeline& timeline,
           Diagnostics& diagnostics)
      : buffer_(buffer),
        input_(input),
        hz_(options.clock_hz.value_or(kDefaultClockHz)),
        clock_given_(options.clock_hz.has_value()),
        timeline_(timeline),
        names_(timeline.names()),
        diagnostics_(diagnostics),
        observer_(options.observer),
        isrs_(timeline, observer_),
        threads_(timeline, observer_, "thread"),
        sync_(timeline, observer_) {
    // ThreadX's words; a semaphore is in the queue family, its count its " fill" (as FreeRTOS's).
    // Byte pools use the family ThreadX has no other use for (stream buffers'): a counter of their own.
    sync_.style(SyncFamily::kPool).level_suffix = " free blocks";
    sync_.style(SyncFamily::kEventFlags) = {"event flags", " flags", " (event flags)"};
    sync_.style(SyncFamily::kBuffer) = {"byte pool", " free bytes", " (byte pool)"};
    sync_.style(SyncFamily::kTimer).events_suffix = " active";
    names_.intern("Running");
    message_name_ = names_.intern("message");
    diagnostics_track_ = timeline_.add_track(0, TrackKind::kSlices, "Diagnostics");
    core_process_ = timeline_.add_process("Core 0", 1);
    isrs_.add_core(kCore, core_process_);
    threads_.add_core(kCore, core_process_);
    for (const RegistryEntry& r : buffer_.registry) {
      objects_.emplace(r.pointer, &r);
    }
    // The level after each call: what the next call on its object records.
    after_.resize(buffer_.entries.size());
    std::unordered_map<std::uint32_t, std::size_t> last;
    for (std::size_t i = 0; i < buffer_.entries.size(); ++i) {
      const Entry& e = buffer_.entries[i];
      const LevelOp op = level_op(e.event);
      if (op.level == Level::kNone || op.level == Level::kBlockPool) {
        continue;
      }
      if (const auto it = last.find(e.info[0]); it != last.end() && op.field != kNoField) {
        after_[it->second] = e.info[op.field];
      }
      last[e.info[0]] = i;
    }
  }

  ImportResult run() {
    ImportResult result;
    const std::vector<Entry>& entries = buffer_.entries;
    const std::uint64_t first_ns = ns(entries.front().time);
    const std::uint64_t last_ns = ns(entries.back().time);
    result.events = entries.size();
    result.first_ts_ns = first_ns;
    result.last_ts_ns = last_ns;
    result.notes.push_back(std::string{"ThreadX trace buffer, "} + (buffer_.big_endian ? "big" : "little") +
                           "-endian, " + std::to_string(buffer_.registry.size()) + " of " +
                           std::to_string(buffer_.registry_slots) + " registry slots used, " +
                           std::to_string(entries.size()) + " of " + std::to_string(buffer_.entry_slots) +
                           " entries used, time mask " + hex(buffer_.time_mask) + ", " +
                           std::to_string(buffer_.time_wraps) + " time stamp wrap(s)");
    result.notes.push_back("ThreadX time stamps: " + std::to_string(hz_) + " ticks per second" +
                           (clock_given_ ? "" : " (the default; give --threadx-clock-hz)"));
    if (buffer_.wrapped) {
      diagnose(DiagnosticKind::kDroppedEvents, first_ns,
               input_ + ": the trace buffer wrapped around: its oldest entries were overwritten; the " +
                   std::to_string(entries.size()) + " entries left cover " + ms(last_ns - first_ns));
    }
    if (buffer_.registry_slots != 0 && buffer_.registry_free == 0) {
      diagnose(DiagnosticKind::kMetadataOverflow, first_ns,
               input_ + ": the object registry is full (" + std::to_string(buffer_.registry_slots) +
                   " slots): objects created after it filled are shown by their address");
    }
    for (index_ = 0; index_ < entries.size(); ++index_) {
      on_entry(entries[index_]);
    }
    sync_.name_observed([](const SyncObject& o) { return o.kind == Level::kMutex; });
    for (const auto& [id, count] : unknown_ids_) {
      diagnose(DiagnosticKind::kUnknownEventId, std::nullopt,
               input_ + ": " + std::to_string(count) + " entr" + (count == 1 ? "y" : "ies") + " with event id " +
                   std::to_string(id) + ", which ThreadX does not define (shown as \"" + event_name(id) + "\")");
    }
    for (auto& [id, t] : threads_.entries()) {
      observer_.name_task(t.obs_id, threads_.label(id), id == kIdleThread);
    }
    isrs_.observe_names();
    return result;
  }

 private:
  using Threads = ThreadTracker<ThreadExtra>;
  using Thread = Threads::Thread;
  using SyncObjects = SyncObjectTracker<ObjectExtra>;
  using SyncObject = SyncObjects::Object;

  [[nodiscard]] std::uint64_t ns(std::uint64_t ticks) const {
    return ticks / hz_ * 1'000'000'000u + ticks % hz_ * 1'000'000'000u / hz_;
  }
  static std::string ms(std::uint64_t ns) {
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
    return text;
  }

  void on_entry(const Entry& e) {
    const std::uint64_t ts = ns(e.time);
    observer_.timestamp(ts);
    const bool in_isr = e.thread == kIsrContext;
    const bool in_thread = !in_isr && e.thread != kInitContext;
    if (in_thread) {
      // The entry's own thread runs now, whatever the events before said.
      switch_to(e.thread, ts);
      if ((e.priority & 0x80000000u) != 0) {
        show_priority(e.thread, ts, e.priority & 0xFFFFu);
      }
    }
    const auto next = [&](std::uint32_t thread) {
      if (in_isr || isr_depth_ != 0) {
        pending_next_ = thread;  // switched to when the last handler returns
      } else {
        switch_to(thread, ts);
      }
    };
    switch (e.event) {
      case kResume: {
        Thread& t = thread(e.info[0], ts);
        // A ready thread whose priority changed is suspended and resumed at once: no change of state.
        if (!t.running_on && e.info[1] != kPriorityChangeState) {
          threads_.set_state(t, ts, TaskState{});
        }
        next(e.info[3]);
        return;
      }
      case kSuspend: {
        Thread& t = thread(e.info[0], ts);
        if (e.info[1] == kPriorityChangeState) {
          next(e.info[3]);
          return;
        }
        TaskState state = suspended_state(e.info[0], e.info[1], in_thread ? e.thread : 0);
        if (t.last_op.level == Level::kQueue || t.last_op.level == Level::kSemaphore) {
          // The call it made last could not go through: it waits.
          if (SyncObject* o = sync_.find(SyncFamily::kQueue, t.last_object)) {
            observer_.queue_op(o->obs_id, t.last_op.delta > 0 ? QueueOp::kBlockedSend : QueueOp::kBlockedReceive);
          }
          t.last_op = {};
        }
        if (t.running_on) {
          t.switched_out_state = std::move(state);
        } else {
          threads_.set_state(t, ts, std::move(state));
        }
        next(e.info[3]);
        return;
      }
      case kIsrEnter:
        ++isr_depth_;
        isrs_.enter(kCore, e.info[1], ts);
        return;
      case kIsrExit:
        if (!isrs_.exit(kCore, e.info[1], ts)) {
          diagnose(DiagnosticKind::kEndWithoutBegin, ts,
                   input_ + " byte " + std::to_string(e.offset) + ": ISR " + std::to_string(e.info[1]) +
                       " exit without an entry (the entry may be before the buffer's oldest one)");
          return;
        }
        if (isr_depth_ > 0 && --isr_depth_ == 0 && pending_next_) {
          switch_to(*pending_next_, ts);
          pending_next_.reset();
        }
        return;
      case kTimeSlice:
        next(e.info[0]);
        return;
      case kRunning:
        return;
      case kPriorityChange:
        show_priority(e.info[0], ts, e.info[1]);
        break;
      case kRelinquish:
        next(e.info[1]);
        break;
      case kTimerCreate:
      case kTimerActivate:
      case kTimerChange:
      case kTimerDeactivate:
      case kTimerDelete:
        show_timer(e, ts);
        break;
      default:
        break;
    }
    const LevelOp op = level_op(e.event);
    if (in_thread && objects_.contains(e.info[0])) {
      Thread& t = thread(e.thread, ts);
      t.last_object = e.info[0];
      t.last_op = op;
    }
    instant(e, ts, in_thread);
    if (op.level != Level::kNone) {
      show_level(e, op, ts, in_thread ? e.thread : 0);
    }
  }

  // The thread with this pointer, named from the registry when first met.
  Thread& thread(std::uint32_t pointer, std::uint64_t ts) {
    if (Thread* t = threads_.find(pointer)) {
      return *t;
    }
    Thread& t = threads_.thread(pointer);
    if (pointer == kIdleThread) {
      t.name = "idle";
    } else if (const RegistryEntry* r = object(pointer); r != nullptr && r->type == 1) {
      t.name = r->name.empty() ? "thread " + hex(pointer) : r->name;
      show_priority(pointer, ts, r->priority);
    } else {
      t.name = "thread " + hex(pointer);
      diagnose(DiagnosticKind::kUnnamedId, ts,
               input_ + ": thread " + hex(pointer) + " is not in the object registry (shown by its address)");
    }
    timeline_.rename(t.process, t.name);
    return t;
  }

  void switch_to(std::uint32_t pointer, std::uint64_t ts) {
    thread(pointer, ts);
    threads_.switch_in(kCore, pointer, ts);
  }

  void show_priority(std::uint32_t pointer, std::uint64_t ts, std::uint32_t priority) {
    Thread& t = thread(pointer, ts);
    if (t.shown_priority != priority) {
      t.shown_priority = priority;
      threads_.set_priority(pointer, ts, priority);
    }
  }

  [[nodiscard]] std::string object_label(std::uint32_t pointer) const {
    const RegistryEntry* r = object(pointer);
    return r != nullptr && !r->name.empty() ? r->name : std::string{object_type_name(r != nullptr ? r->type : 0)} + " " + hex(pointer);
  }

  static SyncFamily family(Level level) {
    switch (level) {
      case Level::kBlockPool: return SyncFamily::kPool;
      case Level::kEventFlags: return SyncFamily::kEventFlags;
      case Level::kBytePool: return SyncFamily::kBuffer;
      default: return SyncFamily::kQueue;
    }
  }
  // Levels shown as a counter of their own, with counter.<track>.* figures.
  static bool has_counter(Level level) {
    return level == Level::kBlockPool || level == Level::kEventFlags || level == Level::kBytePool;
  }

  // The object in the model's tracker ("<queue> fill", "<semaphore> fill",
  // "<mutex> holder" slices, "<pool> free blocks"), named from the registry.
  SyncObject& sync(std::uint32_t pointer, Level level) {
    const SyncFamily f = family(level);
    if (SyncObject* o = sync_.find(f, pointer)) {
      return *o;
    }
    SyncObject& o = sync_.object(f, pointer);
    o.kind = level;
    sync_.name(f, pointer, object_label(pointer));
    if (has_counter(level)) {
      o.counter_obs = observer_.add_counter(o.name + std::string{sync_.style(f).level_suffix});
    }
    return o;
  }

  // A counter-kind object's new value, on its track and in its figures.
  void set_value(std::uint32_t id, SyncObject& o, std::uint64_t ts, std::uint32_t value) {
    o.value = value;
    sync_.level(family(o.kind), id, ts, value);
    observer_.counter(o.counter_obs, ts, value);
  }

  void change_value(std::uint32_t id, SyncObject& o, std::uint64_t ts, std::uint32_t value) {
    if (o.value != value || !o.started) {
      o.started = true;
      set_value(id, o, ts, value);
    }
  }

  // A timer's "<timer> active" slice: from its activation (or creation with
  // auto-activate) to its deactivation or deletion. A one-shot timer's expiry
  // is not in the trace: its slice lasts until then.
  void show_timer(const Entry& e, std::uint64_t ts) {
    const std::uint32_t id = e.info[0];
    SyncObject* o = sync_.find(SyncFamily::kTimer, id);
    if (o == nullptr) {
      o = &sync_.object(SyncFamily::kTimer, id);
      sync_.name(SyncFamily::kTimer, id, object_label(id));
      if (const RegistryEntry* r = object(id); r != nullptr && r->type == static_cast<std::uint8_t>(ObjectType::kTimer)) {
        o->reschedule_ticks = r->param2;
      }
    }
    if (e.event == kTimerCreate || e.event == kTimerChange) {
      o->reschedule_ticks = e.info[2];
    }
    const bool begins = e.event == kTimerActivate || (e.event == kTimerCreate && e.info[3] != 0);
    if (begins) {
      sync_.activity_begin(SyncFamily::kTimer, id, ts,
                           o->reschedule_ticks == 0 ? std::string{"Active, one-shot"}
                                                    : "Active, every " + std::to_string(o->reschedule_ticks) + " ticks");
    } else if (e.event == kTimerDeactivate || e.event == kTimerDelete) {
      sync_.activity_end(SyncFamily::kTimer, id, ts);
    }
  }

  void show_level(const Entry& e, const LevelOp& op, std::uint64_t ts, std::uint32_t caller) {
    SyncObject& o = sync(e.info[0], op.level);
    const std::uint32_t id = e.info[0];
    if (o.kind != op.level) {
      return;  // a queue's pointer in a mutex call (a corrupt entry): its track stays what it was
    }
    const std::uint32_t before = op.field != kNoField ? e.info[op.field] : 0;
    const std::optional<std::uint32_t> recorded = after_[index_];
    switch (op.level) {
      case Level::kQueue:
      case Level::kSemaphore: {
        observer_.queue_op(o.obs_id, op.delta > 0 ? QueueOp::kSend : QueueOp::kReceive);
        if (!o.started) {
          set_fill(id, o, ts, before);
        }
        // The last call on the object: it went through unless it had nothing to take.
        const std::uint32_t after = recorded.value_or(op.delta < 0 && before == 0 ? 0 : before + static_cast<std::uint32_t>(op.delta));
        set_fill(id, o, ts, after);
        return;
      }
      case Level::kMutex: {
        if (!o.started) {
          set_owner(id, o, ts, before);
        }
        // The last call: a get of a free mutex takes it, a put by the owner frees it.
        std::uint32_t after = before;
        if (recorded) {
          after = *recorded;
        } else if (op.take && before == 0) {
          after = caller;
        } else if (!op.take && e.info[2] <= 1) {
          after = 0;
        }
        set_owner(id, o, ts, after);
        return;
      }
      case Level::kBlockPool: {
        // (The registry has the pool's bytes, not its blocks: its free blocks are shown.)
        std::optional<std::uint32_t> free = o.value;
        if (e.event == kBlockAllocate) {
          free = before > 0 ? before - 1 : 0;  // none free: it waits, or fails
        } else if (e.event == kBlockRelease && free && e.info[2] == 0) {
          ++*free;  // no thread waiting for it: back in the pool
        }
        if (free) {
          set_value(id, o, ts, *free);
        }
        return;
      }
      case Level::kEventFlags: {
        std::optional<std::uint32_t> flags = o.value;
        if (e.event == kFlagsGet) {
          flags = before;  // recorded: exact, whatever was inferred
          change_value(id, o, ts, before);
          const std::uint32_t requested = e.info[1], option = e.info[3];
          const bool satisfied = (option & kFlagsAnd) != 0 ? (before & requested) == requested : (before & requested) != 0;
          if (satisfied && (option & kFlagsClear) != 0) {
            flags = before & ~requested;
          }
        } else if (e.event == kFlagsSet && flags) {
          flags = (e.info[2] & kFlagsAnd) != 0 ? *flags & e.info[1] : *flags | e.info[1];
          if (e.info[3] != 0 && !recorded) {
            flags.reset();  // threads waiting may take (clear) flags at once: unknown until the next get
          }
        }
        if (recorded) {
          flags = *recorded;
        }
        if (flags) {
          change_value(id, o, ts, *flags);
        } else {
          o.value.reset();
        }
        return;
      }
      case Level::kBytePool: {
        // Only a release records the level (its available bytes before it);
        // an allocation's or release's size is not in the entry, so the
        // level after a call is known only when the next call records it.
        if (op.field != kNoField) {
          change_value(id, o, ts, before);
        }
        if (recorded) {
          change_value(id, o, ts, *recorded);
        }
        return;
      }
      case Level::kNone:
        return;
    }
  }

  void set_fill(std::uint32_t id, SyncObject& o, std::uint64_t ts, std::uint32_t fill) {
    o.started = true;
    sync_.level(SyncFamily::kQueue, id, ts, fill);
    observer_.queue_fill(o.obs_id, ts, fill);
  }

  void set_owner(std::uint32_t id, SyncObject& o, std::uint64_t ts, std::uint32_t owner) {
    if (o.started && owner == o.owner) {
      return;
    }
    o.started = true;
    o.owner = owner;
    std::optional<std::string> holder;
    if (owner != 0) {
      thread(owner, ts);
      holder = threads_.label(owner);
      observer_.mutex_taken(o.obs_id, ts);
    } else {
      observer_.mutex_released(o.obs_id, ts);
    }
    sync_.hold(SyncFamily::kQueue, id, ts, holder);
  }

  // What a thread suspended by `by` (0: an ISR or nobody known) is now.
  TaskState suspended_state(std::uint32_t pointer, std::uint32_t new_state, std::uint32_t by) {
    const Thread& t = *threads_.find(pointer);
    TaskState s;
    if (new_state == kCompleted || new_state == kTerminated) {
      s.kind = TaskStateKind::kDeleted;
      s.detail = new_state == kTerminated && by != 0 && by != pointer ? threads_.label(by) : "";
      return s;
    }
    if (new_state == kSuspendedState) {
      s.kind = TaskStateKind::kSuspended;
      s.detail = by != 0 && by != pointer ? threads_.label(by) : "";
      return s;
    }
    s.kind = TaskStateKind::kBlocked;
    const std::string_view reason = suspension_reason(new_state);
    s.detail = reason.empty() ? "state " + std::to_string(new_state) : std::string{reason};
    if (new_state != kSleepState && t.last_object != 0) {
      if (const RegistryEntry* r = object(t.last_object)) {
        s.detail += " " + (r->name.empty() ? hex(r->pointer) : r->name);
      }
    }
    return s;
  }

  [[nodiscard]] const RegistryEntry* object(std::uint32_t pointer) const {
    const auto it = objects_.find(pointer);
    return it != objects_.end() ? it->second : nullptr;
  }

  // Every other event: an instant on its thread's "Service calls" track (or
  // the core's "Other events" in an ISR or initialisation), fields named.
  void instant(const Entry& e, std::uint64_t ts, bool in_thread) {
    Kind& kind = kind_of(e.event);
    TrackId track = 0;
    if (in_thread) {
      Thread& t = thread(e.thread, ts);
      if (t.calls_track == 0) {
        t.calls_track = timeline_.add_track(t.process, TrackKind::kSlices, "Service calls");
      }
      track = t.calls_track;
    } else {
      if (other_track_ == 0) {
        other_track_ = timeline_.add_track(core_process_, TrackKind::kSlices, "Other events");
      }
      track = other_track_;
    }
    std::array<FieldValue, 5> values{};
    std::array<Arg, 5> args{};
    std::array<std::string, 4> texts;
    std::size_t n = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      if (kind.fields[i] == 0) {
        continue;
      }
      FieldValue& v = values[n];
      if (kind.pointer[i]) {
        const RegistryEntry* r = object(e.info[i]);
        v.info = &kTextField;
        if (r != nullptr && !r->name.empty()) {
          v.str = r->name;  // the registry outlives the call
        } else {
          texts[i] = hex(e.info[i]);
          v.str = texts[i];
        }
      } else {
        v.info = &kNumberField;
        v.u = e.info[i];
      }
      args[n] = Arg{kind.fields[i], &v};
      ++n;
    }
    if (!in_thread) {
      values[n].info = &kTextField;
      values[n].str = e.thread == kIsrContext ? "ISR" : "initialization";
      args[n] = Arg{context_name_, &values[n]};
      ++n;
    }
    timeline_.instant(ts, track, kind.name, std::span<const Arg>{args.data(), n});
    observer_.schema_event(kind.obs_id, ts);
  }

  struct Kind {
    NameId name = 0;
    std::array<NameId, 4> fields{};  // 0: unused
    std::array<bool, 4> pointer{};   // shown as the object's name
    TraceObserver::Index obs_id = TraceObserver::kNone;
  };

  Kind& kind_of(std::uint32_t id) {
    const auto it = kinds_.find(id);
    if (it != kinds_.end()) {
      return it->second;
    }
    Kind& k = kinds_[id];
    const std::string name = event_name(id);
    if (const EventKind* known = find_event_kind(id)) {
      for (std::size_t i = 0; i < 4; ++i) {
        if (!known->fields[i].empty()) {
          std::string_view field = known->fields[i];
          k.pointer[i] = field.ends_with("_ptr") && field != "stack_ptr" && field != "memory_ptr" &&
                         field != "source_ptr" && field != "destination_ptr" && field != "start_ptr";
          k.fields[i] = names_.intern(field);
        }
      }
    } else {
      if (id < kUserEventStart) {
        ++unknown_ids_[id];
      }
      for (std::size_t i = 0; i < 4; ++i) {
        k.fields[i] = names_.intern("info" + std::to_string(i + 1));
      }
    }
    k.name = names_.intern(name);
    k.obs_id = observer_.add_schema_event(name);
    return k;
  }

  void diagnose(DiagnosticKind kind, std::optional<std::uint64_t> ts_ns, std::string message) {
    FieldValue value;
    value.info = &kTextField;
    value.str = message;
    const Arg arg{message_name_, &value};
    timeline_.instant(ts_ns.value_or(0), diagnostics_track_, names_.intern(to_string(kind)), {&arg, 1});
    diagnostics_.report(kind, ts_ns, std::move(message));
  }

  static inline const FieldInfo kTextField{"text", FieldType::kStr, nullptr, false, false, "", {}};
  static inline const FieldInfo kNumberField{"value", FieldType::kU32, nullptr, false, false, "", {}};

  const Buffer& buffer_;
  const std::string& input_;
  std::uint64_t hz_;
  bool clock_given_;
  Timeline& timeline_;
  NameTable& names_;
  Diagnostics& diagnostics_;
  ObserverPort observer_;
  IsrTracker isrs_;
  Threads threads_;
  SyncObjects sync_;
  TrackId diagnostics_track_ = 0, core_process_ = 0, other_track_ = 0;
  NameId message_name_ = 0;
  NameId context_name_ = names_.intern("context");
  std::unordered_map<std::uint32_t, const RegistryEntry*> objects_;  // the registry, by pointer
  std::unordered_map<std::uint32_t, Kind> kinds_;
  std::vector<std::optional<std::uint32_t>> after_;  // by entry: its object's level after it, when recorded
  std::size_t index_ = 0;                             // the entry being imported
  std::map<std::uint32_t, std::uint64_t> unknown_ids_;  // sorted: reported in id order
  std::uint32_t isr_depth_ = 0;
  std::optional<std::uint32_t> pending_next_;
};

}  // namespace

ImportResult import_buffer(std::span<const std::uint8_t> bytes, const std::string& input, const ImportOptions& options,
                           Timeline& timeline, Diagnostics& diagnostics) {
  if (options.clock_hz && *options.clock_hz == 0) {
    throw BufferError("--threadx-clock-hz must be at least 1");
  }
  const Buffer buffer = parse_buffer(bytes);
  if (buffer.entries.empty()) {
    throw BufferError(input + ": ThreadX trace buffer with no entry written (all " +
                      std::to_string(buffer.entry_slots) +
                      " unused): was tracing enabled (tx_trace_enable) and did anything run before the dump?");
  }
  return Importer{buffer, input, options, timeline, diagnostics}.run();
}

}  // namespace tband::threadx
