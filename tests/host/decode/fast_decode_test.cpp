// decode_event_fast(), the conversion's decoder, takes exactly the frames
// decode_event() takes, with the same values and timestamps: on random frames
// of every event (cut, corrupted, extended) and on the fuzz corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "both_ways.hpp"

namespace tband::test {
namespace {

void expect_fast_like_exact(const Frame& frame) {
  const DecodeResult exact = decode_event(frame);
  DecodeResult fast{DecodeError{DecodeErrorKind::kEmptyFrame}};
  std::uint64_t ts = 0xDEADBEEF;
  const bool ok = decode_event_fast(frame, fast, ts);
  std::string bytes;
  for (const std::uint8_t b : frame) {
    bytes += std::to_string(b) + " ";
  }
  ASSERT_EQ(ok, exact.ok()) << "frame: " << bytes << (exact.ok() ? "" : describe(exact.error()));
  if (!ok) {
    return;
  }
  EXPECT_TRUE(fast.value() == exact.value()) << "frame: " << bytes;
  if (const auto exact_ts = event_timestamp(exact.value())) {
    EXPECT_EQ(ts, *exact_ts) << "frame: " << bytes;
  }
}

TEST(FastDecoder, TakesWhatTheExactDecoderTakesOnEveryEvent) {
  std::mt19937_64 rng{20250101};
  std::size_t frames = 0;
  for (const EventInfo& info : all_event_infos()) {
    for (int round = 0; round < 80; ++round) {
      const Frame frame = random_frame(info, rng);
      expect_fast_like_exact(frame);
      for (std::size_t cut = 1; cut < frame.size(); ++cut) {
        expect_fast_like_exact(Frame(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(cut)));
      }
      Frame corrupted = frame;
      if (corrupted.size() > 1) {
        corrupted[1 + rng() % (corrupted.size() - 1)] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        expect_fast_like_exact(corrupted);
      }
      Frame longer = frame;
      longer.push_back(static_cast<std::uint8_t>(rng()));
      expect_fast_like_exact(longer);
      frames += frame.size() + 2;
      if (::testing::Test::HasFailure()) {
        return;
      }
    }
  }
  EXPECT_GT(frames, 10000u);
}

TEST(FastDecoder, VarlensOfEveryLengthAndTheirLimits) {
  // A u64 timestamp of every length, and values just inside and outside each
  // field type's range (s16, s32 and u16 among the FreeRTOS events).
  std::vector<std::uint64_t> values;
  for (unsigned bits = 0; bits <= 64; ++bits) {
    const std::uint64_t v = bits == 64 ? ~0ull : (1ull << bits);
    values.push_back(v);
    values.push_back(v - 1);
  }
  for (const EventInfo& info : all_event_infos()) {
    for (const std::uint64_t v : values) {
      Frame frame{info.id};
      for (const FieldInfo& f : info.fields) {
        if (f.type == FieldType::kStr) {
          frame.push_back('x');
        } else if (f.type == FieldType::kU8 || f.type == FieldType::kS8 || f.type == FieldType::kBool ||
                   f.type == FieldType::kEnum) {
          frame.push_back(static_cast<std::uint8_t>(v & 1u));
        } else {
          put_varlen(frame, v);
        }
      }
      expect_fast_like_exact(frame);
      if (::testing::Test::HasFailure()) {
        return;
      }
    }
  }
}

TEST(FastDecoder, TakesWhatTheExactDecoderTakesOnTheFuzzCorpus) {
  std::size_t frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TBAND_FUZZ_CORPUS)) {
    std::ifstream file(entry.path(), std::ios::binary);
    const Frame bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    CobsDeframer deframer;
    const auto sink = [&](const RawFrame& raw) {
      if (raw.error == nullptr) {
        expect_fast_like_exact(Frame(raw.data.begin(), raw.data.end()));
        ++frames;
      }
    };
    deframer.feed(bytes, sink);
    deframer.finish(sink);
    if (::testing::Test::HasFailure()) {
      return;
    }
  }
  EXPECT_GT(frames, 1000u);
}

}  // namespace
}  // namespace tband::test
