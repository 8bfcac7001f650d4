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

// tband_configBACKEND_STREAM_START_RETRIES: start hands the hook what it said
// it dropped again (the same bytes), up to that many times, and never what it
// took, so the host gets every frame once. With 0 retries every helper below
// is the plain call, inlined: the default costs no byte.
inline constexpr unsigned kStartRetries = tband_configBACKEND_STREAM_START_RETRIES;

// Out of line, one copy each: a loop inlined at every call site would cost
// bytes, and a lambda's captures stack.
__attribute__((noinline)) bool stream_retried(const std::uint8_t* data, std::size_t len) noexcept {
  bool dropped = tband_portBACKEND_STREAM_DATA(data, len);
  for (unsigned left = kStartRetries; dropped && left > 0; --left) {
    tband_portBACKEND_STREAM_START_RETRY_WAIT();
    dropped = tband_portBACKEND_STREAM_DATA(data, len);
  }
  return dropped;
}

// Unstaged a report is one hook call: a drop re-encodes the same fields into
// the same bytes. Staged it only fills the staging buffer, which
// start_batch_dropped() hands over.
__attribute__((noinline)) rt::Delivery send_report_retried(std::uint32_t second, std::uint32_t spec,
                                                           std::uint64_t first) noexcept {
  rt::Delivery delivery = rt::send_report(second, spec, first);
  for (unsigned left = kStartRetries; failed(delivery) && left > 0; --left) {
    tband_portBACKEND_STREAM_START_RETRY_WAIT();
    delivery = rt::send_report(second, spec, first);
  }
  return delivery;
}

// One of start's reports, as send_report().
__attribute__((always_inline)) inline rt::Delivery send_start_report(std::uint32_t second, std::uint32_t spec,
                                                                    std::uint64_t first) noexcept {
  if constexpr (kStartRetries == 0) {
    return rt::send_report(second, spec, first);
  } else {
    return send_report_retried(second, spec, first);
  }
}

// Staged: start's reports so far, as one hook call. With retries they are
// taken out of the buffer first and stay in it for a resend.
__attribute__((always_inline)) inline bool start_batch_dropped() noexcept {
  if constexpr (kStartRetries == 0 || !rt::backend::kStaged) {
    return rt::backend::flush_staging(false);
  } else {
    rt::backend::StagingBuffer& staging = rt::backend::g_staging;
    const std::size_t used = staging.used;
    staging.used = 0;
    staging.reports = 0;
    return used > 0 && stream_retried(staging.data, used);
  }
}

// A core's metadata buffer: one hook call. With retries, one call per frame
// (each ends with its one 0x00, COBS): a link that cannot take the whole
// buffer at once can take it frame by frame, and a drop costs one frame.
__attribute__((always_inline)) inline bool metadata_dropped(const std::uint8_t* data, std::size_t used) noexcept {
  if constexpr (kStartRetries == 0) {
    return used > 0 && tband_portBACKEND_STREAM_DATA(data, used);
  } else {
    const std::uint8_t* const end = data + used;
    for (const std::uint8_t* frame = data; frame != end;) {
      const std::uint8_t* next = frame;
      while (next != end && *next++ != 0) {
      }
      if (stream_retried(frame, static_cast<std::size_t>(next - frame))) {
        return true;
      }
      frame = next;
    }
    return false;
  }
}

// A core_id event naming `core`, stamped with 0 as the reference tracer does.
// Staged, it goes out with what was staged before it, ahead of the metadata
// buffer that follows (streamed as it is); what start sends is no hook call,
// so a drop is not counted.
__attribute__((noinline)) rt::Delivery send_core_id(unsigned core) noexcept {
  const rt::Delivery delivery = send_start_report(core, kCoreIdSpec, 0);
  if (delivery == rt::Delivery::kDelivered && start_batch_dropped()) {
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
// core and followed by a metadata_overflow event if it lost any (the core
// does not report the same totals again before its first event); then a
// core_id event for the calling core, whose events follow. True if anything
// was dropped (after the retries).
bool send_metadata() noexcept {
  if constexpr (!rt::kUseMetadataBuf) {
    return false;
  } else {
    if (failed(send_start_report(0, kTsResolutionSpec, tband_portTIMESTAMP_RESOLUTION_NS))) {
      return true;
    }
    for (unsigned core = 0; core < rt::kCores; ++core) {
      const rt::MetadataView meta = rt::metadata_view(core);
      if (meta.used == 0 && meta.lost_evts == 0) {
        continue;
      }
      if (failed(send_core_id(core)) || metadata_dropped(meta.data, meta.used)) {
        return true;
      }
      if (meta.lost_evts > 0) {
        rt::set_metadata_overflow_fields(rt::current_core(), core, meta.lost_evts, meta.lost_bytes);
        if (failed(send_start_report(core, rt::kMetadataOverflowSpec, tband_portTIMESTAMP()))) {
          return true;
        }
        rt::metadata_loss_sent_at_start(core, meta.lost_evts);
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

#if tband_configUSE_CONTROL == 1
#include "control.hpp"

// The control channel's "metadata" command: what start sends, while
// streaming runs, so that a host that attached later gets every name. One
// core: in the state lock's critical section no event comes in between.
int tband::rt::ctl::resend_stream_metadata() noexcept {
  return rt::with_state_lock([] {
    if (!rt::tracing_enabled()) {
      return -1;
    }
    if (rt::backend::flush_staging()) {
      return -2;
    }
    return send_metadata() ? -2 : 0;
  });
}
#endif

extern "C" int tband_flush_streaming(void) {
  tband_portENTER_CRITICAL_FROM_ANY();
  const bool dropped = rt::backend::flush_staging();
  tband_portEXIT_CRITICAL_FROM_ANY();
  return dropped ? -1 : 0;
}

#endif
