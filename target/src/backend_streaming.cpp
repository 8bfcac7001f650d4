// Streaming backend: start, restart, stop.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_BACKEND_STREAMING == 1

#include "event_path.hpp"
#include "tracing_state.hpp"

namespace rt = tband::rt;
namespace enc = tband::enc;

namespace tband::rt::backend {

bool flush_staged_frames(bool count_drops) noexcept {
  const std::size_t used = g_staging.used;
  const std::uint32_t reports = g_staging.reports;
  g_staging.used = 0;
  g_staging.reports = 0;
  if (used == 0 || !tband_portBACKEND_STREAM_DATA(g_staging.data, used)) {
    return false;
  }
  if (count_drops) {
    // Hook calls among the dropped frames: one 0x00 ends each frame (bounded
    // by the buffer's size; only after a drop).
    std::uint32_t frames = 0;
    for (std::size_t i = 0; i < used; ++i) {
      frames += g_staging.data[i] == 0 ? 1u : 0u;
    }
    record_drops(0, frames - reports);
  }
  return true;
}

}  // namespace tband::rt::backend

namespace {

using enc::FieldWidth;
inline constexpr std::uint32_t kTsResolutionSpec = enc::field_spec(FieldWidth::kU64) | enc::TsResolutionNs::kId;
inline constexpr std::uint32_t kCoreIdSpec = enc::field_spec(FieldWidth::kU64, FieldWidth::kU32) | enc::CoreId::kId;

bool failed(rt::Delivery delivery) noexcept { return delivery != rt::Delivery::kDelivered; }

// A core_id event naming `core`, stamped with 0 as the reference tracer does.
// Staged, it goes out with what was staged before it, ahead of the metadata
// buffer that follows (streamed as it is); what start sends is no hook call,
// so a drop is not counted.
__attribute__((noinline)) rt::Delivery send_core_id(unsigned core) noexcept {
  const rt::Delivery delivery = rt::send_report(core, kCoreIdSpec, 0);
  if (delivery == rt::Delivery::kDelivered && rt::backend::flush_staging(false)) {
    return rt::Delivery::kDropped;
  }
  return delivery;
}

// ts_resolution_ns says what a tick is; the host reads an event before it
// at 1 ns per tick. A core that gathers the system metadata only after the
// start streams it behind its first report, which is timestamped, and other
// cores' events may be merged before that. So every start sends it first,
// ahead of every core's first event, whoever gathers it and when.
//
// Then every core's metadata buffer, each after a core_id event naming its
// core and followed by a metadata_overflow event if it lost any; then a
// core_id event for the calling core, whose events follow. True if anything
// was dropped.
bool send_metadata() noexcept {
  if constexpr (!rt::kUseMetadataBuf) {
    return false;
  } else {
    if (failed(rt::send_report(0, kTsResolutionSpec, tband_portTIMESTAMP_RESOLUTION_NS))) {
      return true;
    }
    for (unsigned core = 0; core < rt::kCores; ++core) {
      const rt::MetadataView meta = rt::metadata_view(core);
      if (meta.used == 0 && meta.lost_evts == 0) {
        continue;
      }
      if (failed(send_core_id(core)) || (meta.used > 0 && tband_portBACKEND_STREAM_DATA(meta.data, meta.used))) {
        return true;
      }
      if (meta.lost_evts > 0) {
        rt::set_metadata_overflow_fields(rt::current_core(), core, meta.lost_evts, meta.lost_bytes);
        if (failed(rt::send_report(core, rt::kMetadataOverflowSpec, tband_portTIMESTAMP()))) {
          return true;
        }
      }
    }
    return failed(send_core_id(rt::current_core()));
  }
}

}  // namespace

extern "C" int tband_start_streaming(void) {
  return rt::start_tracing([] { return send_metadata() ? -2 : 0; });
}

extern "C" int tband_restart_streaming(void) {
  return rt::start_tracing([] { return 0; });
}

extern "C" int tband_stop_streaming(void) {
  return rt::with_state_lock([] {
    if (!rt::disable_tracing()) {
      return -1;
    }
    (void)rt::backend::flush_staging();  // no core writes any more (one core, in its critical section)
    return 0;
  });
}

extern "C" int tband_flush_streaming(void) {
  tband_portENTER_CRITICAL_FROM_ANY();
  const bool dropped = rt::backend::flush_staging();
  tband_portEXIT_CRITICAL_FROM_ANY();
  return dropped ? -1 : 0;
}

#endif
