// Values and checks for the generated round-trip tests: boundary values per
// field type, a seeded generator, and the encode -> deframe -> decode check.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "decode/cobs_deframer.hpp"
#include "decode/event_format.hpp"
#include "tband_encode.hpp"
#include "tband_events.hpp"

namespace tband::test {

inline constexpr std::size_t kBoundaryRounds = 12;  // >= the longest boundary list below
inline constexpr std::size_t kRandomRounds = 400;
inline constexpr std::size_t kRounds = kBoundaryRounds + kRandomRounds;

/// The run's seed: TBAND_TEST_SEED if set, else a fixed default. Printed once.
inline std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    const char* env = std::getenv("TBAND_TEST_SEED");
    const std::uint64_t value = env != nullptr ? std::strtoull(env, nullptr, 0) : 0x7BA4D5EEDull;
    std::printf("round-trip seed: %llu (set TBAND_TEST_SEED to replay)\n", static_cast<unsigned long long>(value));
    return value;
  }();
  return seed;
}

class Rng {
 public:
  explicit Rng(std::uint64_t stream) : engine_(run_seed() ^ (stream * 0x9E3779B97F4A7C15ull)) {}

  template <class T>
  T next() {
    return static_cast<T>(engine_());
  }
  /// Mostly small values, as real traces have, but the whole range too.
  template <class T>
  T next_varied() {
    const auto width = std::uniform_int_distribution<int>(1, 64)(engine_);
    const std::uint64_t raw = engine_() >> (64 - width);
    if constexpr (std::is_same_v<T, bool>) {
      return (raw & 1u) != 0;
    } else if constexpr (std::is_same_v<T, float>) {
      return std::bit_cast<float>(static_cast<std::uint32_t>(engine_()));  // any bits: NaNs, infinities, subnormals
    } else if constexpr (std::is_same_v<T, double>) {
      return std::bit_cast<double>(engine_());
    } else {
      return static_cast<T>(raw);
    }
  }
  std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(engine_); }

 private:
  std::mt19937_64 engine_;
};

template <class T>
T boundary(std::size_t i);

template <>
inline std::uint8_t boundary<std::uint8_t>(std::size_t i) {
  constexpr std::array<std::uint8_t, 6> kValues{0, 1, 127, 128, 254, 255};
  return kValues[i % kValues.size()];
}
template <>
inline std::uint32_t boundary<std::uint32_t>(std::size_t i) {
  constexpr std::array<std::uint32_t, 9> kValues{0, 1, 127, 128, 16383, 16384, 0x7FFFFFFFu, 0x80000000u, UINT32_MAX};
  return kValues[i % kValues.size()];
}
template <>
inline std::uint64_t boundary<std::uint64_t>(std::size_t i) {
  constexpr std::array<std::uint64_t, 9> kValues{0, 1, 127, 128, UINT32_MAX, 1ull << 32, 1ull << 56,
                                                 1ull << 63, UINT64_MAX};
  return kValues[i % kValues.size()];
}
template <>
inline std::int64_t boundary<std::int64_t>(std::size_t i) {
  constexpr std::array<std::int64_t, 12> kValues{0, 1, -1, 63, -64, 64, -65, 127, 128, INT64_MAX, INT64_MIN,
                                                 INT64_MIN + 1};
  return kValues[i % kValues.size()];
}

template <>
inline std::uint16_t boundary<std::uint16_t>(std::size_t i) {
  constexpr std::array<std::uint16_t, 7> kValues{0, 1, 127, 128, 16383, 16384, UINT16_MAX};
  return kValues[i % kValues.size()];
}
template <>
inline std::int8_t boundary<std::int8_t>(std::size_t i) {
  constexpr std::array<std::int8_t, 6> kValues{0, 1, -1, 127, -128, -127};
  return kValues[i % kValues.size()];
}
template <>
inline std::int16_t boundary<std::int16_t>(std::size_t i) {
  constexpr std::array<std::int16_t, 9> kValues{0, 1, -1, 63, -64, 64, INT16_MAX, INT16_MIN, INT16_MIN + 1};
  return kValues[i % kValues.size()];
}
template <>
inline std::int32_t boundary<std::int32_t>(std::size_t i) {
  constexpr std::array<std::int32_t, 9> kValues{0, 1, -1, 63, -64, 8191, INT32_MAX, INT32_MIN, INT32_MIN + 1};
  return kValues[i % kValues.size()];
}
template <>
inline bool boundary<bool>(std::size_t i) {
  return i % 2 == 1;
}
template <>
inline float boundary<float>(std::size_t i) {
  using L = std::numeric_limits<float>;
  const std::array<float, 12> values{0.0f,          -0.0f,          1.5f,        -1.0f,
                                     L::max(),      L::lowest(),    L::min(),    L::denorm_min(),
                                     L::infinity(), -L::infinity(), L::quiet_NaN(), std::bit_cast<float>(0xFFC00001u)};
  return values[i % values.size()];
}
template <>
inline double boundary<double>(std::size_t i) {
  using L = std::numeric_limits<double>;
  const std::array<double, 12> values{0.0,           -0.0,           1.5,         -1.0,
                                      L::max(),      L::lowest(),    L::min(),    L::denorm_min(),
                                      L::infinity(), -L::infinity(), L::quiet_NaN(), std::bit_cast<double>(0xFFF8000000000001ull)};
  return values[i % values.size()];
}

/// Boundary strings: empty, one byte, maximum length, and bytes 0x00 and 0xFF.
inline std::string boundary_string(std::size_t i) {
  constexpr std::size_t kMax = tband::enc::kMaxStrLen;
  switch (i % 7) {
    case 0: return "";
    case 1: return "a";
    case 2: return std::string(kMax, 'x');
    case 3: return std::string(1, '\0');
    case 4: return std::string(kMax, '\xFF');
    case 5: return std::string(kMax, '\0');
    default: {
      const std::string mixed("a\0b\xFF\0\xFF", 6);
      return mixed.substr(0, kMax);
    }
  }
}

/// Round `round`'s value for the field at `field_index`: boundary values first
/// (offset per field, so fields of one event take different ones), then random.
template <class T>
T sample(std::size_t round, std::size_t field_index, Rng& rng) {
  if (round < kBoundaryRounds) {
    return boundary<T>(round + field_index);
  }
  return rng.next_varied<T>();
}

template <class Enum>
Enum sample_enum(std::size_t round, std::size_t field_index, Rng& rng, const tband::EnumInfo& info) {
  const std::size_t n = info.values.size();
  const std::size_t pick = round < kBoundaryRounds ? (round + field_index) % n : rng.below(n);
  return static_cast<Enum>(info.values[pick].value);
}

inline std::string sample_string(std::size_t round, std::size_t field_index, Rng& rng) {
  if (round < kBoundaryRounds) {
    return boundary_string(round + field_index);
  }
  std::string s(rng.below(tband::enc::kMaxStrLen + 1), '\0');
  for (char& c : s) {
    c = static_cast<char>(rng.next<std::uint8_t>());
  }
  return s;
}

/// Deframes `bytes` fed in chunks of `chunk` bytes; returns the frames' contents.
inline std::vector<std::vector<std::uint8_t>> deframe_in_chunks(const std::uint8_t* bytes, std::size_t len,
                                                                 std::size_t chunk) {
  std::vector<std::vector<std::uint8_t>> frames;
  tband::CobsDeframer deframer;
  const auto sink = [&](const tband::RawFrame& frame) {
    EXPECT_EQ(frame.error, nullptr) << tband::describe(*frame.error);
    frames.emplace_back(frame.data.begin(), frame.data.end());
  };
  for (std::size_t at = 0; at < len; at += chunk) {
    deframer.feed({bytes + at, std::min(chunk, len - at)}, sink);
  }
  deframer.finish(sink);
  return frames;
}

/// The frame is well formed, and deframes and decodes to `expected` whether it
/// arrives whole or one byte at a time.
inline void expect_round_trip(const std::uint8_t* frame, std::size_t len, std::size_t capacity,
                              const tband::Event& expected) {
  ASSERT_GE(len, 2u);
  ASSERT_LE(len, capacity);
  EXPECT_EQ(frame[len - 1], 0) << "frame must end with the delimiter";
  for (std::size_t i = 0; i + 1 < len; ++i) {
    ASSERT_NE(frame[i], 0) << "0x00 inside the frame at byte " << i;
  }
  for (const std::size_t chunk : {len, std::size_t{1}, std::size_t{3}}) {
    const auto frames = deframe_in_chunks(frame, len, chunk);
    ASSERT_EQ(frames.size(), 1u) << "chunk size " << chunk;
    const tband::DecodeResult decoded = tband::decode_event(frames[0]);
    ASSERT_TRUE(decoded.ok()) << tband::describe(decoded.error());
    EXPECT_EQ(decoded.value(), expected)
        << "decoded:  " << tband::format_event(decoded.value()) << "\nexpected: " << tband::format_event(expected);
  }
}

}  // namespace tband::test
