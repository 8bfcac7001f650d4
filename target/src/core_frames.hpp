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

/// The slots of CoreFrames::fields, as the hook body fills them (the compact
/// encoder reads a hook's fields from kTsSlot on, or for metadata from
/// kValueSlot or kPayloadSlot: hook_kind.hpp's first_slot()).
enum Slot : std::size_t {
  kTsSlot = 0,          // the hook's timestamp
  kValueSlot = 1,       // the hook's value: its first field after the timestamp
  kPayloadSlot = 2,     // its payload: the second field, or the string's address; FreeRTOS task-local: the task id
  kTaskStringSlot = 3,  // FreeRTOS task-local (kCurrentTask): the string's address, after the task id
};

struct CoreFrames {
  // Field values for the compact encoder. fields[0] is the hook's timestamp
  // while the hook runs: the reports sent before its event are stamped with
  // it, so they write only the fields after it.
  std::uint64_t fields[kTaskStringSlot + 1];
  std::uint8_t event[enc::kMaxFramedLen];     // the hook's own event
  std::uint8_t report[kMaxReportFramedLen];   // a report the slow path sends before it
};

inline CoreFrames g_frames[kCores];

}  // namespace tband::rt
