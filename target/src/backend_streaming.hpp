// Streaming backend, event path: every frame goes to
// tband_portBACKEND_STREAM_DATA(buf, len) as soon as it is encoded; or, with
// a staging buffer (tband_configBACKEND_STREAM_STAGING_BUF_SIZE > 0), frames
// are encoded straight into it and handed over together when the next frame
// might not fit, on tband_flush_streaming() and on stop: one hook call, and
// one copy in the hook, for many frames.
#pragma once

#include "backend_session.hpp"
#include "compact_ts.hpp"
#include "core_frames.hpp"
#include "metadata_buffer.hpp"

namespace tband::rt::backend {

inline constexpr std::size_t kStagingSize = tband_configBACKEND_STREAM_STAGING_BUF_SIZE;
inline constexpr bool kStaged = kStagingSize > 0;
// The stream hook is called on the core whose frames it gets (a stream per
// core); a staged frame could be left for another core to flush.
static_assert(!kStaged || !kMultiCore,
              "tband: the stream staging buffer (tband_configBACKEND_STREAM_STAGING_BUF_SIZE) needs one core");
static_assert(!kStaged || kStagingSize >= enc::kMaxFramedLen,
              "tband: tband_configBACKEND_STREAM_STAGING_BUF_SIZE must hold the longest frame (tband::enc::kMaxFramedLen)");

// Link integrity (tband_configLINK_INTEGRITY): every frame is handed to the
// stream hook with a trailer inside its COBS encoding, a u16 sequence number
// of the core whose frames the host sees it among and a CRC-16/CCITT-FALSE
// (link_stream(), backend_streaming.cpp). Off, frames go to the hook as they are.
inline constexpr bool kLinkIntegrity = tband_configLINK_INTEGRITY == 1;

/// Integrity on: hands the frames in data (whole frames, each ending with its
/// 0x00) to the stream hook one by one, each with its trailer; a frame the
/// hook drops uses no sequence number, and the rest are not sent. True if the
/// hook dropped one.
bool link_stream(const std::uint8_t* data, std::size_t len) noexcept;

/// The core whose sequence numbers the frames streamed from now on take
/// (kNoLinkCore: the calling core's), set by the start while it replays
/// metadata. Integrity off, nothing.
inline constexpr unsigned kNoLinkCore = ~0u;
/// link_started(caller): a start on core caller makes every other core
/// announce integrity before its next frame. link_announced(): whether a
/// start has announced integrity yet (before, the host reads frames as they
/// are, so a frame then goes out without a trailer). link_announce_again(core):
/// core announces integrity before its next frame (its numbers were used
/// elsewhere; under its backend lock).
#if tband_configLINK_INTEGRITY == 1
void set_link_core(unsigned core) noexcept;
void link_started(unsigned caller) noexcept;
bool link_announced() noexcept;
void link_announce_again(unsigned core) noexcept;
#else
inline void set_link_core(unsigned) noexcept {}
inline void link_started(unsigned) noexcept {}
inline bool link_announced() noexcept { return false; }
inline void link_announce_again(unsigned) noexcept {}
#endif

/// Compact timestamps, several cores: sends compact_timestamps on the
/// calling core's stream (compact_ts.hpp, State::announce). True if the hook
/// dropped it; it is then sent before the next frame.
#if tband_configCOMPACT_TIMESTAMPS == 1 && tband_portNUMBER_OF_CORES > 1
bool compact_announcement_dropped() noexcept;
#else
inline bool compact_announcement_dropped() noexcept { return false; }
#endif
/// The stream hook, through link_stream() when integrity is on; first, if a
/// start on another core asked for it, this core's compact_timestamps (a
/// drop of it drops the frames too, so none goes out unannounced).
__attribute__((always_inline)) inline bool stream_data(const std::uint8_t* data, std::size_t len) noexcept {
  if constexpr (compact_ts::kEnabled && kMultiCore) {
    if (__builtin_expect(per_core(compact_ts::g_state, current_core()).announce, 0) &&
        compact_announcement_dropped()) {
      return true;
    }
  }
  if constexpr (kLinkIntegrity) {
    return link_stream(data, len);
  } else {
    return tband_portBACKEND_STREAM_DATA(data, len);
  }
}

struct StagingBuffer {
  std::uint8_t data[kStaged ? kStagingSize : 1];
  std::size_t used = 0;
  // The frames that are no hook call (reports). If the stream hook drops the
  // batch, the hook calls among it are counted: every frame ends with the one
  // 0x00 it holds (COBS), so they are the zeros less these. Counting them
  // only then keeps the hot path's writes down to the frame and `used`.
  std::uint32_t reports = 0;
};

inline StagingBuffer g_staging;

/// Hands the staged frames to the stream hook and empties the buffer; if the
/// hook drops them and count_drops, the events among them are counted as
/// dropped (the next event reports the count). Inside the critical section. True if they
/// were dropped.
bool flush_staged_frames(bool count_drops) noexcept;
inline bool flush_staging(bool count_drops = true) noexcept {
  if constexpr (kStaged) {
    return flush_staged_frames(count_drops);
  } else {
    (void)count_drops;
    return false;  // nothing is ever staged
  }
}

inline constexpr bool kEncodesInPlace = kStaged;
inline constexpr bool kCanDrop = true;  // the stream hook may drop
inline bool accepting() noexcept { return tracing_enabled(); }

class Writer {
 public:
  explicit Writer(unsigned) noexcept {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool) noexcept {
    if constexpr (kStaged) {
      stage(frame, len);
      return Delivery::kDelivered;
    } else {
      return stream_data(frame, len) ? Delivery::kDropped : Delivery::kDelivered;
    }
  }

  /// A report (dropped_evt_cnt, metadata_overflow, core_id): no hook call, so
  /// not counted if a staged batch is dropped.
  Delivery deliver_report(const std::uint8_t* frame, std::size_t len) noexcept {
    if constexpr (kStaged) {
      stage(frame, len);
      ++g_staging.reports;
      return Delivery::kDelivered;
    } else {
      return deliver(frame, len, false);
    }
  }

  /// Encodes straight into the staging buffer (staged streams only); a
  /// report (kIsEvent false) is not counted if its batch is dropped.
  template <std::size_t kMaxFramedLen, bool kIsEvent = true, class Encode>
  __attribute__((always_inline)) Delivery write(Encode&& encode) noexcept {
    g_staging.used += encode(reserve(kMaxFramedLen));
    if constexpr (!kIsEvent) {
      ++g_staging.reports;
    }
    return Delivery::kDelivered;
  }

  /// The leaf fast path (hook_body.hpp, one core, built for speed; staged
  /// streams only): whether an event of up to n framed bytes fits without a
  /// flush, and the event encoded straight in.
  static bool room_for(std::size_t n) noexcept {
    return kStagingSize >= n && g_staging.used <= kStagingSize - n;  // one compare with a constant
  }
  template <class Encode>
  __attribute__((always_inline)) static void append_in_place(Encode&& encode) noexcept {
    // `used` read once: the encoder's byte stores may alias it, and it would be read again.
    const std::size_t used = g_staging.used;
    g_staging.used = used + encode(g_staging.data + used);
  }

 private:
  /// Room for len more bytes, flushing first if there is not.
  __attribute__((always_inline)) static std::uint8_t* reserve(std::size_t len) noexcept {
    if (__builtin_expect(kStagingSize - g_staging.used < len, 0)) {
      (void)flush_staging();  // a drop is counted there
    }
    return g_staging.data + g_staging.used;
  }
  static void stage(const std::uint8_t* frame, std::size_t len) noexcept {
    copy_bytes(reserve(len), frame, len);
    g_staging.used += len;
  }
};

inline void stop_because_full() noexcept {}
inline void metadata_changed(unsigned, const MetadataBuffer&) noexcept {}

}  // namespace tband::rt::backend
