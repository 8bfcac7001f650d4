// External backend: every frame is handed to the user's
// tband_portBACKEND_EXTERNAL_EVENT(buf, len, is_metadata), always; there is
// nothing to start or stop, so tracing is always on and never finished.
#pragma once

#include "metadata_buffer.hpp"
#include "runtime.hpp"

namespace tband::rt::backend {

class CoreLock {
 public:
  explicit CoreLock(unsigned) noexcept {}
  static constexpr bool active() noexcept { return true; }
};

inline constexpr bool kReportsCheckEnabled = false;
inline constexpr bool kEncodesInPlace = false;
inline constexpr bool accepting() noexcept { return true; }

class Writer {
 public:
  explicit Writer(unsigned) noexcept {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool is_metadata) noexcept {
    return tband_portBACKEND_EXTERNAL_EVENT(frame, len, is_metadata) ? Delivery::kDropped : Delivery::kDelivered;
  }
  Delivery deliver_report(const std::uint8_t* frame, std::size_t len) noexcept {
    return deliver(frame, len, false);
  }
};

inline void stop_because_full() noexcept {}
inline void metadata_changed(unsigned, const MetadataBuffer&) noexcept {}

}  // namespace tband::rt::backend
