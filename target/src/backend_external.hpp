// External backend: every frame is handed to the user's
// tband_portBACKEND_EXTERNAL_EVENT(buf, len, is_metadata), always; there is
// nothing to start or stop, so tracing is always on and never finished.
// Without that port macro the frame goes to tband_submit_to_backend(), which
// the firmware defines, as firmware written for the reference tracer does.
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
inline constexpr bool kCanDrop = true;  // the port's hook may drop
inline constexpr bool accepting() noexcept { return true; }

class Writer {
 public:
  explicit Writer(unsigned) noexcept {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool is_metadata) noexcept {
#ifdef tband_portBACKEND_EXTERNAL_EVENT
    return tband_portBACKEND_EXTERNAL_EVENT(frame, len, is_metadata) ? Delivery::kDropped : Delivery::kDelivered;
#else
    // The reference's signature takes a mutable buffer; the frame is the
    // core's own buffer (CoreFrames), writable and rewritten by the next event.
    return tband_submit_to_backend(const_cast<std::uint8_t*>(frame), len, is_metadata) ? Delivery::kDropped
                                                                                      : Delivery::kDelivered;
#endif
  }
  Delivery deliver_report(const std::uint8_t* frame, std::size_t len) noexcept {
    return deliver(frame, len, false);
  }
};

inline void stop_because_full() noexcept {}
inline void metadata_changed(unsigned, const MetadataBuffer&) noexcept {}

}  // namespace tband::rt::backend
