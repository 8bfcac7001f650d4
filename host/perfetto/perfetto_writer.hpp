// Writes a Perfetto trace (protobuf, the field numbers of perfetto_trace.proto)
// packet by packet into a buffered file. Built for millions of events:
//  - one packet sequence with an incremental clock, so each event carries the
//    time since the previous one (1-2 bytes) instead of an absolute time;
//  - interned names: a slice name or argument name is written once, then
//    referred to by number;
//  - packets are encoded straight into the output buffer with the wire
//    encoder of proto_wire.hpp, never through message objects (no libprotobuf).
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "common/buffered_output.hpp"
#include "perfetto/perfetto_fields.hpp"
#include "perfetto/proto_wire.hpp"
#include "trace/names.hpp"
#include "trace/timeline_sink.hpp"
#include "trace/track.hpp"

namespace tband {

class PerfettoWriter final : public TimelineSink {
 public:
  PerfettoWriter(BufferedOutput& out, const NameTable& names);

  void describe_track(const TrackInfo& track) override;
  void slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                   std::string_view literal) override {
    if (args.empty() ? !try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeSliceBegin, name, true, nullptr)
                     : !try_write_with_args(ts_ns, track.id, pf::TrackEvent::kTypeSliceBegin, name, true, args)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeSliceBegin, name, true, args, nullptr, literal);
    }
  }
  /// An end with arguments: Perfetto adds them to the slice's.
  void slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) override {
    if (args.empty() ? !try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeSliceEnd, 0, false, nullptr)
                     : !try_write_with_args(ts_ns, track.id, pf::TrackEvent::kTypeSliceEnd, 0, false, args)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeSliceEnd, 0, false, args, nullptr);
    }
  }
  void instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
               std::string_view literal) override {
    if (args.empty() ? !try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeInstant, name, true, nullptr)
                     : !try_write_with_args(ts_ns, track.id, pf::TrackEvent::kTypeInstant, name, true, args)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeInstant, name, true, args, nullptr, literal);
    }
  }
  void counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) override {
    if (!try_write_simple(ts_ns, track.id, pf::TrackEvent::kTypeCounter, 0, false, &value)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeCounter, 0, false, {}, &value);
    }
  }
  void counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) override {
    if (!try_write_simple(ts_ns, track.id, pf::TrackEvent::kTypeCounter, 0, false, &value)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeCounter, 0, false, {}, nullptr, {}, &value);
    }
  }

  void simple_slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name) override {
    if (!try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeSliceBegin, name, true, nullptr)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeSliceBegin, name, true, {}, nullptr);
    }
  }
  void simple_slice_end(std::uint64_t ts_ns, const TrackInfo& track) override {
    if (!try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeSliceEnd, 0, false, nullptr)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeSliceEnd, 0, false, {}, nullptr);
    }
  }
  void simple_instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name) override {
    if (!try_write_simple<void>(ts_ns, track.id, pf::TrackEvent::kTypeInstant, name, true, nullptr)) {
      track_event(ts_ns, track.id, pf::TrackEvent::kTypeInstant, name, true, {}, nullptr);
    }
  }

  [[nodiscard]] std::uint64_t packets() const noexcept { return packets_; }

  // Sequence-scoped clock id for the incremental clock (Perfetto: 64..127).
  static constexpr std::uint32_t kIncrementalClockId = 64;
  static constexpr std::uint32_t kSequenceId = 1;

 private:
  void write_preamble();
  void track_event(std::uint64_t ts_ns, TrackId track, int type, NameId name, bool has_name,
                   std::span<const Arg> args, const std::int64_t* counter_value, std::string_view literal = {},
                   const double* double_counter_value = nullptr);
  // The common packet (no arguments, no new interned name, time not going
  // backwards), written straight into the output. Its two lengths (packet
  // and TrackEvent) are below 128 whatever the values, so each is one byte,
  // filled in once the fields behind it are written: no sizes to work out
  // first. Value: void (no counter value), std::int64_t or double.
  template <class Value = void>
  bool try_write_simple(std::uint64_t ts_ns, TrackId track, int type, NameId name, bool has_name,
                        const Value* counter_value) {
    constexpr bool kInt = std::is_same_v<Value, std::int64_t>;
    constexpr bool kDouble = std::is_same_v<Value, double>;
    if (ts_ns < last_ts_ns_ || (has_name && (name >= event_name_emitted_.size() || !event_name_emitted_[name]))) {
      return false;
    }
    // The largest such packet: the TrackEvent (type 2, track 1 + 10, name 1 + 5,
    // counter 2 + 10) and the packet around it (length-delimited heads, a
    // 10-byte time delta, sequence id and flags): one-byte lengths suffice.
    constexpr std::size_t kMaxEvent = 2 + 11 + 6 + 12;
    constexpr std::size_t kMaxPacket = 1 + 10 + 2 + kMaxEvent + 4;
    static_assert(kMaxEvent < 128 && kMaxPacket < 128);
    std::uint8_t* const start = out_.reserve(2 + kMaxPacket);
    std::uint8_t* p = start + 2;  // after the packet's tag and length
    start[0] = proto::short_tag<pf::Trace::kPacket, kLengthDelimited>();
    *p++ = proto::short_tag<pf::TracePacket::kTimestamp, kVarint>();
    p = proto::write_varint(ts_ns - last_ts_ns_, p);
    *p++ = proto::short_tag<pf::TracePacket::kTrackEvent, kLengthDelimited>();
    std::uint8_t* const event_length = p++;
    std::uint8_t* const event = p;
    *p++ = proto::short_tag<pf::TrackEvent::kType, kVarint>();
    *p++ = static_cast<std::uint8_t>(type);
    *p++ = proto::short_tag<pf::TrackEvent::kTrackUuid, kVarint>();
    p = proto::write_varint(track, p);
    if (has_name) {
      *p++ = proto::short_tag<pf::TrackEvent::kNameIid, kVarint>();
      p = proto::write_varint(name + 1u, p);
    }
    if constexpr (kInt) {
      p = proto::write_tag(pf::TrackEvent::kCounterValue, proto::WireType::kVarint, p);  // 2-byte tag
      p = proto::write_varint(static_cast<std::uint64_t>(*counter_value), p);
    } else if constexpr (kDouble) {
      p = proto::write_tag(pf::TrackEvent::kDoubleCounterValue, proto::WireType::kFixed64, p);
      p = proto::write_fixed64(std::bit_cast<std::uint64_t>(*counter_value), p);
    }
    *event_length = static_cast<std::uint8_t>(p - event);
    *p++ = proto::short_tag<pf::TracePacket::kTrustedPacketSequenceId, kVarint>();
    *p++ = static_cast<std::uint8_t>(kSequenceId);
    *p++ = proto::short_tag<pf::TracePacket::kSequenceFlags, kVarint>();
    *p++ = static_cast<std::uint8_t>(pf::TracePacket::kSeqNeedsIncrementalState);
    start[1] = static_cast<std::uint8_t>(p - (start + 2));
    out_.commit(p);
    last_ts_ns_ = ts_ns;
    ++packets_;
    return true;
  }
  // A packet written straight into the output: its head up to the TrackEvent's
  // type, track and name; the caller writes the event's other fields (making
  // event_size bytes in all), then end_packet(). Time must not go backwards.
  // (Forced inline: a call costs the hot path of every conversion.)
  [[gnu::always_inline]] std::uint8_t* begin_packet(std::uint64_t ts_ns, std::size_t event_size, int type,
                                                    TrackId track, NameId name, bool has_name) {
    const std::uint64_t delta = ts_ns - last_ts_ns_;
    const std::size_t packet_size = 1 + proto::varint_size(delta) + 1 + proto::varint_size(event_size) + event_size +
                                    2 + 2;  // + trusted_packet_sequence_id, sequence_flags
    std::uint8_t* p = out_.reserve(packet_size + 8);
    *p++ = proto::short_tag<pf::Trace::kPacket, kLengthDelimited>();
    p = proto::write_varint(packet_size, p);
    *p++ = proto::short_tag<pf::TracePacket::kTimestamp, kVarint>();
    p = proto::write_varint(delta, p);
    *p++ = proto::short_tag<pf::TracePacket::kTrackEvent, kLengthDelimited>();
    p = proto::write_varint(event_size, p);
    *p++ = proto::short_tag<pf::TrackEvent::kType, kVarint>();
    *p++ = static_cast<std::uint8_t>(type);
    *p++ = proto::short_tag<pf::TrackEvent::kTrackUuid, kVarint>();
    p = proto::write_varint(track, p);
    if (has_name) {
      *p++ = proto::short_tag<pf::TrackEvent::kNameIid, kVarint>();
      p = proto::write_varint(name + 1u, p);
    }
    return p;
  }
  [[gnu::always_inline]] void end_packet(std::uint8_t* p, std::uint64_t ts_ns) {
    *p++ = proto::short_tag<pf::TracePacket::kTrustedPacketSequenceId, kVarint>();
    *p++ = static_cast<std::uint8_t>(kSequenceId);
    *p++ = proto::short_tag<pf::TracePacket::kSequenceFlags, kVarint>();
    *p++ = static_cast<std::uint8_t>(pf::TracePacket::kSeqNeedsIncrementalState);
    out_.commit(p);
    last_ts_ns_ = ts_ns;
    ++packets_;
  }
  static constexpr auto kVarint = proto::WireType::kVarint;
  static constexpr auto kLengthDelimited = proto::WireType::kLengthDelimited;
  void write_packet(const std::uint8_t* body, std::size_t size);
  // Like try_write_simple, with debug annotations whose names are interned.
  bool try_write_with_args(std::uint64_t ts_ns, TrackId track, int type, NameId name, bool has_name,
                           std::span<const Arg> args);
  // True (once) if the name's text must still be written; the common "already
  // written" answer inline.
  bool needs_interning(NameId id, std::vector<std::uint8_t>& emitted) const {
    return id < emitted.size() && emitted[id] ? false : mark_interned(id, emitted);
  }
  bool mark_interned(NameId id, std::vector<std::uint8_t>& emitted) const;

  BufferedOutput& out_;
  const NameTable& names_;
  std::uint64_t last_ts_ns_ = 0;  // value of the incremental clock
  std::uint64_t packets_ = 0;
  std::vector<std::uint8_t> event_name_emitted_;  // by NameId: its text is written (a byte is quicker than a bit)
  std::vector<std::uint8_t> arg_name_emitted_;
  std::vector<std::uint8_t> event_buf_;   // TrackEvent body
  std::vector<std::uint8_t> intern_buf_;  // InternedData body
  std::vector<std::uint8_t> packet_buf_;  // TracePacket body
};

}  // namespace tband
