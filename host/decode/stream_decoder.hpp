// Byte stream in, decoded events out: a COBS deframer feeding decode_event(),
// with link integrity checked when the trace announces it (decode/link_check.hpp)
// and compact timestamps decoded when it announces them (decode/compact_ts.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "decode/cobs_deframer.hpp"
#include "decode/compact_ts.hpp"
#include "decode/link_check.hpp"
#include "tband_events.hpp"

namespace tband {

class StreamDecoder {
 public:
  /// core: whose frames the stream starts with, as an input's "@core" says
  /// (link integrity's numbers and compact timestamps' anchors are per core).
  explicit StreamDecoder(std::size_t max_frame_len = CobsDeframer::kDefaultMaxFrameLen, std::uint32_t core = 0)
      : deframer_(max_frame_len), link_(core), compact_(core) {}

  /// Calls sink(const DecodeResult&, const FrameLocation&) for every frame
  /// completed by this chunk, good or bad. String fields of the event view the
  /// deframer's buffer and are valid during the call only.
  template <class Sink>
  void feed(std::span<const std::uint8_t> chunk, Sink&& sink) {
    deframer_.feed(chunk, [&](const RawFrame& frame) {
      link_.pass(frame, [&](const RawFrame& checked) {
        compact_.pass(checked, has_ts, [&](const RawFrame& timed) { deliver(timed, sink); });
      });
    });
  }

  /// Ends the stream; reports a frame left open as truncated.
  template <class Sink>
  void finish(Sink&& sink) {
    deframer_.finish([&](const RawFrame& frame) {
      link_.pass(frame, [&](const RawFrame& checked) {
        compact_.pass(checked, has_ts, [&](const RawFrame& timed) { deliver(timed, sink); });
      });
    });
  }

  [[nodiscard]] std::uint64_t position() const noexcept { return deframer_.position(); }
  /// What link integrity found so far (decode/link_check.hpp).
  [[nodiscard]] const LinkCheck::Totals& link_totals() const noexcept { return link_.totals(); }
  /// Events whose time compact timestamps could not give (decode/compact_ts.hpp).
  [[nodiscard]] std::uint64_t timestamps_unknown() const noexcept { return compact_.unknown(); }

 private:
  static bool has_ts(std::uint8_t id) noexcept {
    const EventInfo* info = find_event_info(id);
    return info != nullptr && !info->is_metadata;
  }

  template <class Sink>
  static void deliver(const RawFrame& frame, Sink& sink) {
    if (frame.error != nullptr) {
      sink(DecodeResult{*frame.error}, frame.location);
    } else {
      sink(decode_event(frame.data), frame.location);
    }
  }

  CobsDeframer deframer_;
  LinkCheck link_;
  CompactTs compact_;
};

}  // namespace tband
