// Streaming backend: start, restart, stop.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_BACKEND_STREAMING == 1

#include "core_frames.hpp"
#include "metadata_buffer.hpp"
#include "tracing_state.hpp"

namespace rt = tband::rt;
namespace enc = tband::enc;

namespace {

bool stream(const std::uint8_t* data, std::size_t len) noexcept {
  return tband_portBACKEND_STREAM_DATA(data, len);  // true: dropped
}

// Start runs inside the calling core's critical section, so its report buffer is free.
std::uint8_t* scratch() noexcept { return rt::g_frames[rt::current_core()].report; }

bool stream_core_id(unsigned core) noexcept {
  std::uint8_t* frame = scratch();
  return stream(frame, enc::encode_core_id(frame, 0, core));
}

// Every core's metadata buffer, each after a core_id event naming its core and
// followed by a metadata_overflow event if it lost any; then a core_id event
// for the calling core, whose events follow. True if anything was dropped.
bool send_metadata() noexcept {
  if constexpr (!rt::kUseMetadataBuf) {
    return false;
  } else {
    for (unsigned core = 0; core < rt::kCores; ++core) {
      const rt::MetadataView meta = rt::metadata_view(core);
      if (meta.used == 0 && meta.lost_evts == 0) {
        continue;
      }
      if (stream_core_id(core) || (meta.used > 0 && stream(meta.data, meta.used))) {
        return true;
      }
      if (meta.lost_evts > 0) {
        std::uint8_t* frame = scratch();
        const std::size_t len =
            enc::encode_metadata_overflow(frame, tband_portTIMESTAMP(), core, meta.lost_evts, meta.lost_bytes);
        if (stream(frame, len)) {
          return true;
        }
      }
    }
    return stream_core_id(rt::current_core());
  }
}

}  // namespace

extern "C" int tband_start_streaming(void) {
  return rt::start_tracing([] { return send_metadata() ? -2 : 0; });
}

extern "C" int tband_restart_streaming(void) {
  return rt::start_tracing([] { return 0; });
}

extern "C" int tband_stop_streaming(void) { return rt::stop_tracing(); }

#endif
