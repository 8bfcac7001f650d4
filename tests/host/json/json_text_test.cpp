// JSON written as text gives the bytes nlohmann::json's dump() gives: strings
// with every escape and invalid UTF-8, doubles of every magnitude, and each
// kind of field, checked against the library on the same values.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json/field_json.hpp"
#include "json/json_text.hpp"

namespace tband::test {
namespace {

std::string library_dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string text_of_string(std::string_view s) {
  std::string out;
  json_text::append_string(out, s);
  return out;
}

std::string text_of_double(double d) {
  std::string out;
  json_text::append_double(out, d);
  return out;
}

TEST(JsonText, StringsAsTheLibraryWritesThem) {
  std::vector<std::string> cases = {"", "plain", "quote \" and \\ back", "tab\there\nnew\rret\bbs\fff",
                                    std::string("nul\0byte", 8), "\x01\x1f\x7f",
                                    "utf8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "bad \xff byte", "cut \xe2\x82",
                                    "\xc0\xaf overlong", "\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 too big",
                                    "trail \xc3"};
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) {
      c = static_cast<char>(rng() % 4 == 0 ? rng() % 0x20 : rng() % 256);
    }
    cases.push_back(s);
  }
  for (const std::string& s : cases) {
    EXPECT_EQ(text_of_string(s), library_dump(s)) << "a string of " << s.size() << " bytes";
  }
}

TEST(JsonText, DoublesAsTheLibraryWritesThem) {
  std::vector<double> cases = {0.0, -0.0, 1.0, -1.5, 0.541, 1e-5, 1e-4, 123456789012345.0, 1e15, 1e16, 1e21, 1e300,
                               5e-324, std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                               std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    cases.push_back(static_cast<double>(rng() >> (rng() % 64)) / 1000.0);  // timestamps in microseconds
    cases.push_back(std::bit_cast<double>(rng()));                        // any bits
  }
  for (const double d : cases) {
    EXPECT_EQ(text_of_double(d), library_dump(d)) << std::bit_cast<std::uint64_t>(d);
  }
}

// The timestamp path skips Grisu2 where it knows the answer: it must give
// the library's bytes for every value, on both sides of its limits.
TEST(JsonText, MicrosecondsAsTheLibraryWritesThem) {
  std::vector<std::uint64_t> cases;
  for (std::uint64_t ns = 0; ns < 200000; ++ns) {
    cases.push_back(ns);
  }
  std::mt19937_64 rng(23);
  for (int i = 0; i < 1000000; ++i) {
    cases.push_back(rng() >> (rng() % 64));
  }
  for (std::uint64_t around : {std::uint64_t{999'999'999'999'999}, std::uint64_t{1} << 53, std::uint64_t{1} << 50}) {
    for (std::uint64_t d = 0; d < 2000; ++d) {
      cases.push_back(around - 1000 + d);
    }
  }
  for (int k = 10; k < 50; ++k) {  // powers of two in microseconds, where the interval below is narrower
    const std::uint64_t ns = (std::uint64_t{1} << k) * 1000;
    for (std::uint64_t d = 0; d < 64; ++d) {
      cases.push_back(ns - 32 + d);
    }
  }
  for (const std::uint64_t ns : cases) {
    std::string out;
    json_text::append_microseconds(out, ns);
    ASSERT_EQ(out, library_dump(static_cast<double>(ns) / 1000.0)) << ns << " ns";
  }
}

TEST(JsonText, FieldsAsFieldJsonGivesThem) {
  static const EnumValueInfo kValues[] = {{0, "idle", ""}, {1, "busy", ""}};
  static const EnumInfo kEnum{"state", "", kValues};
  const auto info = [](std::string_view name, FieldType type, const EnumInfo* enum_info = nullptr) {
    return FieldInfo{name, type, enum_info, false, false, "", {}};
  };
  const FieldInfo u = info("u", FieldType::kU32), s = info("s", FieldType::kS64), f32 = info("f", FieldType::kF32),
                  f64 = info("d", FieldType::kF64), b = info("b", FieldType::kBool), str = info("t", FieldType::kStr),
                  e = info("e", FieldType::kEnum, &kEnum);
  const auto value = [](const FieldInfo& field_info, std::uint64_t uv, std::int64_t sv, double fv,
                         std::string_view text = {}) { return FieldValue{&field_info, true, uv, sv, fv, text}; };
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<FieldValue> cases = {
      value(u, 42, 0, 0), value(s, 0, -7, 0), value(b, 1, 0, 0), value(b, 0, 0, 0), value(e, 1, 0, 0),
      value(e, 9, 0, 0), value(str, 0, 0, 0, "text \"q\""), value(str, 0, 0, 0, "bad \xfe"), value(f64, 0, 0, 2.5),
      value(f64, 0, 0, inf), value(f64, 0, 0, -inf), value(f64, 0, 0, std::numeric_limits<double>::quiet_NaN()),
      value(f64, 0, 0, std::bit_cast<double>(std::uint64_t{0x7ff0000000000001})),
      value(f32, 0, 0, static_cast<double>(std::bit_cast<float>(std::uint32_t{0x7fc00001})))};
  for (const FieldValue& field : cases) {
    std::string out;
    json_text::append_field(out, field);
    EXPECT_EQ(out, library_dump(field_json(field))) << field.info->name;
  }
}

}  // namespace
}  // namespace tband::test
