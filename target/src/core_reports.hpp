// Per-core bookkeeping for the reports the tracer adds to a trace by itself:
// the dropped-event counter (dropped_evt_cnt) and metadata overflow
// (metadata_overflow).
//
// The hot path touches one word: `countdown`, decremented by every event; the
// event that brings it to 0 takes the slow path, which emits what is owed and
// sets the next countdown (the periodic counter's rhythm). On multi-core
// targets other cores can also raise `attention`. Anything that needs a report
// soon "forces" the countdown to 1, keeping in `periodic_left` how far the
// periodic counter had got, so that the periodic rhythm stays what it would
// have been. Unforced, periodic_left is 0; so on entering the slow path the
// events left until the periodic counter are always periodic_left + countdown.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime.hpp"
#include "shared_atomic.hpp"

namespace tband::rt {

/// Set by other cores; only multi-core targets have one.
template <bool kMultiCore>
struct AttentionFlag {
  std::atomic<bool> raised{false};
  bool is_raised() const noexcept { return raised.load(std::memory_order_relaxed); }
  void raise() noexcept { raised.store(true, std::memory_order_release); }
  void clear() noexcept { (void)raised.exchange(false, std::memory_order_acq_rel); }
};
template <>
struct AttentionFlag<false> {
  static constexpr bool is_raised() noexcept { return false; }
  void raise() noexcept {}
  void clear() noexcept {}
};

struct CoreReports {
  std::uint32_t countdown = 1;        // events until the slow path, counting the one that takes it
  std::uint32_t periodic_left = 0;    // while forced: events after the next before the periodic counter
  std::uint32_t reported_drops = 0;   // dropped count this core last put into its trace
  std::uint32_t session = 0;          // several cores: tracing session the periodic rhythm belongs to
  bool overflow_pending = false;      // a metadata_overflow event is owed
  AttentionFlag<kMultiCore> attention;

  /// Counts one event; true if it must take the slow path.
  bool take_slow_path() noexcept { return --countdown == 0 || attention.is_raised(); }

  /// The next event on this core takes the slow path.
  void force() noexcept {
    if (countdown != 1) {  // else already forced, or the periodic counter is due next anyway
      periodic_left = countdown - 1;
      countdown = 1;
    }
  }
};

inline CoreReports g_core_reports[kCores];
inline std::atomic<std::uint32_t> g_dropped_evts{0};  // one counter for all cores
inline std::atomic<std::uint32_t> g_session{0};       // bumped by every start (several cores)

/// Makes every core look at its reports before its next event: after a drop
/// (the others must report the new count too) or when tracing (re)starts.
inline void alert_other_cores(unsigned self) noexcept {
  if constexpr (kMultiCore) {
    for (unsigned core = 0; core < kCores; ++core) {
      if (core != self) {
        per_core(g_core_reports, core).attention.raise();
      }
    }
  }
}

/// Counts an event the backend lost (or that had to be given up). Called on
/// the core that lost it; every core reports the new count before its next event.
inline void count_drop(unsigned core) noexcept {
  increment_shared(g_dropped_evts);
  alert_other_cores(core);
}

/// Counts an event the backend lost; the core reports the new count before
/// its next event. Out of line (core_reports.cpp): the hooks and the slow
/// path share it, and it is rare.
void record_drop(unsigned core) noexcept;

/// Counts n events the backend lost at once (a staged batch the stream hook
/// dropped); the core reports the new count before its next event.
inline void record_drops(unsigned core, std::uint32_t n) noexcept {
  add_shared(g_dropped_evts, n);
  alert_other_cores(core);
  per_core(g_core_reports, core).force();
}

/// A new tracing session: every core restarts its periodic counter, so the
/// first event each core traces carries the dropped count (if periodic
/// counting is on). Called with the state lock held, inside a critical section.
inline void begin_session(unsigned self) noexcept {
  if constexpr (kMultiCore) {
    increment_shared(g_session);  // each core sees it in its slow path
    per_core(g_core_reports, self).force();
    alert_other_cores(self);
  } else {
    // One core: no other core to tell, so the session's first event finds
    // the periodic counter due at once (forced, with no events left).
    g_core_reports[0].periodic_left = 0;
    g_core_reports[0].countdown = 1;
  }
}

}  // namespace tband::rt
