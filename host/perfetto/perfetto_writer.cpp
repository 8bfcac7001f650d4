#include "perfetto/perfetto_writer.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <string_view>

namespace tband {

namespace {

using proto::int_bits;
using proto::varint_size;
using proto::write_bytes_field;
using proto::write_double_field;
using proto::write_length_head;
using proto::write_message_field;
using proto::write_varint_field;

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
      return {pf::DebugAnnotation::kStringValue, v.str, 0};
    case ValueKind::kEnum:
      if (const EnumValueInfo* named = v.info->enum_info->find(v.u)) {
        return {pf::DebugAnnotation::kStringValue, named->name, 0};
      }
      return {pf::DebugAnnotation::kUintValue, {}, v.u};
    case ValueKind::kSigned:
      return {pf::DebugAnnotation::kIntValue, {}, static_cast<std::uint64_t>(v.s)};
    case ValueKind::kFloat:
      return {pf::DebugAnnotation::kDoubleValue, {}, std::bit_cast<std::uint64_t>(v.f)};
    case ValueKind::kBool:
      return {pf::DebugAnnotation::kBoolValue, {}, v.u != 0 ? 1u : 0u};
    case ValueKind::kUnsigned:
      break;
  }
  return {pf::DebugAnnotation::kUintValue, {}, v.u};
}

// The annotation's body size: its interned name and its value.
std::size_t annotation_size(const Arg& arg, const AnnotationValue& value) {
  std::size_t size = 1 + varint_size(arg.name + 1u) + 1;
  if (value.field == pf::DebugAnnotation::kStringValue) {
    return size + varint_size(value.text.size()) + value.text.size();
  }
  if (value.field == pf::DebugAnnotation::kDoubleValue) {
    return size + 8;
  }
  return size + varint_size(value.bits);
}

// The annotation as a TrackEvent field: tag, size, name, value.
std::uint8_t* write_annotation(const Arg& arg, const AnnotationValue& value, std::size_t size, std::uint8_t* p) {
  p = write_length_head(pf::TrackEvent::kDebugAnnotations, size, p);
  p = write_varint_field(pf::DebugAnnotation::kNameIid, arg.name + 1u, p);
  switch (value.field) {
    case pf::DebugAnnotation::kStringValue:
      return write_bytes_field(value.field, value.text, p);
    case pf::DebugAnnotation::kDoubleValue:
      return proto::write_fixed64(value.bits, proto::write_tag(value.field, proto::WireType::kFixed64, p));
    default:
      return write_varint_field(value.field, value.bits, p);  // int64, uint64 and bool alike
  }
}

constexpr std::size_t kVarintMax = proto::kMaxVarintSize;
constexpr std::size_t kTagMax = proto::kMaxTagSize;

}  // namespace

PerfettoWriter::PerfettoWriter(BufferedOutput& out, const NameTable& names)
    : out_(out), names_(names), event_buf_(256), intern_buf_(256), packet_buf_(512) {
  write_preamble();
}

void PerfettoWriter::write_packet(const std::uint8_t* body, std::size_t size) {
  std::uint8_t* p = out_.reserve(size + kTagMax + kVarintMax);
  p = write_message_field(pf::Trace::kPacket, body, size, p);
  out_.commit(p);
  ++packets_;
}

// First packets of the sequence: reset incremental state, make the
// incremental clock (in ns, starting at 0 = BOOTTIME 0) the default clock.
void PerfettoWriter::write_preamble() {
  using proto::NestedMessage;
  std::uint8_t* p = out_.reserve(128);  // two small packets
  {
    const NestedMessage packet(pf::Trace::kPacket, p);
    p = write_varint_field(pf::TracePacket::kTrustedPacketSequenceId, kSequenceId, packet.body());
    p = write_varint_field(pf::TracePacket::kSequenceFlags, pf::TracePacket::kSeqIncrementalStateCleared, p);
    const NestedMessage defaults(pf::TracePacket::kTracePacketDefaults, p);
    p = write_varint_field(pf::TracePacketDefaults::kTimestampClockId, kIncrementalClockId, defaults.body());
    p = packet.end(defaults.end(p));
  }
  {
    const NestedMessage packet(pf::Trace::kPacket, p);
    p = write_varint_field(pf::TracePacket::kTrustedPacketSequenceId, kSequenceId, packet.body());
    const NestedMessage snapshot(pf::TracePacket::kClockSnapshot, p);
    const NestedMessage boot(pf::ClockSnapshot::kClocks, snapshot.body());
    p = write_varint_field(pf::ClockSnapshotClock::kClockId, pf::BuiltinClock::kBoottime, boot.body());
    p = boot.end(write_varint_field(pf::ClockSnapshotClock::kTimestamp, 0, p));
    const NestedMessage incremental(pf::ClockSnapshot::kClocks, p);
    p = write_varint_field(pf::ClockSnapshotClock::kClockId, kIncrementalClockId, incremental.body());
    p = write_varint_field(pf::ClockSnapshotClock::kTimestamp, 0, p);
    p = write_varint_field(pf::ClockSnapshotClock::kIsIncremental, 1, p);
    p = incremental.end(write_varint_field(pf::ClockSnapshotClock::kUnitMultiplierNs, 1, p));
    p = write_varint_field(pf::ClockSnapshot::kPrimaryTraceClock, pf::BuiltinClock::kBoottime, p);
    p = packet.end(snapshot.end(p));
  }
  out_.commit(p);
  packets_ += 2;
}

// Perfetto's trace processor keeps the first name of a track that may merge
// with its siblings by name (the default) and ignores a later descriptor's;
// for a track that never merges it takes the newest name. Every track here is
// one of its own (one uuid each), so none merges, and a track renamed later
// (a queue named after it was created) shows its final name.
void PerfettoWriter::describe_track(const TrackInfo& track) {
  using proto::NestedMessage;
  // Written in place; the room: the heads, numbers and lengths of the fields
  // below at their largest (three nested messages, five numbers, the name's
  // head, a counter descriptor, the merge behaviour), and the name.
  constexpr std::size_t kMaxHeads = 3 * (kTagMax + kVarintMax) + 5 * (kTagMax + kVarintMax) + 2 * (kTagMax + 1) +
                                    (kTagMax + kVarintMax);
  std::uint8_t* p = out_.reserve(kMaxHeads + track.name.size());
  const NestedMessage packet(pf::Trace::kPacket, p);
  p = write_varint_field(pf::TracePacket::kTrustedPacketSequenceId, kSequenceId, packet.body());
  const NestedMessage descriptor(pf::TracePacket::kTrackDescriptor, p);
  p = write_varint_field(pf::TrackDescriptor::kUuid, track.id, descriptor.body());
  if (track.parent != 0) {
    p = write_varint_field(pf::TrackDescriptor::kParentUuid, track.parent, p);
  }
  if (track.kind == TrackKind::kProcess) {
    const NestedMessage process(pf::TrackDescriptor::kProcess, p);
    p = write_varint_field(pf::ProcessDescriptor::kPid, int_bits(track.pid), process.body());
    p = process.end(write_bytes_field(pf::ProcessDescriptor::kProcessName, track.name, p));
  } else {
    if (track.kind == TrackKind::kCounter) {
      p = write_length_head(pf::TrackDescriptor::kCounter, 0, p);  // an empty CounterDescriptor
    }
    p = write_bytes_field(pf::TrackDescriptor::kName, track.name, p);
    p = write_varint_field(pf::TrackDescriptor::kSiblingMergeBehavior, pf::TrackDescriptor::kSiblingMergeBehaviorNone,
                           p);
  }
  out_.commit(packet.end(descriptor.end(p)));
  ++packets_;
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
  std::size_t event_size = 2 + 1 + varint_size(track);  // type (1-byte enum), track_uuid
  if (has_name) {
    event_size += 1 + varint_size(name + 1u);
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].name >= arg_name_emitted_.size() || !arg_name_emitted_[args[i].name]) {
      return false;  // its name still has to be interned
    }
    values[i] = annotation_value(*args[i].value);
    sizes[i] = annotation_size(args[i], values[i]);
    event_size += 1 + varint_size(sizes[i]) + sizes[i];
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
    const proto::NestedMessage entry(pf::InternedData::kEventNames, in);  // EventName { iid, name }
    in = write_varint_field(pf::EventName::kIid, name + 1u, entry.body());
    in = entry.end(write_bytes_field(pf::EventName::kName, text, in));
  }

  std::uint8_t* p = event_buf_.data();
  p = write_varint_field(pf::TrackEvent::kType, int_bits(type), p);
  p = write_varint_field(pf::TrackEvent::kTrackUuid, track, p);
  if (has_name) {
    p = write_varint_field(pf::TrackEvent::kNameIid, name + 1u, p);
  }
  if (literal_name) {
    p = ensure(event_buf_, p, literal.size() + 16);
    p = write_bytes_field(pf::TrackEvent::kName, literal, p);
  }
  if (counter_value != nullptr) {
    p = write_varint_field(pf::TrackEvent::kCounterValue, int_bits(*counter_value), p);
  }
  if (double_counter_value != nullptr) {
    p = write_double_field(pf::TrackEvent::kDoubleCounterValue, *double_counter_value, p);
  }
  for (const Arg& arg : args) {
    if (needs_interning(arg.name, arg_name_emitted_)) {
      const std::string_view text = names_.get(arg.name);
      in = ensure(intern_buf_, in, text.size() + 32);
      const proto::NestedMessage entry(pf::InternedData::kDebugAnnotationNames, in);
      in = write_varint_field(pf::DebugAnnotationName::kIid, arg.name + 1u, entry.body());
      in = entry.end(write_bytes_field(pf::DebugAnnotationName::kName, text, in));
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
    q = write_varint_field(pf::TracePacket::kTimestamp, ts_ns - last_ts_ns_, q);
    last_ts_ns_ = ts_ns;
  } else {
    // Time went backwards (reported as a diagnostic): an absolute timestamp
    // on the global clock, leaving the incremental clock where it was.
    q = write_varint_field(pf::TracePacket::kTimestamp, ts_ns, q);
    q = write_varint_field(pf::TracePacket::kTimestampClockId, pf::BuiltinClock::kBoottime, q);
  }
  q = write_message_field(pf::TracePacket::kTrackEvent, event_buf_.data(), event_size, q);
  q = write_varint_field(pf::TracePacket::kTrustedPacketSequenceId, kSequenceId, q);
  q = write_varint_field(pf::TracePacket::kSequenceFlags, pf::TracePacket::kSeqNeedsIncrementalState, q);
  if (intern_size != 0) {
    q = write_message_field(pf::TracePacket::kInternedData, intern_buf_.data(), intern_size, q);
  }
  write_packet(packet_buf_.data(), static_cast<std::size_t>(q - packet_buf_.data()));
}

}  // namespace tband
