// The incremental COBS deframer: frames straddling chunks of any size, and
// every kind of broken framing reported with its place and then skipped.
#include <cstdint>
#include <random>
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
  std::uint64_t value = 0;  // the error's value: for empty frames, how many in a row
};

std::vector<Seen> deframe(const Bytes& stream, std::size_t chunk, std::size_t max_frame_len = 64) {
  std::vector<Seen> seen;
  tband::CobsDeframer deframer{max_frame_len};
  const auto sink = [&](const tband::RawFrame& frame) {
    Seen s{Bytes(frame.data.begin(), frame.data.end()), frame.location, frame.error != nullptr, {}};
    if (frame.error != nullptr) {
      s.kind = frame.error->kind;
      s.value = frame.error->value;
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

TEST(CobsDeframer, EmptyFramesInARowAreOneReport) {
  // A lone delimiter and "01 00" (a frame whose content is empty): one run of
  // two; then a good frame, then one more empty frame on its own.
  const Bytes stream = {0x00, 0x01, 0x00, 0x02, 0x33, 0x00, 0x00};
  const auto seen = deframe(stream, 1);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].kind, tband::DecodeErrorKind::kEmptyFrame);
  EXPECT_EQ(seen[0].value, 2u);
  EXPECT_EQ(seen[0].location.offset, 0u);
  EXPECT_EQ(seen[0].location.length, 3u);
  EXPECT_FALSE(seen[1].error);
  EXPECT_EQ(seen[1].data, (Bytes{0x33}));
  EXPECT_EQ(seen[1].location.index, 2u);  // the run's frames still count
  EXPECT_EQ(seen[2].kind, tband::DecodeErrorKind::kEmptyFrame);
  EXPECT_EQ(seen[2].value, 1u);
  EXPECT_EQ(seen[2].location.offset, 6u);
}

TEST(CobsDeframer, AZeroFilledRegionIsOneReportWhateverTheChunks) {
  // A good frame, a megabyte of zeros (a RAM dump, an erased page), a good frame.
  Bytes stream = {0x02, 0x11, 0x00};
  stream.insert(stream.end(), 1 << 20, 0x00);
  stream.insert(stream.end(), {0x02, 0x22, 0x00});
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{4096}, stream.size()}) {
    SCOPED_TRACE(chunk);
    const auto seen = deframe(stream, chunk);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1].kind, tband::DecodeErrorKind::kEmptyFrame);
    EXPECT_EQ(seen[1].value, 1u << 20);
    EXPECT_EQ(seen[1].location.offset, 3u);
    EXPECT_EQ(seen[1].location.length, 1u << 20);
    EXPECT_EQ(seen[2].data, (Bytes{0x22}));
    EXPECT_EQ(seen[2].location.offset, 3u + (1u << 20));
  }
}

TEST(CobsDeframer, ZerosAtTheEndAreReportedAtFinish) {
  const Bytes stream = {0x02, 0x11, 0x00, 0x00, 0x00, 0x00};
  const auto seen = deframe(stream, 2);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].kind, tband::DecodeErrorKind::kEmptyFrame);
  EXPECT_EQ(seen[1].value, 3u);
  EXPECT_EQ(seen[1].location.length, 3u);
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

// COBS with the delimiter.
Bytes cobs(const Bytes& content) {
  Bytes out{0};
  std::size_t code_at = 0;
  std::uint8_t code = 1;
  for (const std::uint8_t b : content) {
    if (b != 0) {
      out.push_back(b);
      ++code;
    }
    if (b == 0 || code == 0xFF) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
    }
  }
  out[code_at] = code;
  out.push_back(0);
  return out;
}

bool same(const std::vector<Seen>& a, const std::vector<Seen>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].data != b[i].data || a[i].error != b[i].error || a[i].kind != b[i].kind ||
        a[i].location.offset != b[i].location.offset || a[i].location.length != b[i].location.length ||
        a[i].location.index != b[i].location.index || a[i].value != b[i].value) {
      return false;
    }
  }
  return true;
}

// Chunks of one byte never see a whole frame, so they take the general,
// byte-by-byte path only; bigger chunks hand out one-block frames straight
// from the chunk. Both must give the same frames, errors and places, on
// streams of short and long frames, empty frames, 0xFF blocks, frames over
// the limit and garbage.
TEST(CobsDeframer, TheOneBlockFastPathMatchesTheGeneralPath) {
  std::mt19937_64 rng{7};
  for (int round = 0; round < 300; ++round) {
    Bytes stream;
    const int pieces = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < pieces; ++i) {
      switch (rng() % 8) {
        case 0:
        case 1:
        case 2: {  // a well-formed one-block frame, the common case
          const std::size_t n = 1 + rng() % 20;
          stream.push_back(static_cast<std::uint8_t>(n + 1));
          for (std::size_t k = 0; k < n; ++k) {
            stream.push_back(static_cast<std::uint8_t>(1 + rng() % 255));
          }
          stream.push_back(0);
          break;
        }
        case 3: {  // content with zeros, or longer than a block: several blocks
          Bytes content(1 + rng() % 600);
          for (auto& b : content) {
            b = rng() % 4 == 0 ? 0 : static_cast<std::uint8_t>(rng());
          }
          const Bytes framed = cobs(content);
          stream.insert(stream.end(), framed.begin(), framed.end());
          break;
        }
        case 4:  // an empty frame, or a lone "01"
          if (rng() % 2 == 0) {
            stream.push_back(0x01);
          }
          stream.push_back(0);
          break;
        case 5: {  // a code byte promising more than there is, or 0xFF
          stream.push_back(rng() % 2 == 0 ? 0xFF : static_cast<std::uint8_t>(10 + rng() % 20));
          const std::size_t n = rng() % 6;
          for (std::size_t k = 0; k < n; ++k) {
            stream.push_back(static_cast<std::uint8_t>(1 + rng() % 255));
          }
          stream.push_back(0);
          break;
        }
        case 6: {  // garbage
          const std::size_t n = rng() % 30;
          for (std::size_t k = 0; k < n; ++k) {
            stream.push_back(static_cast<std::uint8_t>(rng()));
          }
          break;
        }
        default: {  // a frame over a small limit
          const std::size_t n = 40 + rng() % 40;
          stream.push_back(static_cast<std::uint8_t>(n + 1));
          for (std::size_t k = 0; k < n; ++k) {
            stream.push_back(0x33);
          }
          stream.push_back(0);
          break;
        }
      }
    }
    for (const std::size_t max_frame_len : {std::size_t{48}, std::size_t{64 * 1024}}) {
      const auto reference = deframe(stream, 1, max_frame_len);
      for (const std::size_t chunk : {std::size_t{2}, std::size_t{7}, std::size_t{16}, std::size_t{17},
                                      std::size_t{100}, stream.size() + 1}) {
        ASSERT_TRUE(same(deframe(stream, chunk, max_frame_len), reference))
            << "round " << round << ", chunk " << chunk << ", limit " << max_frame_len;
      }
    }
  }
}

}  // namespace
