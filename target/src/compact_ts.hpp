// Compact timestamps (tband_configCOMPACT_TIMESTAMPS, target/README.md
// "Compact timestamps"): the timestamp field of every timestamped event but
// core_id carries, in place of the 64-bit time, a varint holding
//   absolute: ts << 2 | epoch << 1 | 1   (ts: the time; it becomes the core's anchor)
//   delta:    d << 2 | epoch << 1        (the time is the anchor + d, d < 2^kDeltaBits)
// epoch flips with each absolute timestamp of the core, so a delta whose
// anchor the host did not receive does not match the host's epoch: the host
// leaves its time unknown instead of shifting it. A delta never refers to
// another delta, so a lost delta frame costs nothing; a lost absolute one
// costs the deltas after it until the next absolute timestamp.
//
// When to send an absolute timestamp: a delta of less than 2^12 takes 2
// varint bytes, one of less than 2^19 three. Events closer together than
// 2^12 ticks get 2-byte deltas, and a new anchor once the anchor is 2^12
// ticks behind (5 bytes every 2^12 ticks): a burst after a pause starts with
// an absolute timestamp, and the burst's events are close to it. Events that
// keep coming further apart than 2^12 ticks (this one and the one before)
// would need 3 bytes anyway and get 3-byte deltas until the anchor is 2^19
// ticks behind.
//
// The anchor must be the host's: it is committed when computed, and every
// way a frame can fail to reach the link takes it back: a frame the backend
// drops (record_drop), a start or restart (reset: events while tracing is
// off are not sent), and a metadata hook's timestamp, which only the reports
// before it carry (ts_field()).
//
// Several cores: a stream per core, each read by the host on its own. A core
// writes only its own State (its hooks stamp even while tracing is off, so
// no other core may): the core that starts (or resends the metadata)
// announces on its stream; every other core is asked to (ask_others()) and
// takes the request in its next field(), inside its own critical section:
// its anchor is dropped, so that timestamp is absolute, and `announce` makes
// the stream hook's path send compact_timestamps on that core's stream ahead
// of the frame (backend_streaming.hpp). An event stamped but not sent
// because tracing is off takes its anchor back itself (not_sent()), so no
// start or restart needs to reset another core's State. The reports a start
// sends for another core, on the caller's stream, carry foreign_field():
// absolute, no anchor of that core's (its events are on its own stream).
#pragma once

#include <cstdint>

#include "runtime.hpp"

namespace tband::rt::compact_ts {

inline constexpr bool kEnabled = tband_configCOMPACT_TIMESTAMPS == 1;
inline constexpr unsigned kTagBits = 2;
inline constexpr unsigned kShortDeltaBits = 12;  // 2 varint bytes with the tag
inline constexpr unsigned kDeltaBits = 19;       // 3 varint bytes with the tag: the largest delta

struct State {
  std::uint64_t anchor;
  std::uint64_t last;   // the core's last timestamp
  std::uint32_t epoch;  // 0 or 2: bit 1 of the field
  bool valid;
  bool far;             // the last event came 2^12 ticks or more after the one before
  bool announce;        // several cores: compact_timestamps goes out on this core's stream before its next frame
};
inline State g_state[kCores];
inline bool g_announced = false;  // compact_timestamps sent at a start: the host reads the fields so
// Several cores: set by the core that starts, for every other one; taken
// (relaxed atomics, as filter.hpp's words) by the core itself in field().
inline bool g_asked_to_announce[kCores];

/// Several cores, at a start or a metadata resend on core `caller` (state lock
/// held): every other core announces on its own stream before its next
/// timestamp, which is absolute; the caller announces itself.
inline void ask_others(unsigned caller) noexcept {
  if constexpr (kMultiCore) {
    for (unsigned core = 0; core < kCores; ++core) {
      __atomic_store_n(&g_asked_to_announce[core], core != caller, __ATOMIC_RELAXED);
    }
    per_core(g_state, caller).announce = false;
  } else {
    (void)caller;
  }
}

/// The timestamp field of an event of `core` at time ts. Inside the core's critical section.
inline std::uint64_t field(unsigned core, std::uint64_t ts) noexcept {
  State& s = per_core(g_state, core);
  if constexpr (kMultiCore) {
    if (__builtin_expect(__atomic_load_n(&g_asked_to_announce[core], __ATOMIC_RELAXED), 0)) {
      __atomic_store_n(&g_asked_to_announce[core], false, __ATOMIC_RELAXED);
      s.valid = false;
      s.announce = true;
    }
  }
  constexpr std::uint64_t kShort = std::uint64_t{1} << kShortDeltaBits;
  const std::uint64_t delta = ts - s.anchor;
  const bool far = ts - s.last >= kShort;  // a time behind the last one too: then delta decides
  const bool sparse = far && s.far;
  s.last = ts;
  s.far = far;
  if (s.valid && (delta < kShort || (sparse && delta < (std::uint64_t{1} << kDeltaBits)))) [[likely]] {
    return (delta << kTagBits) | s.epoch;
  }
  s.anchor = ts;
  s.valid = true;
  s.epoch ^= 2u;
  return (ts << kTagBits) | s.epoch | 1u;
}

/// The next timestamp of `core` is absolute (the last one may not have reached the host).
inline void invalidate(unsigned core) noexcept { per_core(g_state, core).valid = false; }

/// Several cores: an event of `core`, stamped, that tracing being off kept
/// from the link: its timestamp, if absolute, is no anchor.
inline void not_sent(unsigned core) noexcept {
  if constexpr (kEnabled && kMultiCore) {
    invalidate(core);
  } else {
    (void)core;
  }
}

/// The timestamp field of a report a start sends for another core than the
/// caller (on the caller's stream, after a core_id naming that core): an
/// absolute one that touches no State (that core's events, the only ones its
/// deltas could follow, go to its own stream).
inline constexpr std::uint64_t foreign_field(std::uint64_t ts) noexcept { return (ts << kTagBits) | 1u; }

/// Every core's next timestamp is absolute. At a start or restart, one core
/// (state lock held; several cores: see not_sent()).
inline void reset() noexcept {
  for (State& s : g_state) {
    s.valid = false;
  }
}

}  // namespace tband::rt::compact_ts

namespace tband::rt {

/// A hook's timestamp as its frame carries it: ts itself, or with compact
/// timestamps its field (compact_ts.hpp). A metadata hook's timestamp goes
/// only into the reports sent before its event, if any, so an absolute one
/// does not stay the anchor.
__attribute__((always_inline)) inline std::uint64_t ts_field(unsigned core, bool is_metadata,
                                                             std::uint64_t ts) noexcept {
  if constexpr (compact_ts::kEnabled) {
    const std::uint64_t field = compact_ts::field(core, ts);
    if (is_metadata && (field & 1u) != 0) {
      compact_ts::invalidate(core);
    }
    return field;
  } else {
    (void)core;
    (void)is_metadata;
    return ts;
  }
}

}  // namespace tband::rt
