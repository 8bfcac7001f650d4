// Interrupt handlers, per core: a slice track each in its core's process,
// their nesting, and names that may come before or after first use. Knows
// no RTOS: an importer tells it of entries, exits and names, and reports
// what does not add up (an exit without an entry) in its own words.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/id_map.hpp"
#include "trace/names.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband {

class IsrTracker {
 public:
  IsrTracker(Timeline& timeline, ObserverPort observer)
      : timeline_(timeline), names_(timeline.names()), observer_(observer) {}

  /// A core whose handlers get tracks in `process`; before any other call for it.
  void add_core(std::uint32_t core, TrackId process) {
    if (cores_.size() <= core) {
      cores_.resize(core + 1u);
    }
    cores_[core].process = process;
  }

  void name(std::uint32_t core, std::uint32_t id, std::string_view name) {
    PerCore& c = cores_[core];
    if (Isr* i = c.isrs.find(id)) {
      i->name.assign(name);
      timeline_.rename(i->track, i->name);
      i->name_id = names_.intern(i->name);
    } else {
      bool created = false;
      c.early_names.get(id, created).assign(name);
    }
  }

  void enter(std::uint32_t core, std::uint32_t id, std::uint64_t ts_ns) {
    Isr& i = isr(core, id);
    ++i.depth;
    timeline_.slice_begin(ts_ns, i.track, i.name_id);
    observer_.isr_enter(i.obs_id, core, ts_ns);
  }

  /// False, and nothing shown, when no entry of the handler is open.
  bool exit(std::uint32_t core, std::uint32_t id, std::uint64_t ts_ns) {
    Isr& i = isr(core, id);
    if (i.depth == 0) {
      return false;
    }
    --i.depth;
    timeline_.slice_end(ts_ns, i.track);
    observer_.isr_exit(i.obs_id, core, ts_ns);
    return true;
  }

  /// What the handler's track is called (its name, or "ISR <id>").
  [[nodiscard]] const std::string& label(std::uint32_t core, std::uint32_t id) {
    return timeline_.track(isr(core, id).track).name;
  }

  /// f(core, id) for every handler used but never named, core by core.
  template <class F>
  void each_unnamed(F&& f) {
    for (std::size_t core = 0; core < cores_.size(); ++core) {
      for (auto& [id, i] : cores_[core].isrs.entries()) {
        if (i.name.empty()) {
          f(static_cast<std::uint32_t>(core), id);
        }
      }
    }
  }

  /// Tells the observer the names of the handlers used.
  void observe_names() {
    for (PerCore& c : cores_) {
      for (auto& [id, i] : c.isrs.entries()) {
        observer_.name_isr(i.obs_id, timeline_.track(i.track).name);
      }
    }
  }
  /// Tells the observer of handlers named but never used (rows of zeros).
  void observe_unused() {
    for (std::size_t core = 0; core < cores_.size(); ++core) {
      PerCore& c = cores_[core];
      for (auto& [id, name] : c.early_names.entries()) {
        if (c.isrs.find(id) == nullptr) {
          observer_.name_isr(observer_.add_isr(static_cast<std::uint32_t>(core)), name);
        }
      }
    }
  }

 private:
  struct Isr {
    TrackId track = 0;
    std::string name;
    NameId name_id = 0;
    std::uint32_t depth = 0;
    TraceObserver::Index obs_id = TraceObserver::kNone;
  };
  struct PerCore {
    TrackId process = 0;
    IdMap<Isr> isrs;
    IdMap<std::string> early_names;  // names that came before first use
  };

  // Found inline (every ISR event looks one up); made out of line.
  Isr& isr(std::uint32_t core, std::uint32_t id) {
    if (Isr* i = cores_[core].isrs.find(id)) [[likely]] {
      return *i;
    }
    return new_isr(core, id);
  }
  [[gnu::noinline]] Isr& new_isr(std::uint32_t core, std::uint32_t id) {
    PerCore& c = cores_[core];
    bool created = false;
    Isr& i = c.isrs.get(id, created);
    if (std::string* early = c.early_names.find(id)) {
      i.name = *early;
    }
    const std::string label = i.name.empty() ? "ISR " + std::to_string(id) : i.name;
    i.track = timeline_.add_track(c.process, TrackKind::kSlices, label, TrackRole::kIsr, id);
    i.name_id = names_.intern(label);
    i.obs_id = observer_.add_isr(core);
    return i;
  }

  Timeline& timeline_;
  NameTable& names_;
  ObserverPort observer_;
  // By core id. A vector (indexed in a few instructions, where a deque took
  // a dozen on every ISR event): a PerCore may move when a core is added,
  // its Isr entries do not (IdMap keeps them in place when it moves).
  std::vector<PerCore> cores_;
};

}  // namespace tband
