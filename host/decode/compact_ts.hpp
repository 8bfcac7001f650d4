// Compact timestamps on the host: firmware built with
// tband_configCOMPACT_TIMESTAMPS announces them with a compact_timestamps
// frame at every streaming start; from there the ts field of every
// timestamped event but core_id holds a tagged varint (target/src/compact_ts.hpp):
//   bit 0 set:   absolute, the time is v >> 2 and becomes the core's anchor,
//                bit 1 its epoch;
//   bit 0 clear: the anchor + (v >> 2), if bit 1 is the anchor's epoch.
// Each such frame is handed on with the time written back as the plain varint
// the reference writes, so the decoder after it sees the default mode's
// frame. A delta whose epoch is not the anchor's, or that comes with no anchor
// (after the announcement, after such a delta, or after frames link
// integrity reports lost: they may have held two absolute timestamps), refers
// to an absolute timestamp the host did not get: a kTimestampUnknown error
// takes its place rather than an event at a wrong time, until the core's next
// absolute timestamp. Unseen, then, is only the loss of two absolute
// timestamps and of every frame between them, without link integrity. Until
// the announcement frames pass untouched (one compare a frame).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "decode/cobs_deframer.hpp"
#include "decode/decode_error.hpp"

namespace tband {

class CompactTs {
 public:
  static constexpr std::uint8_t kAnnounceId = 0x11;  // compact_timestamps (schema/base.yaml)
  static constexpr std::uint8_t kCoreIdId = 0x00;    // core_id: its ts stays as it is
  static constexpr std::uint32_t kMaxCores = 256;
  // The announcement's fields for the format below (target/src/compact_ts.hpp).
  static constexpr std::uint64_t kTagBits = 2;
  static constexpr std::uint64_t kDeltaBits = 19;

  /// core: the core whose frames the stream starts with (the input's "@core").
  explicit CompactTs(std::uint32_t core = 0) noexcept : core_(core < kMaxCores ? core : 0) {}

  [[nodiscard]] bool active() const noexcept { return active_; }
  /// Events whose time could not be known (each handed on as kTimestampUnknown).
  [[nodiscard]] std::uint64_t unknown() const noexcept { return unknown_; }

  /// Hands `frame` on to sink(const RawFrame&), its time decoded.
  /// has_ts(id): whether events with this id carry a timestamp (first field).
  template <class HasTs, class Sink>
  [[gnu::always_inline]] void pass(const RawFrame& frame, const HasTs& has_ts, Sink&& sink) {
    if (!active_ && (frame.error != nullptr || frame.data.empty() || frame.data[0] != kAnnounceId)) [[likely]] {
      sink(frame);
      return;
    }
    convert(frame, has_ts, sink);
  }

 private:
  struct Anchor {
    std::uint64_t ts = 0;
    std::uint8_t epoch = 0;
    bool valid = false;
  };

  // A varint from body[i] on (advancing i); false if it does not end or fit 64 bits.
  static bool read_varint(std::span<const std::uint8_t> body, std::size_t& i, std::uint64_t& v) noexcept {
    v = 0;
    for (unsigned shift = 0; i < body.size() && shift < 64; shift += 7) {
      const std::uint8_t b = body[i++];
      v |= static_cast<std::uint64_t>(b & 0x7Fu) << shift;
      if ((b & 0x80u) == 0) {
        return true;
      }
    }
    return false;
  }

  template <class HasTs, class Sink>
  void convert(const RawFrame& frame, const HasTs& has_ts, Sink& sink) {
    if (frame.error != nullptr) {
      if (frame.error->kind == DecodeErrorKind::kLinkLost && frame.error->link_core < kMaxCores) {
        anchors_[frame.error->link_core].valid = false;
      }
      sink(frame);
      return;
    }
    const std::span<const std::uint8_t> body = frame.data;
    const std::uint8_t id = body[0];
    std::size_t i = 1;
    std::uint64_t v = 0;
    if (id == kAnnounceId) {
      // A start: every core's next timestamp is absolute. Only the exact
      // announcement of the format read here counts: a stray 0x11 frame in
      // garbage (a RAM dump, a wrong --format) must not turn the times of
      // every later event into "unknown".
      std::uint64_t delta_bits = 0;
      if (read_varint(body, i, v) && v == kTagBits && read_varint(body, i, delta_bits) &&
          delta_bits == kDeltaBits && i == body.size()) {
        active_ = true;
        anchors_ = {};
      }
      sink(frame);
      return;
    }
    if (id == kCoreIdId) {
      std::uint64_t named = 0;
      if (read_varint(body, i, v) && read_varint(body, i, named) && named < kMaxCores) {
        core_ = static_cast<std::uint32_t>(named);
      }
      sink(frame);
      return;
    }
    if (!has_ts(id) || !read_varint(body, i, v)) {
      sink(frame);  // no timestamp, or a malformed one: the decoder reports it
      return;
    }
    Anchor& anchor = anchors_[core_];
    const auto epoch = static_cast<std::uint8_t>((v >> 1) & 1u);
    std::uint64_t ts = v >> 2;
    if ((v & 1u) != 0) {
      anchor = {ts, epoch, true};
    } else if (anchor.valid && anchor.epoch == epoch) {
      ts += anchor.ts;
    } else {
      // Its anchor was lost: so no later delta is read against the older
      // anchor, whose epoch the next lost anchor's would match.
      anchor.valid = false;
      ++unknown_;
      error_ = DecodeError{DecodeErrorKind::kTimestampUnknown};
      error_.has_event_id = true;
      error_.event_id = id;
      error_.link_core = core_;
      const RawFrame out{{}, frame.location, &error_};
      sink(out);
      return;
    }
    buf_.clear();
    buf_.push_back(id);
    do {
      buf_.push_back(static_cast<std::uint8_t>((ts & 0x7Fu) | (ts > 0x7Fu ? 0x80u : 0u)));
      ts >>= 7;
    } while (ts != 0);
    buf_.insert(buf_.end(), body.begin() + static_cast<std::ptrdiff_t>(i), body.end());
    const RawFrame out{buf_, frame.location, nullptr};
    sink(out);
  }

  std::array<Anchor, kMaxCores> anchors_{};
  std::vector<std::uint8_t> buf_;
  DecodeError error_{DecodeErrorKind::kTimestampUnknown};
  std::uint64_t unknown_ = 0;
  std::uint32_t core_;
  bool active_ = false;
};

}  // namespace tband
