// Whether tracing runs, and whether every core has finished writing.
//
// A core handling an event checks the flag, takes its backend lock, and checks
// the flag again before it writes. Whoever turns tracing on or off holds the
// state lock. So once the flag is off and no backend lock is held, no core can
// write any more: that is "finished", and the buffers are safe to read.
#pragma once

#include <atomic>

#include "core_reports.hpp"
#include "metadata_buffer.hpp"
#include "runtime.hpp"
#include "shared_atomic.hpp"

namespace tband::rt {

inline Spinlock g_state_lock;             // held to change g_tracing_enabled
inline Spinlock g_backend_locks[kCores];  // held by a core while it writes an event

inline bool tracing_enabled() noexcept { return g_tracing_enabled.load(std::memory_order_relaxed); }

/// Takes the core's backend lock if tracing is on; true if it did.
inline bool enter_backend(unsigned core) noexcept {
  if (!tracing_enabled()) {
    return false;
  }
  if constexpr (kMultiCore) {
    per_core(g_backend_locks, core).lock();
    if (!tracing_enabled()) {
      per_core(g_backend_locks, core).unlock();
      return false;
    }
  }
  return true;
}

inline void leave_backend(unsigned core) noexcept { per_core(g_backend_locks, core).unlock(); }

/// Runs fn() inside a critical section with the state lock held; returns what it returns.
template <class Fn>
inline auto with_state_lock(Fn&& fn) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const auto result = [&] {
    LockGuard<Spinlock> guard(g_state_lock);
    return fn();
  }();
  tband_portEXIT_CRITICAL_FROM_ANY();
  return result;
}

/// Needs the state lock held.
inline bool backend_finished_locked(unsigned core) noexcept {
  if (tracing_enabled()) {
    return false;
  }
  if (!per_core(g_backend_locks, core).try_lock()) {
    return false;
  }
  per_core(g_backend_locks, core).unlock();
  return true;
}

/// Needs the state lock held. Always inlined: with one core it is one load.
__attribute__((always_inline)) inline bool all_backends_finished_locked() noexcept {
  for (unsigned core = 0; core < kCores; ++core) {
    if (!backend_finished_locked(core)) {
      return false;
    }
  }
  return true;
}

/// Turns tracing off; true if it was on. State lock held, inside a critical section.
inline bool disable_tracing() noexcept {
  const bool was_enabled = exchange_shared(g_tracing_enabled, false);
  if constexpr (!kMultiCore) {
    // One core checks the switch in the slow path only. Its periodic rhythm
    // need not be kept (as force() would): the next start begins it afresh.
    g_core_reports[0].set_countdown(1);
  }
  return was_enabled;
}

/// The start functions of all backends: -1 unless every core has finished,
/// else the result of prepare() (0 to go on); on 0, tracing is on, as a new session.
template <class Prepare>
inline int start_tracing(Prepare&& prepare) noexcept {
  return with_state_lock([&] {
    if (!all_backends_finished_locked()) {
      return -1;
    }
    if constexpr (kNamesSchemaInMetadata) {
      metadata_append(current_core(), nullptr, 0);  // a trace that names nothing still names its schema
    }
    const int result = prepare();
    if (result == 0) {
      begin_session(current_core());
      store_shared(g_tracing_enabled, true);
    }
    return result;
  });
}

/// The stop functions of all backends: 0 if tracing was on, else -1.
inline int stop_tracing() noexcept {
  return with_state_lock([] { return disable_tracing() ? 0 : -1; });
}

}  // namespace tband::rt
