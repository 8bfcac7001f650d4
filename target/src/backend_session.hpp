// The lock a core holds while it handles one event with a backend that can be
// switched on and off (all but the external one): the core's backend lock,
// taken only if tracing is on, so that "finished" can tell when no core writes
// any more.
//
// With one core there is nothing to lock, and the on/off check moves into the
// slow path: switching tracing on or off forces the next event through it (see
// start_tracing and disable_tracing), so the hot path needs no check at all.
#pragma once

#include "tracing_state.hpp"

namespace tband::rt::backend {

class CoreLock {
 public:
  explicit CoreLock(unsigned core) noexcept : core_(core) {
    if constexpr (kMultiCore) {
      active_ = enter_backend(core);
    }
  }
  ~CoreLock() {
    if (kMultiCore && active_) {
      leave_backend(core_);
    }
  }
  CoreLock(const CoreLock&) = delete;
  CoreLock& operator=(const CoreLock&) = delete;

  bool active() const noexcept { return active_; }

 private:
  unsigned core_;
  bool active_ = true;
};

/// Whether the slow path must check the on/off switch itself (one core).
inline constexpr bool kReportsCheckEnabled = !kMultiCore;

}  // namespace tband::rt::backend
