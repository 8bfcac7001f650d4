#include "perfetto/perfetto_writer.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <string_view>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "perfetto_trace.pb.h"

namespace tband {

namespace {

namespace pb = perfetto::protos;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

constexpr auto kLengthDelimited = WireFormatLite::WIRETYPE_LENGTH_DELIMITED;

[[gnu::noinline]] std::uint8_t* grow(std::vector<std::uint8_t>& buf, std::size_t used, std::size_t extra) {
  buf.resize(2 * (used + extra));
  return buf.data() + used;
}

// Grows `buf` so that `extra` more bytes fit after `p`; returns the new p.
inline std::uint8_t* ensure(std::vector<std::uint8_t>& buf, std::uint8_t* p, std::size_t extra) {
  const auto used = static_cast<std::size_t>(p - buf.data());
  if (buf.size() - used < extra) [[unlikely]] {
    return grow(buf, used, extra);
  }
  return p;
}

std::uint8_t* write_bytes_field(int field, std::string_view value, std::uint8_t* p) {
  p = WireFormatLite::WriteTagToArray(field, kLengthDelimited, p);
  p = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(value.size()), p);
  std::memcpy(p, value.data(), value.size());
  return p + value.size();
}

// A nested message: tag, length, then the body written elsewhere.
std::uint8_t* write_message_field(int field, const std::uint8_t* body, std::size_t size, std::uint8_t* p) {
  p = WireFormatLite::WriteTagToArray(field, kLengthDelimited, p);
  p = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(size), p);
  if (size != 0) {  // an empty message may come as nullptr, which memcpy must not get
    std::memcpy(p, body, size);
  }
  return p + size;
}

// A debug annotation's value: a string (a str field, an enum value's name),
// or a number in the field its type calls for.
struct AnnotationValue {
  int field;
  std::string_view text;  // for string_value
  std::uint64_t bits;     // for the numeric fields (a double's bits)
};

// Inlined: returned through memory, the struct stalls the loads that follow (store forwarding).
[[gnu::always_inline]] inline AnnotationValue annotation_value(const FieldValue& v) {
  switch (value_kind(v.info->type)) {
    case ValueKind::kStr:
      return {pb::DebugAnnotation::kStringValueFieldNumber, v.str, 0};
    case ValueKind::kEnum:
      if (const EnumValueInfo* named = v.info->enum_info->find(v.u)) {
        return {pb::DebugAnnotation::kStringValueFieldNumber, named->name, 0};
      }
      return {pb::DebugAnnotation::kUintValueFieldNumber, {}, v.u};
    case ValueKind::kSigned:
      return {pb::DebugAnnotation::kIntValueFieldNumber, {}, static_cast<std::uint64_t>(v.s)};
    case ValueKind::kFloat:
      return {pb::DebugAnnotation::kDoubleValueFieldNumber, {}, std::bit_cast<std::uint64_t>(v.f)};
    case ValueKind::kBool:
      return {pb::DebugAnnotation::kBoolValueFieldNumber, {}, v.u != 0 ? 1u : 0u};
    case ValueKind::kUnsigned:
      break;
  }
  return {pb::DebugAnnotation::kUintValueFieldNumber, {}, v.u};
}

// The annotation's body size: its interned name and its value.
std::size_t annotation_size(const Arg& arg, const AnnotationValue& value) {
  std::size_t size = 1 + CodedOutputStream::VarintSize64(arg.name + 1u) + 1;
  if (value.field == pb::DebugAnnotation::kStringValueFieldNumber) {
    return size + CodedOutputStream::VarintSize32(static_cast<std::uint32_t>(value.text.size())) + value.text.size();
  }
  if (value.field == pb::DebugAnnotation::kDoubleValueFieldNumber) {
    return size + 8;
  }
  return size + CodedOutputStream::VarintSize64(value.bits);
}

// The annotation as a TrackEvent field: tag, size, name, value.
std::uint8_t* write_annotation(const Arg& arg, const AnnotationValue& value, std::size_t size, std::uint8_t* p) {
  p = WireFormatLite::WriteTagToArray(pb::TrackEvent::kDebugAnnotationsFieldNumber, kLengthDelimited, p);
  p = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(size), p);
  p = WireFormatLite::WriteUInt64ToArray(pb::DebugAnnotation::kNameIidFieldNumber, arg.name + 1u, p);
  switch (value.field) {
    case pb::DebugAnnotation::kStringValueFieldNumber:
      return write_bytes_field(value.field, value.text, p);
    case pb::DebugAnnotation::kDoubleValueFieldNumber:
      return WireFormatLite::WriteDoubleToArray(value.field, std::bit_cast<double>(value.bits), p);
    default:
      return WireFormatLite::WriteUInt64ToArray(value.field, value.bits, p);  // int64, uint64 and bool alike
  }
}

// The header's copies of the field numbers must match the generated classes.
static_assert(wire::kTracePacket == pb::Trace::kPacketFieldNumber);
static_assert(wire::kTimestamp == pb::TracePacket::kTimestampFieldNumber);
static_assert(wire::kTrackEvent == pb::TracePacket::kTrackEventFieldNumber);
static_assert(wire::kTrustedPacketSequenceId == pb::TracePacket::kTrustedPacketSequenceIdFieldNumber);
static_assert(wire::kSequenceFlags == pb::TracePacket::kSequenceFlagsFieldNumber);
static_assert(wire::kSeqNeedsIncrementalState == pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
static_assert(wire::kType == pb::TrackEvent::kTypeFieldNumber);
static_assert(wire::kTrackUuid == pb::TrackEvent::kTrackUuidFieldNumber);
static_assert(wire::kNameIid == pb::TrackEvent::kNameIidFieldNumber);
static_assert(wire::kCounterValue == pb::TrackEvent::kCounterValueFieldNumber);
static_assert(wire::kDoubleCounterValue == pb::TrackEvent::kDoubleCounterValueFieldNumber);
static_assert(wire::kSliceBegin == pb::TrackEvent::TYPE_SLICE_BEGIN);
static_assert(wire::kSliceEnd == pb::TrackEvent::TYPE_SLICE_END);
static_assert(wire::kInstant == pb::TrackEvent::TYPE_INSTANT);
static_assert(wire::kCounter == pb::TrackEvent::TYPE_COUNTER);

constexpr std::size_t kVarintMax = 10;
constexpr std::size_t kTagMax = 5;

}  // namespace

PerfettoWriter::PerfettoWriter(BufferedOutput& out, const NameTable& names)
    : out_(out), names_(names), event_buf_(256), intern_buf_(256), packet_buf_(512) {
  write_preamble();
}

void PerfettoWriter::write_packet(const std::uint8_t* body, std::size_t size) {
  std::uint8_t* p = out_.reserve(size + kTagMax + kVarintMax);
  p = write_message_field(pb::Trace::kPacketFieldNumber, body, size, p);
  out_.commit(p);
  ++packets_;
}

// First packets of the sequence: reset incremental state, make the
// incremental clock (in ns, starting at 0 = BOOTTIME 0) the default clock.
void PerfettoWriter::write_preamble() {
  std::uint8_t defaults[16];
  std::uint8_t* d = WireFormatLite::WriteUInt32ToArray(pb::TracePacketDefaults::kTimestampClockIdFieldNumber,
                                                        kIncrementalClockId, defaults);
  std::uint8_t* p = packet_buf_.data();
  p = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kTrustedPacketSequenceIdFieldNumber, kSequenceId, p);
  p = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kSequenceFlagsFieldNumber,
                                         pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED, p);
  p = write_message_field(pb::TracePacket::kTracePacketDefaultsFieldNumber, defaults,
                          static_cast<std::size_t>(d - defaults), p);
  write_packet(packet_buf_.data(), static_cast<std::size_t>(p - packet_buf_.data()));

  std::uint8_t boot[16];
  std::uint8_t* b = WireFormatLite::WriteUInt32ToArray(pb::ClockSnapshot::Clock::kClockIdFieldNumber,
                                                        pb::BUILTIN_CLOCK_BOOTTIME, boot);
  b = WireFormatLite::WriteUInt64ToArray(pb::ClockSnapshot::Clock::kTimestampFieldNumber, 0, b);
  std::uint8_t incremental[32];
  std::uint8_t* i = WireFormatLite::WriteUInt32ToArray(pb::ClockSnapshot::Clock::kClockIdFieldNumber,
                                                        kIncrementalClockId, incremental);
  i = WireFormatLite::WriteUInt64ToArray(pb::ClockSnapshot::Clock::kTimestampFieldNumber, 0, i);
  i = WireFormatLite::WriteBoolToArray(pb::ClockSnapshot::Clock::kIsIncrementalFieldNumber, true, i);
  i = WireFormatLite::WriteUInt64ToArray(pb::ClockSnapshot::Clock::kUnitMultiplierNsFieldNumber, 1, i);
  std::uint8_t snapshot[96];
  std::uint8_t* s = write_message_field(pb::ClockSnapshot::kClocksFieldNumber, boot,
                                        static_cast<std::size_t>(b - boot), snapshot);
  s = write_message_field(pb::ClockSnapshot::kClocksFieldNumber, incremental,
                          static_cast<std::size_t>(i - incremental), s);
  s = WireFormatLite::WriteEnumToArray(pb::ClockSnapshot::kPrimaryTraceClockFieldNumber, pb::BUILTIN_CLOCK_BOOTTIME,
                                       s);
  p = packet_buf_.data();
  p = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kTrustedPacketSequenceIdFieldNumber, kSequenceId, p);
  p = write_message_field(pb::TracePacket::kClockSnapshotFieldNumber, snapshot,
                          static_cast<std::size_t>(s - snapshot), p);
  write_packet(packet_buf_.data(), static_cast<std::size_t>(p - packet_buf_.data()));
}

namespace {
// Perfetto's trace processor keeps the first name of a track that may merge
// with its siblings by name (the default) and ignores a later descriptor's;
// for a track that never merges it takes the newest name. Every track here is
// one of its own (one uuid each), so none merges, and a track renamed later
// (a queue named after it was created) shows its final name.
std::uint8_t* write_no_merge(std::uint8_t* p) {
  return WireFormatLite::WriteEnumToArray(pb::TrackDescriptor::kSiblingMergeBehaviorFieldNumber,
                                          pb::TrackDescriptor::SIBLING_MERGE_BEHAVIOR_NONE, p);
}
}  // namespace

void PerfettoWriter::describe_track(const TrackInfo& track) {
  std::uint8_t* p = event_buf_.data();
  p = ensure(event_buf_, p, 64 + 2 * track.name.size());
  p = WireFormatLite::WriteUInt64ToArray(pb::TrackDescriptor::kUuidFieldNumber, track.id, p);
  if (track.parent != 0) {
    p = WireFormatLite::WriteUInt64ToArray(pb::TrackDescriptor::kParentUuidFieldNumber, track.parent, p);
  }
  switch (track.kind) {
    case TrackKind::kProcess: {
      std::uint8_t* start = intern_buf_.data();
      std::uint8_t* q = ensure(intern_buf_, start, 32 + track.name.size());
      start = intern_buf_.data();
      q = WireFormatLite::WriteInt32ToArray(pb::ProcessDescriptor::kPidFieldNumber, track.pid, q);
      q = write_bytes_field(pb::ProcessDescriptor::kProcessNameFieldNumber, track.name, q);
      p = write_message_field(pb::TrackDescriptor::kProcessFieldNumber, start, static_cast<std::size_t>(q - start), p);
      break;
    }
    case TrackKind::kCounter: {
      p = write_message_field(pb::TrackDescriptor::kCounterFieldNumber, nullptr, 0, p);
      p = write_bytes_field(pb::TrackDescriptor::kNameFieldNumber, track.name, p);
      p = write_no_merge(p);
      break;
    }
    case TrackKind::kSlices:
      p = write_bytes_field(pb::TrackDescriptor::kNameFieldNumber, track.name, p);
      p = write_no_merge(p);
      break;
  }
  const auto body_size = static_cast<std::size_t>(p - event_buf_.data());
  std::uint8_t* q = ensure(packet_buf_, packet_buf_.data(), body_size + 32);
  q = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kTrustedPacketSequenceIdFieldNumber, kSequenceId, q);
  q = write_message_field(pb::TracePacket::kTrackDescriptorFieldNumber, event_buf_.data(), body_size, q);
  write_packet(packet_buf_.data(), static_cast<std::size_t>(q - packet_buf_.data()));
}

bool PerfettoWriter::try_write_with_args(std::uint64_t ts_ns, TrackId track, int type, NameId name, bool has_name,
                                         std::span<const Arg> args) {
  constexpr std::size_t kMaxArgs = 16;
  if (ts_ns < last_ts_ns_ || args.size() > kMaxArgs ||
      (has_name && (name >= event_name_emitted_.size() || !event_name_emitted_[name]))) {
    return false;  // the general path: a name or time that needs more than this
  }
  std::array<AnnotationValue, kMaxArgs> values;
  std::array<std::size_t, kMaxArgs> sizes;
  using COS = CodedOutputStream;
  std::size_t event_size = 2 + 1 + COS::VarintSize64(track);  // type (1-byte enum), track_uuid
  if (has_name) {
    event_size += 1 + COS::VarintSize64(name + 1u);
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].name >= arg_name_emitted_.size() || !arg_name_emitted_[args[i].name]) {
      return false;  // its name still has to be interned
    }
    values[i] = annotation_value(*args[i].value);
    sizes[i] = annotation_size(args[i], values[i]);
    event_size += 1 + COS::VarintSize32(static_cast<std::uint32_t>(sizes[i])) + sizes[i];
  }
  std::uint8_t* p = begin_packet(ts_ns, event_size, type, track, name, has_name);
  for (std::size_t i = 0; i < args.size(); ++i) {
    p = write_annotation(args[i], values[i], sizes[i], p);
  }
  end_packet(p, ts_ns);
  return true;
}

bool PerfettoWriter::mark_interned(NameId id, std::vector<std::uint8_t>& emitted) const {
  if (id >= emitted.size()) {
    emitted.resize(names_.size() > id ? names_.size() : id + 1u, 0);
  }
  if (emitted[id]) {
    return false;
  }
  emitted[id] = 1;
  return true;
}

void PerfettoWriter::track_event(std::uint64_t ts_ns, TrackId track, int type, NameId name, bool has_name,
                                 std::span<const Arg> args, const std::int64_t* counter_value,
                                 std::string_view literal, const double* double_counter_value) {
  const bool literal_name = has_name && name == kLiteralName;
  has_name = has_name && !literal_name;

  // Interned names: iid = NameId + 1, since 0 means "unset".
  std::uint8_t* in = intern_buf_.data();
  if (has_name && needs_interning(name, event_name_emitted_)) {
    const std::string_view text = names_.get(name);
    in = ensure(intern_buf_, in, text.size() + 32);
    std::uint8_t entry[24];
    std::uint8_t* e = WireFormatLite::WriteUInt64ToArray(pb::EventName::kIidFieldNumber, name + 1u, entry);
    const std::size_t head = static_cast<std::size_t>(e - entry);
    // EventName { iid, name }: written in place since the name may be long.
    in = WireFormatLite::WriteTagToArray(pb::InternedData::kEventNamesFieldNumber, kLengthDelimited, in);
    const std::size_t name_field = 1 + CodedOutputStream::VarintSize32(static_cast<std::uint32_t>(text.size())) +
                                   text.size();
    in = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(head + name_field), in);
    std::memcpy(in, entry, head);
    in = write_bytes_field(pb::EventName::kNameFieldNumber, text, in + head);
  }

  std::uint8_t* p = event_buf_.data();
  p = WireFormatLite::WriteEnumToArray(pb::TrackEvent::kTypeFieldNumber, type, p);
  p = WireFormatLite::WriteUInt64ToArray(pb::TrackEvent::kTrackUuidFieldNumber, track, p);
  if (has_name) {
    p = WireFormatLite::WriteUInt64ToArray(pb::TrackEvent::kNameIidFieldNumber, name + 1u, p);
  }
  if (literal_name) {
    p = ensure(event_buf_, p, literal.size() + 16);
    p = write_bytes_field(pb::TrackEvent::kNameFieldNumber, literal, p);
  }
  if (counter_value != nullptr) {
    p = WireFormatLite::WriteInt64ToArray(pb::TrackEvent::kCounterValueFieldNumber, *counter_value, p);
  }
  if (double_counter_value != nullptr) {
    p = WireFormatLite::WriteDoubleToArray(pb::TrackEvent::kDoubleCounterValueFieldNumber, *double_counter_value, p);
  }
  for (const Arg& arg : args) {
    if (needs_interning(arg.name, arg_name_emitted_)) {
      const std::string_view text = names_.get(arg.name);
      in = ensure(intern_buf_, in, text.size() + 32);
      std::uint8_t entry[64];
      std::uint8_t* e = WireFormatLite::WriteUInt64ToArray(pb::DebugAnnotationName::kIidFieldNumber, arg.name + 1u,
                                                          entry);
      in = WireFormatLite::WriteTagToArray(pb::InternedData::kDebugAnnotationNamesFieldNumber, kLengthDelimited, in);
      const std::size_t head = static_cast<std::size_t>(e - entry);
      const std::size_t name_field = 1 + CodedOutputStream::VarintSize32(static_cast<std::uint32_t>(text.size())) +
                                     text.size();
      in = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(head + name_field), in);
      std::memcpy(in, entry, head);
      in = write_bytes_field(pb::DebugAnnotationName::kNameFieldNumber, text, in + head);
    }
    const AnnotationValue value = annotation_value(*arg.value);
    const std::size_t size = annotation_size(arg, value);
    p = ensure(event_buf_, p, size + 16);
    p = write_annotation(arg, value, size, p);
  }
  const auto event_size = static_cast<std::size_t>(p - event_buf_.data());
  const auto intern_size = static_cast<std::size_t>(in - intern_buf_.data());

  std::uint8_t* q = ensure(packet_buf_, packet_buf_.data(), event_size + intern_size + 64);
  if (ts_ns >= last_ts_ns_) {
    q = WireFormatLite::WriteUInt64ToArray(pb::TracePacket::kTimestampFieldNumber, ts_ns - last_ts_ns_, q);
    last_ts_ns_ = ts_ns;
  } else {
    // Time went backwards (reported as a diagnostic): an absolute timestamp
    // on the global clock, leaving the incremental clock where it was.
    q = WireFormatLite::WriteUInt64ToArray(pb::TracePacket::kTimestampFieldNumber, ts_ns, q);
    q = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kTimestampClockIdFieldNumber, pb::BUILTIN_CLOCK_BOOTTIME,
                                           q);
  }
  q = write_message_field(pb::TracePacket::kTrackEventFieldNumber, event_buf_.data(), event_size, q);
  q = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kTrustedPacketSequenceIdFieldNumber, kSequenceId, q);
  q = WireFormatLite::WriteUInt32ToArray(pb::TracePacket::kSequenceFlagsFieldNumber,
                                         pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE, q);
  if (intern_size != 0) {
    q = write_message_field(pb::TracePacket::kInternedDataFieldNumber, intern_buf_.data(), intern_size, q);
  }
  write_packet(packet_buf_.data(), static_cast<std::size_t>(q - packet_buf_.data()));
}

}  // namespace tband
