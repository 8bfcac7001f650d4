// Per-core buffers for frames on their way to the backend. A core uses its
// own only inside its critical section (interrupts off on that core, and no
// tracer call may come from inside a port hook), so nothing else can touch it,
// and the hooks need no stack for frames: the deepest hook stays small.
#pragma once

#include <cstdint>

#include "runtime.hpp"

namespace tband::rt {

inline constexpr std::size_t kMaxReportFramedLen = enc::MetadataOverflow::kMaxFramedLen;
static_assert(enc::DroppedEvtCnt::kMaxFramedLen <= kMaxReportFramedLen);

struct CoreFrames {
  // Field values for the compact encoder. fields[0] is the hook's timestamp
  // while the hook runs: the reports sent before its event are stamped with
  // it, so they write only the fields after it.
  std::uint64_t fields[4];
  std::uint8_t event[enc::kMaxFramedLen];     // the hook's own event
  std::uint8_t report[kMaxReportFramedLen];   // a report the slow path sends before it
};

inline CoreFrames g_frames[kCores];

}  // namespace tband::rt
