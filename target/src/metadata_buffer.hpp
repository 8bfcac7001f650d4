// The metadata buffer: per core, the framed metadata events (names, kinds,
// timer resolution) emitted since boot, whether tracing ran or not, so that a
// trace started later can still name things. A full buffer keeps what it has
// and counts what it lost; the trace reports that with a metadata_overflow event.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime.hpp"

namespace tband::rt {

struct MetadataBuffer {
  Spinlock lock;  // the owning core appends, any core may read (streaming start)
  std::size_t used = 0;
  std::uint32_t lost_evts = 0;
  std::uint32_t lost_bytes = 0;
#if tband_configUSE_BACKEND_STREAMING == 1
  // lost_evts as a stream start put it into the trace: the core's own
  // report of the same totals would say it twice.
  std::uint32_t lost_evts_sent_at_start = 0;
#endif
};

/// Only a stream start sends the buffers' loss totals (the other backends'
/// readers take them from the buffer).
inline constexpr bool kStartReportsMetadataLoss = tband_configUSE_BACKEND_STREAMING == 1;

/// The core's storage: a static array (shared_state.hpp), or with the
/// post-mortem backend the metadata area inside the post-mortem block (so
/// that a dump has the names).
#if tband_configUSE_BACKEND_POST_MORTEM == 1 || tband_configUSE_METADATA_BUF != 1  // else inline (shared_state.hpp)
std::uint8_t* metadata_storage(unsigned core) noexcept;
#endif

/// Appends one frame to the core's buffer, or counts it as lost and makes the
/// core owe a metadata_overflow report. Called on that core, inside a critical section.
/// With user events, the buffer's first frame is schema_id (the schema's
/// identity), put there before anything else.
void metadata_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept;

/// Firmware with user events: the trace must name its schema, so every
/// trace's metadata starts with schema_id, without the firmware asking for
/// it: the first append on a core puts it first, and every start appends
/// nothing (len 0) to the starting core's buffer, which puts it there if no
/// frame did yet (a trace of a firmware that names nothing). Built without
/// user events, tband's own schema needs no naming.
inline constexpr bool kNamesSchemaInMetadata = enc::kHasUserEvents && kUseMetadataBuf;

/// What a reader needs, taken under the lock: bytes before `used` never change.
struct MetadataView {
  const std::uint8_t* data;
  std::size_t used;
  std::uint32_t lost_evts;
  std::uint32_t lost_bytes;
};
// metadata_view(core), which reads the buffer's state: shared_state.hpp.

}  // namespace tband::rt
