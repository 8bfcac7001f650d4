// Streaming backend, event path: every frame goes to
// tband_portBACKEND_STREAM_DATA(buf, len) as soon as it is encoded.
#pragma once

#include "backend_session.hpp"
#include "metadata_buffer.hpp"

namespace tband::rt::backend {

inline constexpr bool kEncodesInPlace = false;
inline bool accepting() noexcept { return tracing_enabled(); }

class Writer {
 public:
  explicit Writer(unsigned) noexcept {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool) noexcept {
    return tband_portBACKEND_STREAM_DATA(frame, len) ? Delivery::kDropped : Delivery::kDelivered;
  }
};

inline void stop_because_full() noexcept {}
inline void metadata_changed(unsigned, const MetadataBuffer&) noexcept {}

}  // namespace tband::rt::backend
