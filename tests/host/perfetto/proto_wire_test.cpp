// The protobuf wire encoder (host/perfetto/proto_wire.hpp) byte by byte:
// varint edges, negative int64 as ten bytes, ZigZag, fixed64, tags, and nested
// messages whose length is filled in at their end, also past 127 bytes; and
// messages it writes compared with what libprotobuf serialises for the same
// fields (the generated classes of perfetto_trace.proto).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "perfetto/perfetto_fields.hpp"
#include "perfetto/proto_wire.hpp"
#include "perfetto_trace.pb.h"

namespace tband::proto {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes varint(std::uint64_t value) {
  std::uint8_t buf[kMaxVarintSize + 1] = {};
  std::uint8_t* end = write_varint(value, buf);
  EXPECT_EQ(static_cast<std::size_t>(end - buf), varint_size(value)) << value;
  return Bytes(buf, end);
}

TEST(ProtoWire, VarintEdges) {
  EXPECT_EQ(varint(0), (Bytes{0x00}));
  EXPECT_EQ(varint(1), (Bytes{0x01}));
  EXPECT_EQ(varint(127), (Bytes{0x7f}));
  EXPECT_EQ(varint(128), (Bytes{0x80, 0x01}));
  EXPECT_EQ(varint(300), (Bytes{0xac, 0x02}));
  EXPECT_EQ(varint(16383), (Bytes{0xff, 0x7f}));
  EXPECT_EQ(varint(16384), (Bytes{0x80, 0x80, 0x01}));
  EXPECT_EQ(varint(0xffffffffu), (Bytes{0xff, 0xff, 0xff, 0xff, 0x0f}));
  EXPECT_EQ(varint(std::uint64_t{1} << 63), (Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(varint(~std::uint64_t{0}), (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  // The size at every length boundary.
  for (unsigned bits = 1; bits < 64; ++bits) {
    const std::uint64_t first_of_length = std::uint64_t{1} << bits;
    EXPECT_EQ(varint_size(first_of_length - 1), (bits + 6) / 7) << bits;
    EXPECT_EQ(varint_size(first_of_length), (bits + 7) / 7) << bits;
  }
}

TEST(ProtoWire, NegativeIntsTakeTenBytes) {
  EXPECT_EQ(varint(int_bits(-1)), (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  EXPECT_EQ(varint(int_bits(std::numeric_limits<std::int64_t>::min())),
            (Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(varint(int_bits(std::int32_t{-2})).size(), 10u);  // int32 too, as protobuf sign-extends it
}

TEST(ProtoWire, ZigZag) {
  EXPECT_EQ(zigzag(0), 0u);
  EXPECT_EQ(zigzag(-1), 1u);
  EXPECT_EQ(zigzag(1), 2u);
  EXPECT_EQ(zigzag(-2), 3u);
  EXPECT_EQ(zigzag(std::numeric_limits<std::int64_t>::max()), ~std::uint64_t{0} - 1);
  EXPECT_EQ(zigzag(std::numeric_limits<std::int64_t>::min()), ~std::uint64_t{0});
}

TEST(ProtoWire, TagsAndFixed64) {
  static_assert(short_tag<1, WireType::kLengthDelimited>() == 0x0a);
  static_assert(short_tag<15, WireType::kVarint>() == 0x78);
  static_assert(tag_size(15) == 1 && tag_size(16) == 2 && tag_size(2047) == 2 && tag_size(2048) == 3);
  std::uint8_t buf[16] = {};
  std::uint8_t* end = write_tag(44, WireType::kFixed64, buf);  // 44 << 3 | 1 = 353
  EXPECT_EQ(Bytes(buf, end), (Bytes{0xe1, 0x02}));
  end = write_double_field(5, 1.0, buf);
  EXPECT_EQ(Bytes(buf, end), (Bytes{0x29, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  end = write_fixed64(0x0102030405060708u, buf);
  EXPECT_EQ(Bytes(buf, end), (Bytes{8, 7, 6, 5, 4, 3, 2, 1}));
  end = write_bytes_field(2, "", buf);
  EXPECT_EQ(Bytes(buf, end), (Bytes{0x12, 0x00}));
  EXPECT_EQ(length_delimited_size(2, 300), 1u + 2u + 300u);
}

// Nested messages of body sizes around each length boundary: the length is
// the shortest varint and the body follows it intact.
TEST(ProtoWire, NestedMessageLengthIsPatched) {
  for (const std::size_t size : {0u, 1u, 126u, 127u, 128u, 129u, 300u, 16383u, 16384u, 70000u}) {
    std::vector<std::uint8_t> buf(size + 32);
    const NestedMessage message(3, buf.data());
    std::uint8_t* p = message.body();
    for (std::size_t i = 0; i < size; ++i) {
      *p++ = static_cast<std::uint8_t>(i * 13 + 1);
    }
    const std::uint8_t* end = message.end(p);
    ASSERT_EQ(static_cast<std::size_t>(end - buf.data()), length_delimited_size(3, size)) << size;
    EXPECT_EQ(buf[0], 0x1a);
    EXPECT_EQ(Bytes(buf.data() + 1, buf.data() + 1 + varint_size(size)), varint(size)) << size;
    const std::uint8_t* body = buf.data() + 1 + varint_size(size);
    for (std::size_t i = 0; i < size; ++i) {
      ASSERT_EQ(body[i], static_cast<std::uint8_t>(i * 13 + 1)) << size << " at " << i;
    }
  }
}

// A message nested in a nested message, both past 127 bytes: the inner one
// ends first and moves its body, then the outer one moves everything.
TEST(ProtoWire, NestedMessagesInsideEachOther) {
  const std::string name(200, 'n');
  std::vector<std::uint8_t> buf(512);
  const NestedMessage outer(1, buf.data());
  std::uint8_t* p = write_varint_field(10, 1, outer.body());
  const NestedMessage inner(3, p);
  p = write_varint_field(1, int_bits(-7), inner.body());
  p = write_bytes_field(6, name, p);
  p = outer.end(inner.end(p));

  perfetto::protos::Trace trace;
  ASSERT_TRUE(trace.ParseFromArray(buf.data(), static_cast<int>(p - buf.data())));
  ASSERT_EQ(trace.packet_size(), 1);
  EXPECT_EQ(trace.packet(0).trusted_packet_sequence_id(), 1u);
  // Field 3 of TracePacket is not in our subset of the .proto: compare with
  // the same bytes written by libprotobuf for a ProcessDescriptor.
  perfetto::protos::ProcessDescriptor process;
  process.set_pid(-7);
  process.set_process_name(name);
  const std::string expected_inner = process.SerializeAsString();
  std::vector<std::uint8_t> expected(buf.size());
  std::uint8_t* q = write_varint_field(10, 1, expected.data());
  q = write_bytes_field(3, expected_inner, q);
  std::vector<std::uint8_t> whole(buf.size());
  std::uint8_t* w = write_message_field(1, expected.data(), static_cast<std::size_t>(q - expected.data()),
                                        whole.data());
  EXPECT_EQ(Bytes(buf.data(), p), Bytes(whole.data(), w));
}

// What the encoder writes for a packet equals libprotobuf's serialisation of
// the same fields in the same order (field order of the .proto aside,
// libprotobuf writes fields by number; these are in number order).
TEST(ProtoWire, SameBytesAsLibprotobuf) {
  namespace pb = perfetto::protos;
  const std::string long_name(150, 'x');
  pb::TracePacket packet;
  packet.set_trusted_packet_sequence_id(1);
  pb::TrackDescriptor* descriptor = packet.mutable_track_descriptor();
  descriptor->set_uuid(~std::uint64_t{0});
  descriptor->set_name(long_name);
  descriptor->set_parent_uuid(128);
  descriptor->mutable_counter();
  descriptor->set_sibling_merge_behavior(pb::TrackDescriptor::SIBLING_MERGE_BEHAVIOR_NONE);
  const std::string expected = packet.SerializeAsString();

  std::vector<std::uint8_t> buf(512);
  std::uint8_t* p = write_varint_field(pf::TracePacket::kTrustedPacketSequenceId, 1, buf.data());
  const NestedMessage track(pf::TracePacket::kTrackDescriptor, p);
  p = write_varint_field(pf::TrackDescriptor::kUuid, ~std::uint64_t{0}, track.body());
  p = write_bytes_field(pf::TrackDescriptor::kName, long_name, p);
  p = write_varint_field(pf::TrackDescriptor::kParentUuid, 128, p);
  p = write_length_head(pf::TrackDescriptor::kCounter, 0, p);
  p = write_varint_field(pf::TrackDescriptor::kSiblingMergeBehavior, pf::TrackDescriptor::kSiblingMergeBehaviorNone,
                         p);
  p = track.end(p);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(p - buf.data())),
            expected);

  pb::TrackEvent event;
  event.set_type(pb::TrackEvent::TYPE_COUNTER);
  event.set_counter_value(-5);
  pb::DebugAnnotation* annotation = event.add_debug_annotations();
  annotation->set_name_iid(300);
  annotation->set_double_value(-2.5);
  std::uint8_t* e = buf.data();
  const NestedMessage a(pf::TrackEvent::kDebugAnnotations, e);
  e = write_varint_field(pf::DebugAnnotation::kNameIid, 300, a.body());
  e = a.end(write_double_field(pf::DebugAnnotation::kDoubleValue, -2.5, e));
  e = write_varint_field(pf::TrackEvent::kType, pf::TrackEvent::kTypeCounter, e);
  e = write_varint_field(pf::TrackEvent::kCounterValue, int_bits(-5), e);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(e - buf.data())),
            event.SerializeAsString());
}

}  // namespace
}  // namespace tband::proto
