// The incremental COBS deframer: frames straddling chunks of any size, and
// every kind of broken framing reported with its place and then skipped.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "decode/cobs_deframer.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Seen {
  Bytes data;
  tband::FrameLocation location;
  bool error = false;
  tband::DecodeErrorKind kind{};
};

std::vector<Seen> deframe(const Bytes& stream, std::size_t chunk, std::size_t max_frame_len = 64) {
  std::vector<Seen> seen;
  tband::CobsDeframer deframer{max_frame_len};
  const auto sink = [&](const tband::RawFrame& frame) {
    Seen s{Bytes(frame.data.begin(), frame.data.end()), frame.location, frame.error != nullptr, {}};
    if (frame.error != nullptr) {
      s.kind = frame.error->kind;
    }
    seen.push_back(s);
  };
  for (std::size_t at = 0; at < stream.size(); at += chunk) {
    deframer.feed({stream.data() + at, std::min(chunk, stream.size() - at)}, sink);
  }
  deframer.finish(sink);
  return seen;
}

TEST(CobsDeframer, FramesStraddlingChunksOfEverySize) {
  // Three frames: content {01 02 00 04 00 05}, {11}, and 300 bytes of 0x22 (two blocks).
  Bytes stream = {0x03, 0x01, 0x02, 0x02, 0x04, 0x02, 0x05, 0x00, 0x02, 0x11, 0x00, 0xFF};
  stream.insert(stream.end(), 254, 0x22);
  stream.push_back(47);
  stream.insert(stream.end(), 46, 0x22);
  stream.push_back(0x00);
  for (std::size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    SCOPED_TRACE(chunk);
    const auto seen = deframe(stream, chunk, 1024);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].data, (Bytes{0x01, 0x02, 0x00, 0x04, 0x00, 0x05}));
    EXPECT_EQ(seen[1].data, (Bytes{0x11}));
    EXPECT_EQ(seen[2].data, Bytes(300, 0x22));
    EXPECT_EQ(seen[0].location.offset, 0u);
    EXPECT_EQ(seen[0].location.length, 8u);
    EXPECT_EQ(seen[1].location.offset, 8u);
    EXPECT_EQ(seen[1].location.length, 3u);
    EXPECT_EQ(seen[2].location.offset, 11u);
    EXPECT_EQ(seen[2].location.index, 2u);
    for (const Seen& s : seen) {
      EXPECT_FALSE(s.error);
    }
  }
}

TEST(CobsDeframer, BlockCutShortIsBadCobsAndTheNextFrameStillDecodes) {
  // Code 05 promises four bytes but the delimiter comes after two.
  const Bytes stream = {0x05, 0x01, 0x02, 0x00, 0x02, 0x11, 0x00};
  const auto seen = deframe(stream, 2);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[0].error);
  EXPECT_EQ(seen[0].kind, tband::DecodeErrorKind::kBadCobs);
  EXPECT_EQ(seen[0].location.offset, 0u);
  EXPECT_EQ(seen[0].location.length, 4u);
  EXPECT_FALSE(seen[1].error);
  EXPECT_EQ(seen[1].data, (Bytes{0x11}));
  EXPECT_EQ(seen[1].location.offset, 4u);
}

TEST(CobsDeframer, EmptyFramesAreReported) {
  // A lone delimiter, then "01 00" (a frame whose content is empty), then a good frame.
  const Bytes stream = {0x00, 0x01, 0x00, 0x02, 0x33, 0x00};
  const auto seen = deframe(stream, 1);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].kind, tband::DecodeErrorKind::kEmptyFrame);
  EXPECT_EQ(seen[0].location.length, 1u);
  EXPECT_EQ(seen[1].kind, tband::DecodeErrorKind::kEmptyFrame);
  EXPECT_EQ(seen[1].location.offset, 1u);
  EXPECT_FALSE(seen[2].error);
  EXPECT_EQ(seen[2].data, (Bytes{0x33}));
}

TEST(CobsDeframer, UnterminatedLastFrameIsTruncated) {
  const Bytes stream = {0x02, 0x11, 0x00, 0x04, 0x01, 0x02};
  const auto seen = deframe(stream, 4);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_FALSE(seen[0].error);
  EXPECT_TRUE(seen[1].error);
  EXPECT_EQ(seen[1].kind, tband::DecodeErrorKind::kTruncatedFrame);
  EXPECT_EQ(seen[1].location.offset, 3u);
  EXPECT_EQ(seen[1].location.length, 3u);
}

TEST(CobsDeframer, OverlongFrameIsSkippedWithBoundedMemory) {
  Bytes stream(1000, 0x7F);  // no delimiter for 1000 bytes
  stream.push_back(0x00);
  stream.insert(stream.end(), {0x02, 0x44, 0x00});
  const auto seen = deframe(stream, 100, 64);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].kind, tband::DecodeErrorKind::kFrameTooLong);
  EXPECT_EQ(seen[0].location.length, 1001u);
  EXPECT_EQ(seen[1].data, (Bytes{0x44}));
  EXPECT_EQ(seen[1].location.offset, 1001u);
}

TEST(CobsDeframer, EveryInputByteBelongsToExactlyOneFrame) {
  const Bytes stream = {0x00, 0x05, 0x01, 0x00, 0x02, 0x11, 0x00, 0x01, 0x00, 0x03, 0x01};
  const auto seen = deframe(stream, 3);
  std::uint64_t next = 0;
  for (const Seen& s : seen) {
    EXPECT_EQ(s.location.offset, next);
    next += s.location.length;
  }
  EXPECT_EQ(next, stream.size());
}

}  // namespace
