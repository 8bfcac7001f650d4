// Decodes the same frames with the generated decoder and with the run-time
// decoder driven by the schema's descriptor, and checks that they agree on
// every field value and every error. Frames come from the reflection tables
// (random values of every field's type, optional fields left out, then cut,
// corrupted or extended), and from whole files such as the fuzz corpus.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "decode/cobs_deframer.hpp"
#include "decode/event_fields.hpp"
#include "schema/runtime_decoder.hpp"
#include "tband_events.hpp"

namespace tband::test {

using Frame = std::vector<std::uint8_t>;

inline void put_varlen(Frame& out, std::uint64_t value) {
  do {
    const auto low = static_cast<std::uint8_t>(value & 0x7Fu);
    value >>= 7;
    out.push_back(static_cast<std::uint8_t>(low | (value != 0 ? 0x80u : 0u)));
  } while (value != 0);
}

/// A valid frame (id first, no COBS) for `info` with random field values.
inline Frame random_frame(const EventInfo& info, std::mt19937_64& rng) {
  Frame out{info.id};
  const auto pick = [&](unsigned bits) {
    // Values of every length up to the type's, so small ones come often.
    const auto width = static_cast<unsigned>(rng() % (bits + 1));
    return rng() & (width >= 64 ? ~0ull : (1ull << width) - 1);
  };
  const auto sign_magnitude = [&](unsigned bits) {
    const std::uint64_t magnitude = pick(bits - 1);
    const bool negative = rng() % 2 == 0 && magnitude != 0;
    return magnitude << 1 | (negative ? 1u : 0u);
  };
  bool leaving_out = false;
  for (const FieldInfo& f : info.fields) {
    if (f.optional && (leaving_out || rng() % 3 == 0)) {
      leaving_out = true;  // optional fields can only be dropped from the end
      continue;
    }
    switch (f.type) {
      case FieldType::kU8:
      case FieldType::kS8: out.push_back(static_cast<std::uint8_t>(rng())); break;
      case FieldType::kBool: out.push_back(static_cast<std::uint8_t>(rng() % 2)); break;
      case FieldType::kU16: put_varlen(out, pick(16)); break;
      case FieldType::kU32: put_varlen(out, pick(32)); break;
      case FieldType::kU64: put_varlen(out, pick(64)); break;
      case FieldType::kS16: put_varlen(out, sign_magnitude(16)); break;
      case FieldType::kS32: put_varlen(out, sign_magnitude(32)); break;
      case FieldType::kS64: put_varlen(out, rng() % 50 == 0 ? 1u : sign_magnitude(64)); break;  // 1: INT64_MIN
      case FieldType::kF32: put_varlen(out, static_cast<std::uint32_t>(rng())); break;
      case FieldType::kF64: put_varlen(out, rng()); break;
      case FieldType::kEnum: {
        const auto& values = f.enum_info->values;
        out.push_back(rng() % 10 == 0 ? static_cast<std::uint8_t>(rng()) : values[rng() % values.size()].value);
        break;
      }
      case FieldType::kStr: {
        const std::size_t n = rng() % 24;
        for (std::size_t i = 0; i < n; ++i) {
          out.push_back(static_cast<std::uint8_t>(rng()));
        }
        break;
      }
    }
  }
  return out;
}

/// Decodes `frame` both ways; a gtest failure names the frame when they differ.
inline void expect_same_decoding(const RuntimeSchema& schema, const Frame& frame) {
  const DecodeResult compiled = decode_event(frame);
  const RuntimeEvent* event = frame.empty() ? nullptr : schema.find(frame[0]);
  std::string bytes;
  for (const std::uint8_t b : frame) {
    bytes += std::to_string(b) + " ";
  }
  SCOPED_TRACE("frame: " + bytes);
  if (event == nullptr) {
    ASSERT_FALSE(compiled.ok());
    return;
  }
  DynamicEvent dynamic;
  DecodeError error{DecodeErrorKind::kEmptyFrame};
  const bool ok = decode_dynamic(*event, frame, dynamic, error);
  ASSERT_EQ(ok, compiled.ok()) << (ok ? "compiled: " + describe(compiled.error()) : "run-time: " + describe(error));
  if (!ok) {
    EXPECT_EQ(error, compiled.error()) << describe(error) << " vs " << describe(compiled.error());
    return;
  }
  EXPECT_EQ(dynamic.info().name, event_info(compiled.value()).name);
  std::size_t i = 0;
  visit_fields(compiled.value(), [&](const FieldValue& c) {
    ASSERT_LT(i, dynamic.fields.size());
    const FieldValue& d = dynamic.fields[i++];
    EXPECT_EQ(d.info->name, c.info->name);
    EXPECT_EQ(d.present, c.present) << c.info->name;
    EXPECT_EQ(d.u, c.u) << c.info->name;
    EXPECT_EQ(d.s, c.s) << c.info->name;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(d.f), std::bit_cast<std::uint64_t>(c.f)) << c.info->name;
    EXPECT_EQ(d.str, c.str) << c.info->name;
  });
  EXPECT_EQ(i, dynamic.fields.size());
}

/// Every event of the compiled schema, `rounds` random frames each, and for
/// each frame every shorter cut, a corrupted byte and an extra byte.
inline std::size_t check_every_event_both_ways(const RuntimeSchema& schema, int rounds) {
  std::mt19937_64 rng{20240611};
  std::size_t frames = 0;
  for (const EventInfo& info : all_event_infos()) {
    for (int round = 0; round < rounds; ++round) {
      const Frame frame = random_frame(info, rng);
      expect_same_decoding(schema, frame);
      for (std::size_t cut = 1; cut < frame.size(); ++cut) {
        expect_same_decoding(schema, Frame(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(cut)));
      }
      Frame corrupted = frame;
      if (corrupted.size() > 1) {
        corrupted[1 + rng() % (corrupted.size() - 1)] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        expect_same_decoding(schema, corrupted);
      }
      Frame longer = frame;
      longer.push_back(static_cast<std::uint8_t>(rng()));
      expect_same_decoding(schema, longer);
      frames += frame.size() + 2;
      if (::testing::Test::HasFailure()) {
        return frames;
      }
    }
  }
  return frames;
}

/// Every frame of every file in `folder`, decoded both ways.
inline std::size_t check_files_both_ways(const RuntimeSchema& schema, const std::string& folder) {
  std::size_t frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    std::ifstream file(entry.path(), std::ios::binary);
    const Frame bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    CobsDeframer deframer;
    const auto sink = [&](const RawFrame& raw) {
      if (raw.error == nullptr) {
        expect_same_decoding(schema, Frame(raw.data.begin(), raw.data.end()));
        ++frames;
      }
    };
    deframer.feed(bytes, sink);
    deframer.finish(sink);
  }
  return frames;
}

}  // namespace tband::test
