// Golden vectors written by hand from the format description (COBS framing,
// varlen, sign-magnitude s64, event layout), independent of the generator.
// The generated encoder must produce them byte for byte, and the host side
// must turn them back into the same values.
#include <array>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "decode/cobs_deframer.hpp"
#include "tband_encode.hpp"
#include "tband_events.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes cobs(const Bytes& raw) {
  Bytes out(tband::enc::cobs_max_framed_len(raw.size()));
  out.resize(tband::enc::cobs_frame(raw.data(), raw.size(), out.data()));
  return out;
}

Bytes deframe_one(const Bytes& framed) {
  Bytes content;
  int frames = 0;
  tband::CobsDeframer deframer;
  deframer.feed(framed, [&](const tband::RawFrame& frame) {
    ++frames;
    EXPECT_EQ(frame.error, nullptr);
    content.assign(frame.data.begin(), frame.data.end());
  });
  EXPECT_EQ(frames, 1);
  return content;
}

Bytes range(std::uint8_t first, std::uint8_t last) {
  Bytes out;
  for (unsigned b = first; b <= last; ++b) {
    out.push_back(static_cast<std::uint8_t>(b));
  }
  return out;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& part : parts) {
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

// ---- COBS -------------------------------------------------------------------

struct CobsCase {
  const char* name;
  Bytes raw;
  Bytes framed;
};

std::vector<CobsCase> cobs_cases() {
  return {
      // The seed's first example.
      {"seed_example", {0x01, 0x02, 0x00, 0x04, 0x00, 0x05}, {0x03, 0x01, 0x02, 0x02, 0x04, 0x02, 0x05, 0x00}},
      // The seed's second example: 0x00, then 0x01..0xFF; the 254-byte run
      // 0x01..0xFE gets code 0xFF and 0xFF starts a new block.
      {"seed_run_of_254", concat({{0x00}, range(0x01, 0xFF)}),
       concat({{0x01, 0xFF}, range(0x01, 0xFE), {0x02, 0xFF, 0x00}})},
      {"single_zero", {0x00}, {0x01, 0x01, 0x00}},
      {"two_zeros", {0x00, 0x00}, {0x01, 0x01, 0x01, 0x00}},
      {"ends_in_zeros", {0x11, 0x00, 0x00, 0x00}, {0x02, 0x11, 0x01, 0x01, 0x01, 0x00}},
      // Exactly 254 non-zero bytes: one full block, no extra code byte.
      {"exactly_254", range(0x01, 0xFE), concat({{0xFF}, range(0x01, 0xFE), {0x00}})},
      // 255 non-zero bytes: a full block, then a block of one.
      {"run_of_255", range(0x01, 0xFF), concat({{0xFF}, range(0x01, 0xFE), {0x02, 0xFF, 0x00}})},
      // A full block followed by a zero.
      {"full_block_then_zero", concat({range(0x01, 0xFE), {0x00}}),
       concat({{0xFF}, range(0x01, 0xFE), {0x01, 0x01, 0x00}})},
  };
}

TEST(GoldenCobs, EncoderMatches) {
  for (const CobsCase& c : cobs_cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(cobs(c.raw), c.framed);
    EXPECT_LE(c.framed.size(), tband::enc::cobs_max_framed_len(c.raw.size()));
  }
}

TEST(GoldenCobs, DeframerRestoresRawBytes) {
  for (const CobsCase& c : cobs_cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(deframe_one(c.framed), c.raw);
  }
}

TEST(GoldenCobs, WorstCaseLengthFormula) {
  // N + 1 + ceil(N / 254), delimiter included.
  EXPECT_EQ(tband::enc::cobs_max_framed_len(1), 3u);
  EXPECT_EQ(tband::enc::cobs_max_framed_len(16), 18u);
  EXPECT_EQ(tband::enc::cobs_max_framed_len(254), 256u);
  EXPECT_EQ(tband::enc::cobs_max_framed_len(255), 258u);
  EXPECT_EQ(tband::enc::cobs_max_framed_len(508), 511u);
}

// ---- Varlen and s64, seen through single-field events -------------------------

// ts_resolution_ns carries one u64 and no timestamp: id 0x02, then the varlen.
Bytes ts_resolution_frame(std::uint64_t ns) {
  Bytes out(tband::enc::TsResolutionNs::kMaxFramedLen);
  out.resize(tband::enc::encode_ts_resolution_ns(out.data(), ns));
  return out;
}

// valmarker with ts 1 and id 1: 0x0B 0x01 0x01, then the s64 varlen.
Bytes valmarker_frame(std::int64_t value) {
  Bytes out(tband::enc::Valmarker::kMaxFramedLen);
  out.resize(tband::enc::encode_valmarker(out.data(), 1, 1, value));
  return out;
}

TEST(GoldenVarlen, UnsignedValues) {
  // 0x05 fits in one byte: 05. Content 02 05, framed 03 02 05 00.
  EXPECT_EQ(ts_resolution_frame(0x05), (Bytes{0x03, 0x02, 0x05, 0x00}));
  // 0xFF needs two bytes: FF 01.
  EXPECT_EQ(ts_resolution_frame(0xFF), (Bytes{0x04, 0x02, 0xFF, 0x01, 0x00}));
  // 127 is the last one-byte value, 128 the first two-byte one: 80 01.
  EXPECT_EQ(ts_resolution_frame(127), (Bytes{0x03, 0x02, 0x7F, 0x00}));
  EXPECT_EQ(ts_resolution_frame(128), (Bytes{0x04, 0x02, 0x80, 0x01, 0x00}));
  // 0 is a single zero byte, which COBS turns into a code byte.
  EXPECT_EQ(ts_resolution_frame(0), (Bytes{0x02, 0x02, 0x01, 0x00}));
  // UINT64_MAX: nine FF then 01.
  EXPECT_EQ(ts_resolution_frame(UINT64_MAX),
            (Bytes{0x0C, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00}));
}

TEST(GoldenVarlen, SignMagnitudeValues) {
  // -1: magnitude 1, sign 1 -> (1 << 1) | 1 = 3.
  EXPECT_EQ(valmarker_frame(-1), (Bytes{0x05, 0x0B, 0x01, 0x01, 0x03, 0x00}));
  // +1 -> 2, -2 -> 5.
  EXPECT_EQ(valmarker_frame(1), (Bytes{0x05, 0x0B, 0x01, 0x01, 0x02, 0x00}));
  EXPECT_EQ(valmarker_frame(-2), (Bytes{0x05, 0x0B, 0x01, 0x01, 0x05, 0x00}));
  // -64 -> 129 -> 81 01; +64 -> 128 -> 80 01.
  EXPECT_EQ(valmarker_frame(-64), (Bytes{0x06, 0x0B, 0x01, 0x01, 0x81, 0x01, 0x00}));
  EXPECT_EQ(valmarker_frame(64), (Bytes{0x06, 0x0B, 0x01, 0x01, 0x80, 0x01, 0x00}));
  // 0 -> a zero byte.
  EXPECT_EQ(valmarker_frame(0), (Bytes{0x04, 0x0B, 0x01, 0x01, 0x01, 0x00}));
  // INT64_MIN is "negative zero": 01.
  EXPECT_EQ(valmarker_frame(INT64_MIN), (Bytes{0x05, 0x0B, 0x01, 0x01, 0x01, 0x00}));
  // INT64_MAX -> 2^64 - 2 -> FE, eight FF, 01.
  EXPECT_EQ(valmarker_frame(INT64_MAX), (Bytes{0x0E, 0x0B, 0x01, 0x01, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                               0xFF, 0xFF, 0x01, 0x00}));
}

// ---- One complete event per field type ------------------------------------------

struct EventCase {
  const char* name;
  Bytes framed;
  tband::Event decoded;
};

TEST(GoldenEvents, EveryFieldType) {
  std::array<std::uint8_t, tband::enc::kMaxFramedLen> buf{};
  const auto encoded = [&](std::size_t len) { return Bytes(buf.begin(), buf.begin() + static_cast<long>(len)); };

  const std::vector<EventCase> cases = [&] {
    std::vector<EventCase> out;
    // u32 (and the u64 ts): isr_enter ts=0x1234 (B4 24) isr_id=7; raw 04 B4 24 07.
    out.push_back({"u32", encoded(tband::enc::encode_isr_enter(buf.data(), 0x1234, 7)),
                   tband::IsrEnter{.ts = 0x1234, .isr_id = 7}});
    // u64: ts_resolution_ns 1000 (E8 07); raw 02 E8 07.
    out.push_back({"u64", encoded(tband::enc::encode_ts_resolution_ns(buf.data(), 1000)),
                   tband::TsResolutionNs{.ns_per_ts = 1000}});
    // s64: valmarker ts=0 id=2 val=-500 (1001 -> E9 07); raw 0B 00 02 E9 07.
    out.push_back({"s64", encoded(tband::enc::encode_valmarker(buf.data(), 0, 2, -500)),
                   tband::Valmarker{.ts = 0, .valmarker_id = 2, .val = -500}});
    // str: evtmarker_name id=1 "acq"; raw 06 01 61 63 71.
    out.push_back({"str", encoded(tband::enc::encode_evtmarker_name(buf.data(), 1, "acq")),
                   tband::EvtmarkerName{.evtmarker_id = 1, .name = "acq"}});
    // u8 enum: queue_kind queue 3 is a mutex (3); raw 65 03 03.
    out.push_back({"u8_enum", encoded(tband::enc::encode_queue_kind(buf.data(), 3, tband::enc::FrQueueKind::FRQK_MUTEX)),
                   tband::QueueKind{.queue_id = 3, .kind = tband::FrQueueKind::FRQK_MUTEX}});
    // u8 enum value 0 becomes a COBS code: raw 65 03 00.
    out.push_back({"u8_enum_zero", encoded(tband::enc::encode_queue_kind(buf.data(), 3, tband::enc::FrQueueKind::FRQK_QUEUE)),
                   tband::QueueKind{.queue_id = 3, .kind = tband::FrQueueKind::FRQK_QUEUE}});
    // Event id 0x00 and all-zero fields: core_id ts=0 core_id=0; raw 00 00 00.
    out.push_back({"all_zero", encoded(tband::enc::encode_core_id(buf.data(), 0, 0)),
                   tband::CoreId{.ts = 0, .core_id = 0}});
    // str with an empty message: evtmarker ts=5 id=9 ""; raw 07 05 09.
    out.push_back({"empty_str", encoded(tband::enc::encode_evtmarker(buf.data(), 5, 9, "")),
                   tband::Evtmarker{.ts = 5, .evtmarker_id = 9, .msg = ""}});
    return out;
  }();
  const std::vector<Bytes> expected = {
      {0x05, 0x04, 0xB4, 0x24, 0x07, 0x00},
      {0x04, 0x02, 0xE8, 0x07, 0x00},
      {0x02, 0x0B, 0x04, 0x02, 0xE9, 0x07, 0x00},
      {0x06, 0x06, 0x01, 0x61, 0x63, 0x71, 0x00},
      {0x04, 0x65, 0x03, 0x03, 0x00},
      {0x03, 0x65, 0x03, 0x01, 0x00},
      {0x01, 0x01, 0x01, 0x01, 0x00},
      {0x04, 0x07, 0x05, 0x09, 0x00},
  };
  ASSERT_EQ(cases.size(), expected.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name);
    EXPECT_EQ(cases[i].framed, expected[i]);
    const Bytes content = deframe_one(expected[i]);
    const tband::DecodeResult result = tband::decode_event(content);
    ASSERT_TRUE(result.ok()) << tband::describe(result.error());
    EXPECT_EQ(result.value(), cases[i].decoded);
  }
}

TEST(GoldenEvents, LongStringsAreCutToTheConfiguredMaximum) {
  std::array<std::uint8_t, tband::enc::kMaxFramedLen> buf{};
  const std::string long_name(tband::enc::kMaxStrLen + 10, 'n');
  const std::size_t len = tband::enc::encode_isr_name(buf.data(), 1, long_name.c_str());
  // id + isr_id + kMaxStrLen name bytes, no zeros: one code byte and the delimiter.
  EXPECT_EQ(len, 2 + tband::enc::kMaxStrLen + 2);
  const Bytes content = deframe_one(Bytes(buf.begin(), buf.begin() + static_cast<long>(len)));
  const tband::DecodeResult result = tband::decode_event(content);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(std::get<tband::IsrName>(result.value()).name, std::string(tband::enc::kMaxStrLen, 'n'));
}

}  // namespace
