// Golden vectors for the field types user groups add (u16, s8, s16, s32,
// bool, f32, f64, and optional fields with defaults), written by hand from
// the wiring in schema/README.md and independent of the generator: the lab
// schema's encoder must produce them byte for byte, and its decoder must read
// them back, and reject what no encoder writes.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "decode/cobs_deframer.hpp"
#include "decode/event_fields.hpp"
#include "decode/event_format.hpp"
#include "tband_encode.hpp"
#include "tband_events.hpp"

namespace {

namespace enc = tband::enc;
using Bytes = std::vector<std::uint8_t>;

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

template <class Encode>
Bytes encoded(Encode&& encode) {
  Bytes out(enc::kMaxFramedLen);
  out.resize(encode(out.data()));
  return out;
}

/// The decoded event; its strings view the frame, kept until the next call.
tband::Event decoded(const Bytes& framed) {
  static Bytes content;
  content = deframe_one(framed);
  const tband::DecodeResult result = tband::decode_event(content);
  EXPECT_TRUE(result.ok()) << tband::describe(result.error());
  return result.ok() ? result.value() : tband::Event{};
}

TEST(GoldenTypes, IntegersAndBool) {
  // lab_integers (C1) ts=1 u8=255 (FF) u16=300 (AC 02) u32=1 (01) s8=-1 (FF)
  // s16=-300 (601: D9 04) s32=INT32_MIN (2^32 + 1: 81 80 80 80 10) bool=true (01).
  // Fifteen bytes without a zero: one COBS block, code 0x10.
  const Bytes framed{0x10, 0xC1, 0x01, 0xFF, 0xAC, 0x02, 0x01, 0xFF, 0xD9,
                     0x04, 0x81, 0x80, 0x80, 0x80, 0x10, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_integers(b, 1, 255, 300, 1, -1, -300, INT32_MIN, true); }),
            framed);
  EXPECT_EQ(decoded(framed), (tband::Event{tband::LabIntegers{.ts = 1, .a_u8 = 255, .a_u16 = 300, .a_u32 = 1,
                                                              .a_s8 = -1, .a_s16 = -300, .a_s32 = INT32_MIN,
                                                              .a_bool = true}}));

  // All zero: id C1 and eight zero bytes: 02 C1, then a code 01 per zero.
  const Bytes zeros{0x02, 0xC1, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_integers(b, 0, 0, 0, 0, 0, 0, 0, false); }), zeros);
  EXPECT_EQ(decoded(zeros), (tband::Event{tband::LabIntegers{}}));

  // The ends of the narrow types: u16 65535 (FF FF 03), s8 -128 (80),
  // s16 32767 (65534: FE FF 03), s32 2147483647 (2^32 - 2: FE FF FF FF 0F),
  // and bool false (00), which ends the first COBS block of 16 bytes.
  const Bytes ends{0x11, 0xC1, 0x05, 0x80, 0xFF, 0xFF, 0x03, 0x7F, 0x80, 0xFE,
                   0xFF, 0x03, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) {
              return enc::encode_lab_integers(b, 5, 128, 65535, 127, -128, 32767, INT32_MAX, false);
            }),
            ends);
  EXPECT_EQ(decoded(ends), (tband::Event{tband::LabIntegers{.ts = 5, .a_u8 = 128, .a_u16 = 65535, .a_u32 = 127,
                                                            .a_s8 = -128, .a_s16 = 32767, .a_s32 = INT32_MAX,
                                                            .a_bool = false}}));
  // s16 -32768: magnitude 32768, sign: 65537 = 81 80 04.
  const Bytes s16_min{0x0C, 0xC1, 0x01, 0x02, 0x03, 0x04, 0x05, 0x81, 0x80, 0x04, 0x02, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_integers(b, 1, 2, 3, 4, 5, INT16_MIN, 1, true); }),
            s16_min);
  EXPECT_EQ(std::get<tband::LabIntegers>(decoded(s16_min)).a_s16, INT16_MIN);
}

TEST(GoldenTypes, FloatsAreTheirBitsAsVarlen) {
  // lab_wide (C2) ts=2 u64=0 s64=0 f32=1.0 (3F800000: 80 80 80 FC 03)
  // f64=-2.0 (C000000000000000: eight 80, C0 01). Raw C2 02 00 00 ...: the
  // zeros end blocks of 2 and 0 bytes, then 15 bytes run to the end.
  const Bytes framed{0x03, 0xC2, 0x02, 0x01, 0x10, 0x80, 0x80, 0x80, 0xFC, 0x03, 0x80,
                     0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0xC0, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_wide(b, 2, 0, 0, 1.0f, -2.0); }), framed);
  EXPECT_EQ(decoded(framed), (tband::Event{tband::LabWide{.ts = 2, .a_u64 = 0, .a_s64 = 0, .a_f32 = 1.0f,
                                                          .a_f64 = -2.0}}));

  // lab_config (C6, metadata) rate=-0.0f (80000000: 80 80 80 80 08) enabled=true.
  const Bytes negative_zero{0x08, 0xC6, 0x80, 0x80, 0x80, 0x80, 0x08, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_config(b, -0.0f, true); }), negative_zero);
  const auto config = std::get<tband::LabConfig>(decoded(negative_zero));
  EXPECT_TRUE(std::signbit(config.rate_hz) && config.rate_hz == 0.0f);

  // The quiet NaN (7FC00000: 80 80 80 FE 07) and +inf (7F800000: 80 80 80 FC 07).
  const Bytes nan{0x08, 0xC6, 0x80, 0x80, 0x80, 0xFE, 0x07, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_config(b, std::numeric_limits<float>::quiet_NaN(), true); }),
            nan);
  EXPECT_TRUE(std::isnan(std::get<tband::LabConfig>(decoded(nan)).rate_hz));
  const Bytes inf{0x07, 0xC6, 0x80, 0x80, 0x80, 0xFC, 0x07, 0x01, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_config(b, std::numeric_limits<float>::infinity(), false); }),
            inf);
  EXPECT_EQ(std::get<tband::LabConfig>(decoded(inf)).rate_hz, std::numeric_limits<float>::infinity());
}

TEST(GoldenTypes, EnumsAndAString) {
  // lab_note (C3) ts=3 mode=LAB_MAX (FF) kind=FRQK_QUEUE (00) text="hi".
  const Bytes framed{0x04, 0xC3, 0x03, 0xFF, 0x03, 0x68, 0x69, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) {
              return enc::encode_lab_note(b, 3, enc::LabMode::LAB_MAX, enc::FrQueueKind::FRQK_QUEUE, "hi");
            }),
            framed);
  EXPECT_EQ(tband::format_event(decoded(framed)), "lab_note ts=3 mode=LAB_MAX kind=FRQK_QUEUE text=\"hi\"");
}

TEST(GoldenTypes, LeftOutOptionalFieldsReadAsTheirDefaults) {
  // lab_optional (C4) ts=4 channel=5, every optional field left out.
  const Bytes framed{0x04, 0xC4, 0x04, 0x05, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_optional(b, 4, 5); }), framed);
  const tband::Event event = decoded(framed);
  const auto& e = std::get<tband::LabOptional>(event);
  EXPECT_FALSE(e.gain || e.level || e.armed || e.mode || e.limit || e.extra) << "absent stays absent";
  EXPECT_EQ(tband::format_event(event),
            "lab_optional ts=4 channel=5 gain=1.5 (default) level=-1 (default) armed=true (default) "
            "mode=LAB_ON (default) limit=inf (default) extra=(absent)");
  // Two of them given: gain 0.5 (3F000000: 80 80 80 F8 03), level -2 (05).
  const Bytes two{0x0A, 0xC4, 0x04, 0x05, 0x80, 0x80, 0x80, 0xF8, 0x03, 0x05, 0x00};
  EXPECT_EQ(encoded([](std::uint8_t* b) { return enc::encode_lab_optional(b, 4, 5, 0.5f, std::int16_t{-2}); }), two);
  EXPECT_EQ(tband::format_event(decoded(two)),
            "lab_optional ts=4 channel=5 gain=0.5 level=-2 armed=true (default) mode=LAB_ON (default) "
            "limit=inf (default) extra=(absent)");
}

tband::DecodeError error_of(const Bytes& content) {
  const tband::DecodeResult result = tband::decode_event(content);
  EXPECT_FALSE(result.ok());
  return result.ok() ? tband::DecodeError{tband::DecodeErrorKind::kEmptyFrame} : result.error();
}

TEST(GoldenTypes, WhatNoEncoderWritesIsRejected) {
  // lab_integers with bool 02: field 7, at byte 8.
  const auto bad_bool = error_of({0xC1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02});
  EXPECT_EQ(bad_bool.kind, tband::DecodeErrorKind::kInvalidBoolValue);
  EXPECT_EQ(bad_bool.field_index, 7);
  EXPECT_EQ(bad_bool.offset, 8u);
  EXPECT_EQ(tband::describe(bad_bool),
            "event 'lab_integers' (0xC1) field 'a_bool': bool holds 0x02, not 0x00 or 0x01 (at byte 8 of the frame)");
  // u16 of 65536 (80 80 04): the last byte has bits beyond 16.
  EXPECT_EQ(error_of({0xC1, 0x00, 0x00, 0x80, 0x80, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00}).kind,
            tband::DecodeErrorKind::kVarlenOverflow);
  // s16 of +32768 (65536: 80 80 04) and s16 "negative zero" (01): no s16 holds them.
  const auto s16_high = error_of({0xC1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x80, 0x04, 0x00, 0x00});
  EXPECT_EQ(s16_high.kind, tband::DecodeErrorKind::kValueOutOfRange);
  EXPECT_EQ(s16_high.field_index, 5);
  EXPECT_EQ(error_of({0xC1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00}).kind,
            tband::DecodeErrorKind::kValueOutOfRange);
  // s32 of 2^32 + 3 (-(2^31 + 1)): one more than INT32_MIN's magnitude.
  EXPECT_EQ(error_of({0xC1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x83, 0x80, 0x80, 0x80, 0x10, 0x00}).kind,
            tband::DecodeErrorKind::kValueOutOfRange);
  // f32 bits beyond 32 (six varlen bytes) are too long.
  EXPECT_EQ(error_of({0xC6, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x01}).kind, tband::DecodeErrorKind::kVarlenTooLong);
}

}  // namespace
