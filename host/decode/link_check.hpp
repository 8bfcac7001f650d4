// Link integrity on the host: firmware built with tband_configLINK_INTEGRITY
// ends every frame, inside its COBS encoding, with a u16 per-core sequence
// number and a CRC-16/CCITT-FALSE of everything before it (both little-endian),
// and announces it with a link_integrity frame (its id, its CRC right) at
// every streaming start and, on every other core, before that core's first
// frame; its sequence number is the core's next, and from there the host
// counts. Until the first one frames pass untouched: a trace without
// integrity decodes exactly as before, for the price of one compare a frame.
//
// From the announcement on, every frame is checked and its trailer taken off:
//  - CRC failed, or the frame did not deframe: a kLinkCorrupt error instead of
//    the frame (never decoded);
//  - sequence number ahead of the core's next: a kLinkLost error (value: the
//    frames missing) before the frame, which is the resynchronisation point;
//  - behind it (half the sequence space back or less): kLinkStale instead of
//    the frame: a duplicate, or a frame that arrived after later ones.
// The core is the one the last core_id named (at first the input's), as the
// firmware numbers them; a core's first frame without an announcement before
// it starts its count. Corrupt frames are no sequence number the host
// saw, so a gap that spans them counts them once as corrupt and not as lost.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "decode/cobs_deframer.hpp"
// A C header: its casts are C's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "tband/crc16.h"
#pragma GCC diagnostic pop

namespace tband {

class LinkCheck {
 public:
  static constexpr std::uint8_t kAnnounceId = 0x10;  // link_integrity (schema/base.yaml)
  static constexpr std::uint8_t kCoreIdId = 0x00;    // core_id
  static constexpr std::size_t kTrailerLen = 4;
  static constexpr std::uint32_t kMaxCores = 256;

  struct Totals {
    std::uint64_t lost = 0;
    std::uint64_t corrupt = 0;
    std::uint64_t stale = 0;
    std::uint64_t resyncs = 0;  // lost-frame gaps (each ends at a resynchronisation point)
  };

  /// core: the core whose frames the stream starts with (the input's "@core").
  explicit LinkCheck(std::uint32_t core = 0) noexcept : core_(core < kMaxCores ? core : 0) {}

  [[nodiscard]] bool active() const noexcept { return active_; }
  [[nodiscard]] const Totals& totals() const noexcept { return totals_; }

  /// Hands `frame` (as the deframer made it) on to sink(const RawFrame&), checked.
  template <class Sink>
  [[gnu::always_inline]] void pass(const RawFrame& frame, Sink&& sink) {
    if (!active_ && (frame.error != nullptr || frame.data.empty() || frame.data[0] != kAnnounceId)) [[likely]] {
      sink(frame);
      return;
    }
    check(frame, sink);
  }

 private:
  static bool crc_ok(std::span<const std::uint8_t> d) noexcept {
    if (d.size() < kTrailerLen + 1) {
      return false;
    }
    const std::size_t n = d.size() - 2;
    const auto want = static_cast<std::uint16_t>(d[n] | (d[n + 1] << 8));
    return tband_crc16(d.data(), n) == want;
  }

  // The core a core_id frame names (its fields: varint ts, varint core), or -1.
  static std::int64_t core_named(std::span<const std::uint8_t> body) noexcept {
    std::size_t i = 1;
    for (int field = 0; field < 2; ++field) {
      std::uint64_t v = 0;
      unsigned shift = 0;
      for (;;) {
        if (i >= body.size() || shift > 63) {
          return -1;
        }
        const std::uint8_t b = body[i++];
        v |= static_cast<std::uint64_t>(b & 0x7Fu) << shift;
        shift += 7;
        if ((b & 0x80u) == 0) {
          break;
        }
      }
      if (field == 1) {
        return v < kMaxCores ? static_cast<std::int64_t>(v) : -1;
      }
    }
    return -1;
  }

  // A link error in place of (kLinkCorrupt, kLinkStale) or before (kLinkLost) the frame.
  template <class Sink>
  void report(DecodeErrorKind kind, std::uint64_t value, const RawFrame& frame, Sink& sink) {
    error_ = DecodeError{kind};
    error_.link_core = core_;
    error_.value = value;
    const RawFrame out{{}, frame.location, &error_};
    sink(out);
  }

  template <class Sink>
  void corrupt(const RawFrame& frame, Sink& sink, bool deframed) {
    ++totals_.corrupt;
    ++corrupt_since_good_[core_];
    report(DecodeErrorKind::kLinkCorrupt, deframed ? 0 : 1, frame, sink);
  }

  template <class Sink>
  void check(const RawFrame& frame, Sink& sink) {
    if (frame.error != nullptr) {
      if (frame.error->kind == DecodeErrorKind::kEmptyFrame) {
        sink(frame);  // an idle line: no frame the firmware sent
      } else {
        corrupt(frame, sink, false);
      }
      return;
    }
    if (!crc_ok(frame.data)) {
      if (active_) {
        corrupt(frame, sink, true);
      } else {
        sink(frame);  // not an announcement after all: as without integrity
      }
      return;
    }
    const std::span<const std::uint8_t> body = frame.data.first(frame.data.size() - kTrailerLen);
    const std::size_t n = frame.data.size();
    const auto seq = static_cast<std::uint16_t>(frame.data[n - 4] | (frame.data[n - 3] << 8));
    if (body[0] == kAnnounceId) {  // the core's next number: its count goes on from there
      active_ = true;
      expected_[core_] = seq;
      known_[core_] = true;
      corrupt_since_good_[core_] = 0;
      deliver(frame, body, sink);
      return;
    }
    if (body[0] == kCoreIdId) {
      const std::int64_t named = core_named(body);
      if (named >= 0) {
        core_ = static_cast<std::uint32_t>(named);
      }
    }
    const auto ahead = static_cast<std::uint16_t>(seq - expected_[core_]);
    if (!known_[core_]) {  // the core's first frame: where its count starts
      known_[core_] = true;
    } else if (ahead >= 0x8000u) {
      ++totals_.stale;
      report(DecodeErrorKind::kLinkStale, seq, frame, sink);
      return;
    } else if (ahead != 0) {
      const std::uint64_t seen_corrupt = corrupt_since_good_[core_];
      const std::uint64_t lost = ahead > seen_corrupt ? ahead - seen_corrupt : 0;
      if (lost > 0) {
        totals_.lost += lost;
        ++totals_.resyncs;
        report(DecodeErrorKind::kLinkLost, lost, frame, sink);
      }
    }
    corrupt_since_good_[core_] = 0;
    expected_[core_] = static_cast<std::uint16_t>(seq + 1);
    deliver(frame, body, sink);
  }

  template <class Sink>
  static void deliver(const RawFrame& frame, std::span<const std::uint8_t> body, Sink& sink) {
    const RawFrame out{body, frame.location, nullptr};
    sink(out);
  }

  bool active_ = false;
  std::uint32_t core_;
  std::array<bool, kMaxCores> known_{};
  std::array<std::uint16_t, kMaxCores> expected_{};
  std::array<std::uint64_t, kMaxCores> corrupt_since_good_{};
  Totals totals_;
  DecodeError error_{DecodeErrorKind::kLinkCorrupt};
};

}  // namespace tband
