// decode_event() on malformed frames: every problem comes back as a value that
// names the event, the field and the byte; nothing throws or reads out of bounds.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "decode/stream_decoder.hpp"
#include "tband_events.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using Kind = tband::DecodeErrorKind;

tband::DecodeError error_of(const Bytes& frame) {
  const tband::DecodeResult result = tband::decode_event(frame);
  EXPECT_FALSE(result.ok());
  return result.ok() ? tband::DecodeError{Kind::kBadCobs} : result.error();
}

TEST(DecodeErrors, EmptyFrame) { EXPECT_EQ(error_of({}).kind, Kind::kEmptyFrame); }

TEST(DecodeErrors, UnknownEventId) {
  const auto e = error_of({0xC8, 0x01});
  EXPECT_EQ(e.kind, Kind::kUnknownEventId);
  EXPECT_EQ(e.value, 0xC8u);
  EXPECT_EQ(tband::describe(e), "unknown event id 0xC8 (at byte 0 of the frame)");
}

TEST(DecodeErrors, MissingField) {
  // isr_enter with a timestamp but no isr_id.
  const auto e = error_of({0x04, 0x05});
  EXPECT_EQ(e.kind, Kind::kMissingField);
  EXPECT_EQ(e.field_index, 1);
  EXPECT_EQ(e.offset, 2u);
  EXPECT_EQ(tband::describe(e), "event 'isr_enter' (0x04) field 'isr_id': frame ends before this field (at byte 2 of the frame)");
}

TEST(DecodeErrors, TruncatedVarlen) {
  // The timestamp's last byte still has its continuation bit set.
  const auto e = error_of({0x04, 0x85, 0x81});
  EXPECT_EQ(e.kind, Kind::kTruncatedField);
  EXPECT_EQ(e.field_index, 0);
  EXPECT_EQ(e.offset, 1u);
}

TEST(DecodeErrors, VarlenLongerThanU32Allows) {
  // isr_id with six bytes: five continuation bytes.
  const auto e = error_of({0x04, 0x01, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00});
  EXPECT_EQ(e.kind, Kind::kVarlenTooLong);
  EXPECT_EQ(e.field_index, 1);
  EXPECT_EQ(e.value, 5u);
}

TEST(DecodeErrors, VarlenOverflowingU32) {
  // Fifth byte 0x10 would set bit 32.
  const auto e = error_of({0x04, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x10});
  EXPECT_EQ(e.kind, Kind::kVarlenOverflow);
  EXPECT_EQ(e.field_index, 1);
  // 0x0F in the fifth byte is UINT32_MAX and fine.
  const tband::DecodeResult ok = tband::decode_event(Bytes{0x04, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(std::get<tband::IsrEnter>(ok.value()).isr_id, UINT32_MAX);
}

TEST(DecodeErrors, VarlenOverflowingU64) {
  Bytes frame = {0x02};
  frame.insert(frame.end(), 9, 0xFF);
  frame.push_back(0x02);  // tenth byte may only hold bit 63
  EXPECT_EQ(error_of(frame).kind, Kind::kVarlenOverflow);
  frame.back() = 0x01;
  const tband::DecodeResult ok = tband::decode_event(frame);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(std::get<tband::TsResolutionNs>(ok.value()).ns_per_ts, UINT64_MAX);
}

TEST(DecodeErrors, TrailingBytes) {
  const auto e = error_of({0x05, 0x01, 0x02, 0x03, 0x04});
  EXPECT_EQ(e.kind, Kind::kTrailingBytes);
  EXPECT_EQ(e.value, 2u);
  EXPECT_EQ(e.offset, 3u);
}

TEST(DecodeErrors, InvalidEnumValue) {
  // queue_kind with kind 6: FrQueueKind stops at 5.
  const auto e = error_of({0x65, 0x01, 0x06});
  EXPECT_EQ(e.kind, Kind::kInvalidEnumValue);
  EXPECT_EQ(e.value, 6u);
  EXPECT_EQ(tband::describe(e), "event 'queue_kind' (0x65) field 'kind': value 6 is not in the enum (at byte 2 of the frame)");
}

TEST(DecodeErrors, StreamResumesAfterEveryBadFrame) {
  // good, bad COBS, unknown id, truncated field, good, unterminated.
  const Bytes stream = {0x04, 0x04, 0x01, 0x02, 0x00,  // isr_enter ts=1 id=2
                        0x05, 0x01, 0x00,              // bad COBS
                        0x03, 0xC8, 0x01, 0x00,        // id 0xC8
                        0x03, 0x04, 0x85, 0x00,        // isr_enter, truncated ts
                        0x04, 0x05, 0x03, 0x04, 0x00,  // isr_exit ts=3 id=4
                        0x03, 0x04};                   // no delimiter
  std::vector<std::string> seen;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& r, const tband::FrameLocation& at) {
    seen.push_back(std::to_string(at.offset) + ":" +
                   (r.ok() ? std::string{tband::event_info(r.value()).name} : std::string{to_string(r.error().kind)}));
  };
  for (const std::uint8_t byte : stream) {
    decoder.feed({&byte, 1}, sink);
  }
  decoder.finish(sink);
  EXPECT_EQ(seen, (std::vector<std::string>{"0:isr_enter", "5:bad COBS", "8:unknown event id", "12:truncated field",
                                            "16:isr_exit", "21:truncated frame"}));
}

}  // namespace
