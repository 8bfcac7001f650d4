// User markers: event markers (spans and instants on a slice track) and
// value markers (a counter track), in a scope: the trace's own, global ones,
// or a thread's, whose tracks live in its process. Names may come before or
// after first use. Knows no RTOS: an importer finds the scope (the current
// thread, say) and reports what does not add up in its own words.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "trace/id_map.hpp"
#include "trace/names.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

/// The markers of one scope. Kept by whoever owns the scope (the importer
/// for global markers, a thread for its own); MarkerTracker works on it.
struct MarkerScope {
  struct Marker {
    TrackId track = 0;
    std::string name;  // empty until named
    NameId name_id = 0;
    std::uint32_t depth = 0;
    CachedName msg;
    TraceObserver::Index obs_id = TraceObserver::kNone;
  };
  struct Value {
    TrackId track = 0;
    std::string name;
    TraceObserver::Index obs_id = TraceObserver::kNone;
  };

  TrackId parent = 0;                                 // the process its tracks go in; 0: global tracks
  TraceObserver::Index owner = TraceObserver::kNone;  // the thread's, for the observer
  IdMap<Marker> markers;
  IdMap<Value> values;
  IdMap<std::string> marker_names, value_names;  // names that came before first use
};

class MarkerTracker {
 public:
  MarkerTracker(Timeline& timeline, ObserverPort observer)
      : timeline_(timeline), names_(timeline.names()), observer_(observer) {}

  void name_marker(MarkerScope& s, std::uint32_t id, std::string_view name) {
    if (MarkerScope::Marker* m = s.markers.find(id)) {
      m->name.assign(name);
      timeline_.rename(m->track, m->name);
      m->name_id = names_.intern(m->name);
    } else {
      bool created = false;
      s.marker_names.get(id, created).assign(name);
    }
  }
  void name_value(MarkerScope& s, std::uint32_t id, std::string_view name) {
    if (MarkerScope::Value* v = s.values.find(id)) {
      v->name.assign(name);
      timeline_.rename(v->track, v->name);
    } else {
      bool created = false;
      s.value_names.get(id, created).assign(name);
    }
  }

  /// A span opens; `msg`, when not empty, names it instead of the marker.
  void begin(MarkerScope& s, std::uint32_t id, std::uint64_t ts_ns, std::string_view msg) {
    MarkerScope::Marker& m = marker(s, id);
    ++m.depth;
    timeline_.slice_begin(ts_ns, m.track, msg.empty() ? m.name_id : m.msg.get(names_, msg), {}, msg);
    observer_.span_begin(m.obs_id, ts_ns);
  }
  /// False, and nothing shown, when no span of the marker is open.
  bool end(MarkerScope& s, std::uint32_t id, std::uint64_t ts_ns) {
    MarkerScope::Marker& m = marker(s, id);
    if (m.depth == 0) {
      return false;
    }
    --m.depth;
    timeline_.slice_end(ts_ns, m.track);
    observer_.span_end(m.obs_id, ts_ns);
    return true;
  }
  void instant(MarkerScope& s, std::uint32_t id, std::uint64_t ts_ns, std::string_view msg) {
    MarkerScope::Marker& m = marker(s, id);
    timeline_.instant(ts_ns, m.track, msg.empty() ? m.name_id : m.msg.get(names_, msg), {}, msg);
    observer_.instant(m.obs_id, ts_ns);
  }
  void value(MarkerScope& s, std::uint32_t id, std::uint64_t ts_ns, std::int64_t val) {
    MarkerScope::Value* v = s.values.find(id);
    if (v == nullptr) [[unlikely]] {
      v = &new_value(s, id);
    }
    timeline_.counter(ts_ns, v->track, val);
    observer_.value(v->obs_id, ts_ns, val);
  }

  /// What the event marker's track is called (its name, or "evtmarker <id>").
  [[nodiscard]] const std::string& marker_label(MarkerScope& s, std::uint32_t id) {
    return timeline_.track(marker(s, id).track).name;
  }

  /// f("event marker" or "value marker", id) for every marker used but never named.
  template <class F>
  static void each_unnamed(MarkerScope& s, F&& f) {
    for (auto& [id, m] : s.markers.entries()) {
      if (m.name.empty()) {
        f("event marker", id);
      }
    }
    for (auto& [id, v] : s.values.entries()) {
      if (v.name.empty()) {
        f("value marker", id);
      }
    }
  }

  /// Tells the observer the names of the scope's markers used.
  void observe_names(MarkerScope& s) {
    for (auto& [id, m] : s.markers.entries()) {
      observer_.name_marker(m.obs_id, timeline_.track(m.track).name);
    }
    for (auto& [id, v] : s.values.entries()) {
      observer_.name_value(v.obs_id, timeline_.track(v.track).name);
    }
  }
  /// Tells the observer of markers named but never used (rows of zeros).
  void observe_unused(MarkerScope& s) {
    for (auto& [id, name] : s.marker_names.entries()) {
      if (s.markers.find(id) == nullptr) {
        observer_.name_marker(observer_.add_marker(s.owner), name);
      }
    }
    for (auto& [id, name] : s.value_names.entries()) {
      if (s.values.find(id) == nullptr) {
        observer_.name_value(observer_.add_value(s.owner), name);
      }
    }
  }

 private:
  // Found inline (every marker event looks one up); made out of line.
  MarkerScope::Marker& marker(MarkerScope& s, std::uint32_t id) {
    if (MarkerScope::Marker* m = s.markers.find(id)) [[likely]] {
      return *m;
    }
    return new_marker(s, id);
  }
  [[gnu::noinline]] MarkerScope::Marker& new_marker(MarkerScope& s, std::uint32_t id) {
    bool created = false;
    MarkerScope::Marker& m = s.markers.get(id, created);
    if (std::string* early = s.marker_names.find(id)) {
      m.name = *early;
    }
    m.track = timeline_.add_track(s.parent, TrackKind::kSlices,
                                  m.name.empty() ? "evtmarker " + std::to_string(id) : m.name);
    m.name_id = names_.intern(timeline_.track(m.track).name);
    m.obs_id = observer_.add_marker(s.owner);
    return m;
  }

  [[gnu::noinline]] MarkerScope::Value& new_value(MarkerScope& s, std::uint32_t id) {
    bool created = false;
    MarkerScope::Value& v = s.values.get(id, created);
    if (std::string* early = s.value_names.find(id)) {
      v.name = *early;
    }
    v.track = timeline_.add_track(s.parent, TrackKind::kCounter,
                                  v.name.empty() ? "valmarker " + std::to_string(id) : v.name);
    v.obs_id = observer_.add_value(s.owner);
    return v;
  }

  Timeline& timeline_;
  NameTable& names_;
  ObserverPort observer_;
};

}  // namespace tband
