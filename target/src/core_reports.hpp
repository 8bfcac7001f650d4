// The reports' bookkeeping shared by the event path, the backends and the
// start and stop functions: counting drops, telling other cores, and a new
// tracing session. The counters themselves: report_counters.hpp.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime.hpp"
#include "shared_atomic.hpp"
#include "shared_state.hpp"

namespace tband::rt {

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
    g_core_reports[0].set_countdown(1);
  }
}

}  // namespace tband::rt
