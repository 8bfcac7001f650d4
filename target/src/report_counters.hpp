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
  // Built for size, `countdown` is kept less one (the events before the one
  // that takes the slow path): then every counter starts at 0, and all the
  // tracer's state (shared_state.hpp) is zero at boot, in .bss, with no
  // initial values in flash. Built for speed it is kept as it is: the hot path
  // is one decrement and test of memory.
  static constexpr std::uint32_t kStoredLess = kOptimizeForSize ? 1 : 0;

  std::uint32_t countdown = 1 - kStoredLess;  // events until the slow path, counting the one that takes it
  std::uint32_t periodic_left = 0;    // while forced: events after the next before the periodic counter
  std::uint32_t reported_drops = 0;   // dropped count this core last put into its trace
  std::uint32_t session = 0;          // several cores: tracing session the periodic rhythm belongs to
  bool overflow_pending = false;      // a metadata_overflow event is owed
  AttentionFlag<kMultiCore> attention;

  /// Counts one event; true if it must take the slow path. There, the
  /// countdown is the events left that the periodic counter had (0 when it
  /// ran out; more when another core raised attention), either way it is kept.
  bool take_slow_path() noexcept {
    if constexpr (kOptimizeForSize) {
      if (countdown == 0 || attention.is_raised()) {
        return true;  // the event counts: as kept, the countdown is already one less
      }
      --countdown;
      return false;
    } else {
      return --countdown == 0 || attention.is_raised();
    }
  }

  /// The slow path comes with the `events`-th event from now (at least 1).
  void set_countdown(std::uint32_t events) noexcept { countdown = events - kStoredLess; }

  /// The next event on this core takes the slow path. Unforced,
  /// periodic_left is 0; forced (or with the periodic counter due next anyway),
  /// the countdown is 1: either way adding the countdown less 1 to
  /// periodic_left keeps the rhythm, with no branch.
  void force() noexcept {
    periodic_left += countdown - (1 - kStoredLess);
    set_countdown(1);
  }
};

}  // namespace tband::rt
