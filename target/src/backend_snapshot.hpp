// Snapshot backend, event path: frames are appended to the core's static
// buffer, encoded in place when the longest frame of the event still fits.
// The first frame that does not fit ends the snapshot on every core.
#pragma once

#include "backend_session.hpp"
#include "core_frames.hpp"
#include "metadata_buffer.hpp"

namespace tband::rt::backend {

inline constexpr std::size_t kSnapshotSize = tband_configBACKEND_SNAPSHOT_BUF_SIZE;

struct SnapshotBuffer {
  std::uint8_t data[kSnapshotSize];
  std::size_t used = 0;
};

inline SnapshotBuffer g_snapshots[kCores];

/// Appends a frame to the core's buffer if it fits (else kFull). Out of line:
/// the event path and the reports share it.
Delivery snapshot_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept;

inline constexpr bool kEncodesInPlace = true;
inline constexpr bool kCanDrop = false;  // a frame is kept or the buffer is full
inline bool accepting() noexcept { return tracing_enabled(); }

class Writer {
 public:
  explicit Writer(unsigned core) noexcept : core_(core), snap_(per_core(g_snapshots, core)) {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool) noexcept {
    return snapshot_append(core_, frame, len);
  }
  Delivery deliver_report(const std::uint8_t* frame, std::size_t len) noexcept {
    return deliver(frame, len, false);
  }

  /// Encodes in place while the longest frame still fits; near the end it
  /// encodes into the core's event buffer first and keeps the frame if it fits.
  /// One copy of the encoder either way: only its destination differs.
  template <std::size_t kMaxFramedLen, bool kIsEvent = true, class Encode>
  __attribute__((always_inline)) Delivery write(Encode&& encode) noexcept {
    const std::size_t used = snap_.used;
    const bool in_place = kSnapshotSize - used >= kMaxFramedLen;
    std::uint8_t* out = in_place ? snap_.data + used : per_core(g_frames, core_).event;
    const std::size_t len = encode(out);
    if (__builtin_expect(in_place, 1)) {
      snap_.used = used + len;
      return Delivery::kDelivered;
    }
    return deliver(out, len, false);
  }

  /// The leaf fast path (hook_body.hpp, one core, built for speed): whether an
  /// event of up to n framed bytes fits, and the event encoded straight in.
  static bool room_for(std::size_t n) noexcept {
    return kSnapshotSize >= n && g_snapshots[0].used <= kSnapshotSize - n;  // one compare with a constant
  }
  template <class Encode>
  __attribute__((always_inline)) static void append_in_place(Encode&& encode) noexcept {
    SnapshotBuffer& snap = g_snapshots[0];
    // `used` read once: the encoder's byte stores may alias it, and it would be read again.
    const std::size_t used = snap.used;
    snap.used = used + encode(snap.data + used);
  }

 private:
  unsigned core_;
  SnapshotBuffer& snap_;
};

/// Turns tracing off on all cores; the core that does it runs the callback.
void stop_because_full() noexcept;
inline void metadata_changed(unsigned, const MetadataBuffer&) noexcept {}

}  // namespace tband::rt::backend
