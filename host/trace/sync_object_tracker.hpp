// Synchronisation objects (FreeRTOS queues, semaphores, mutexes, event
// groups, stream buffers, timers, queue sets; ThreadX queues, semaphores,
// mutexes, event flags, timers, block and byte pools): each a name and up to
// three tracks, none made before it is needed:
//   level       a counter ("<object> fill", " bits", " in use"), or for a lock
//               its holder slices ("<object> holder": "Taken by <thread>" or
//               "Available");
//   events      slices and instants of its own ("<object> (timer)", " (queue
//               set)"): a timer's "Active" slice, a set's "<member> ready";
//   membership  the set it belongs to ("<object> set membership": "in set <set>").
// Objects of one family share an id space; families do not. Knows no RTOS:
// an importer says what an event means (a send changes a fill, a take changes
// a holder) and keeps what only its RTOS knows of an object in Extra.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/id_map.hpp"
#include "trace/names.hpp"
#include "trace/task_state.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

enum class SyncFamily : std::uint8_t {
  kQueue,       // queues, semaphores, mutexes and queue sets (the statistics' "queue" figures)
  kEventFlags,  // event groups / event flags
  kBuffer,      // stream and message buffers
  kTimer,       // software timers
  kPool,        // memory pools
  kCount,
};

struct NoSyncExtra {};

template <class Extra = NoSyncExtra>
class SyncObjectTracker {
 public:
  struct Object : Extra {
    std::string name;
    TrackId level = 0;
    bool level_is_holder = false;
    bool holder_open = false;  // a holder slice is open on the level track
    TrackId events = 0;
    bool activity_open = false;  // an activity slice is open on the events track
    TrackId membership = 0;
    std::uint32_t in_set = 0;  // the set whose "in set" slice is open (0: none)
    std::string_view kind_name;  // "queue", "message buffer": the label until it is named
    TraceObserver::Index obs_id = TraceObserver::kNone;
  };

  /// How a family's objects are called and their tracks suffixed.
  struct FamilyStyle {
    std::string_view kind;            // unnamed objects: "<kind> <id>"
    std::string_view level_suffix;    // " fill", " bits"
    std::string_view events_suffix;   // " (timer)"
    bool events_first = false;        // its events track is its main one (timers)
  };

  SyncObjectTracker(Timeline& timeline, ObserverPort observer)
      : timeline_(timeline), names_(timeline.names()), observer_(observer) {
    style(SyncFamily::kQueue) = {"queue", " fill", " (queue set)"};
    style(SyncFamily::kEventFlags) = {"event group", " bits", " (event flags)"};
    style(SyncFamily::kBuffer) = {"stream buffer", " fill", " (buffer)"};
    style(SyncFamily::kTimer) = {"timer", " activity", " (timer)", true};
    style(SyncFamily::kPool) = {"pool", " in use", " (pool)"};
  }

  /// An importer's own words for a family (ThreadX: "event flags", " flags").
  [[nodiscard]] FamilyStyle& style(SyncFamily family) { return styles_[static_cast<std::size_t>(family)]; }

  /// The object, made when first met (a queue-family object is counted by
  /// the observer from then on).
  Object& object(SyncFamily family, std::uint32_t id) {
    bool created = false;
    Object& o = map(family).get(id, created);
    if (created) {
      o.kind_name = style(family).kind;
      if (family == SyncFamily::kQueue) {
        o.obs_id = observer_.add_queue();
      }
    }
    return o;
  }
  [[nodiscard]] Object* find(SyncFamily family, std::uint32_t id) { return map(family).find(id); }
  /// (id, object) pairs of a family in the order they were met.
  [[nodiscard]] auto& entries(SyncFamily family) { return map(family).entries(); }

  /// Its name, or "<kind> <id>" ("queue 3", "message buffer 2").
  [[nodiscard]] std::string label(SyncFamily family, std::uint32_t id) {
    const Object* o = find(family, id);
    if (o != nullptr && !o->name.empty()) {
      return o->name;
    }
    return std::string{o != nullptr ? o->kind_name : style(family).kind} + " " + std::to_string(id);
  }

  /// Names the object and renames the tracks it has.
  void name(SyncFamily family, std::uint32_t id, std::string_view name) {
    Object& o = object(family, id);
    o.name.assign(name);
    if (o.level != 0) {
      timeline_.rename(o.level, o.name + std::string{level_suffix(family, o)});
    }
    if (o.events != 0) {
      timeline_.rename(o.events, o.name + std::string{style(family).events_suffix});
    }
    if (o.membership != 0) {
      timeline_.rename(o.membership, o.name + " set membership");
    }
  }

  // ---- level: a counter, or a lock's holder ------------------------------------

  /// A new value of the object's counter.
  void level(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns, std::int64_t value) {
    Object& o = object(family, id);
    timeline_.counter(ts_ns, level_track(family, id, o, false, ts_ns), value);
  }

  /// The lock is held by `holder` (a thread's label), or free (nullopt: "Available").
  void hold(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns, const std::optional<std::string>& holder) {
    Object& o = object(family, id);
    const TrackId track = level_track(family, id, o, true, ts_ns);
    end_holder(o, ts_ns);
    timeline_.slice_begin(ts_ns, track, names_.intern(holder ? "Taken by " + *holder : std::string{"Available"}));
    o.holder_open = true;
  }
  /// Neither held nor available (a mutex not given yet): no slice.
  void unheld(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns) {
    Object& o = object(family, id);
    level_track(family, id, o, true, ts_ns);
    end_holder(o, ts_ns);
  }

  // ---- events: activity slices and instants ----------------------------------------

  /// The events track, made when first needed.
  TrackId events_track(SyncFamily family, std::uint32_t id) {
    Object& o = object(family, id);
    if (o.events == 0) {
      o.events = timeline_.add_track(0, TrackKind::kSlices, label(family, id) + std::string{style(family).events_suffix});
    }
    return o.events;
  }
  void instant(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns, const std::string& what) {
    timeline_.instant(ts_ns, events_track(family, id), names_.intern(what));
  }
  /// An activity ("Active, period 10 ticks") from now on, ending the one before.
  void activity_begin(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns, const std::string& what) {
    const TrackId track = events_track(family, id);
    Object& o = object(family, id);
    activity_end(o, ts_ns);
    timeline_.slice_begin(ts_ns, track, names_.intern(what));
    o.activity_open = true;
  }
  void activity_end(SyncFamily family, std::uint32_t id, std::uint64_t ts_ns) { activity_end(object(family, id), ts_ns); }

  // ---- sets: an object that belongs to another of its family ---------------------------------

  /// The member belongs to the set from now on (leaving the one it was in).
  void join_set(SyncFamily family, std::uint32_t set_id, std::uint32_t member_id, std::uint64_t ts_ns) {
    Object& member = object(family, member_id);
    if (member.in_set == set_id) {
      return;
    }
    leave_set(member, ts_ns);
    if (member.membership == 0) {
      member.membership = timeline_.add_track(0, TrackKind::kSlices, label(family, member_id) + " set membership");
    }
    timeline_.slice_begin(ts_ns, member.membership, names_.intern("in set " + label(family, set_id)));
    member.in_set = set_id;
  }
  void leave_set(Object& member, std::uint64_t ts_ns) {
    if (member.in_set != 0) {
      timeline_.slice_end(ts_ns, member.membership);
      member.in_set = 0;
    }
  }

  // ---- the end -----------------------------------------------------------------------------

  /// f(label) for each object of the family that has its main track (the
  /// level one, or the events one where that comes first) but no name.
  template <class F>
  void each_unnamed(SyncFamily family, F&& f) {
    const bool by_events = style(family).events_first;
    for (auto& [id, o] : entries(family)) {
      if (o.name.empty() && (by_events ? o.events : o.level) != 0) {
        f(label(family, id));
      }
    }
  }
  /// Tells the observer the queue family's names; `is_lock(object)` says
  /// which are mutexes.
  template <class IsLock>
  void name_observed(IsLock&& is_lock) {
    for (auto& [id, o] : entries(SyncFamily::kQueue)) {
      observer_.name_queue(o.obs_id, label(SyncFamily::kQueue, id), is_lock(o));
    }
  }

 private:
  IdMap<Object>& map(SyncFamily family) { return maps_[static_cast<std::size_t>(family)]; }
  std::string_view level_suffix(SyncFamily family, const Object& o) {
    return o.level_is_holder ? std::string_view{" holder"} : style(family).level_suffix;
  }

  // The level track as a counter or as holder slices; a new one when that changes.
  TrackId level_track(SyncFamily family, std::uint32_t id, Object& o, bool holder, std::uint64_t ts_ns) {
    if (o.level == 0 || o.level_is_holder != holder) {
      end_holder(o, ts_ns);
      o.level_is_holder = holder;
      o.level = timeline_.add_track(0, holder ? TrackKind::kSlices : TrackKind::kCounter,
                                    label(family, id) + std::string{level_suffix(family, o)});
    }
    return o.level;
  }

  void end_holder(Object& o, std::uint64_t ts_ns) {
    if (o.holder_open) {
      timeline_.slice_end(ts_ns, o.level);
      o.holder_open = false;
    }
  }
  void activity_end(Object& o, std::uint64_t ts_ns) {
    if (o.activity_open) {
      timeline_.slice_end(ts_ns, o.events);
      o.activity_open = false;
    }
  }

  Timeline& timeline_;
  NameTable& names_;
  ObserverPort observer_;
  std::array<FamilyStyle, static_cast<std::size_t>(SyncFamily::kCount)> styles_{};
  std::array<IdMap<Object>, static_cast<std::size_t>(SyncFamily::kCount)> maps_;
};

}  // namespace tband
