#include "json/json_text.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include <nlohmann/json.hpp>

#include "decode/utf8_text.hpp"

namespace tband::json_text {

namespace {

// Whether a byte of valid UTF-8 text needs an escape in JSON.
constexpr bool needs_escape(unsigned char c) noexcept { return c < 0x20 || c == '"' || c == '\\'; }

void append_escaped(std::string& out, unsigned char c) {
  switch (c) {
    case '\b':
      out += "\\b";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\r':
      out += "\\r";
      return;
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";  // lower case, as nlohmann writes it
      const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out.append(escaped, sizeof escaped);
    }
  }
}

// A quoted string from text known to be valid UTF-8.
void append_valid_string(std::string& out, std::string_view text) {
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet appended
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (needs_escape(c)) [[unlikely]] {
      out.append(text.data() + run, i - run);
      append_escaped(out, c);
      run = i + 1;
    }
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  std::array<char, 24> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
  out.append(text.data(), result.ptr);
}

}  // namespace

void append_string(std::string& out, std::string_view text) {
  if (!is_valid_utf8(text)) [[unlikely]] {
    // nlohmann's own replacement rules (where a bad sequence ends), exactly.
    out += nlohmann::json(std::string{text}).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  append_valid_string(out, text);
}

void append_double(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  std::array<char, 64> text{};
  const char* end = nlohmann::detail::to_chars(text.data(), text.data() + text.size(), value);
  out.append(text.data(), static_cast<std::size_t>(end - text.data()));
}

// A timestamp in microseconds, ts_ns / 1000.0, without Grisu2 where its
// result is known: for ts_ns below 10^15 the decimal ts_ns / 1000 has at most
// 15 significant digits, and no other decimal that short rounds to the same
// double (DBL_DIG is 15). Grisu2 returns the shortest decimal inside the
// double's rounding interval narrowed by about 0.001 ulp, so when
// ts_ns / 1000 lies well inside (within 0.49 ulp of the double, 0.24 below a
// power of two) that decimal is what it returns; its digits then go through
// nlohmann's own formatting. The distance is computed exactly in integers.
void append_microseconds(std::string& out, std::uint64_t ts_ns) {
  const double value = static_cast<double>(ts_ns) / 1000.0;
  constexpr std::uint64_t kMaxFast = 999'999'999'999'999;
  if (ts_ns != 0 && ts_ns <= kMaxFast) {
    const auto bits = std::bit_cast<std::uint64_t>(value);  // a normal double: value >= 0.001
    const std::uint64_t mantissa = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
    const auto biased_exponent = static_cast<unsigned>(bits >> 52);  // value = mantissa * 2^(biased_exponent - 1075)
    // 1000 * value - ts_ns in units of 2^(biased_exponent - 1075), an ulp:
    // both terms are below 2^63 (mantissa < 2^53) and differ by at most 500.
    const unsigned shift = 1075 - biased_exponent;  // 13 to 62 for these values
    const auto distance = static_cast<std::int64_t>(mantissa * 1000u - (ts_ns << shift));
    const bool power_of_two = mantissa == (std::uint64_t{1} << 52);
    const std::int64_t limit = power_of_two && distance > 0 ? 240 : 490;  // in thousandths of an ulp
    if (distance < limit && distance > -490) {
      std::array<char, 64> text{};
      const auto digits = std::to_chars(text.data(), text.data() + 20, ts_ns);
      int len = static_cast<int>(digits.ptr - text.data());
      int decimal_exponent = -3;
      while (text[static_cast<std::size_t>(len) - 1] == '0') {
        --len;
        ++decimal_exponent;
      }
      const char* end = nlohmann::detail::dtoa_impl::format_buffer(text.data(), len, decimal_exponent, -4,
                                                                    std::numeric_limits<double>::digits10);
      out.append(text.data(), static_cast<std::size_t>(end - text.data()));
      return;
    }
  }
  append_double(out, value);
}

void append_int(std::string& out, std::int64_t value) { append_integer(out, value); }

void append_uint(std::string& out, std::uint64_t value) { append_integer(out, value); }

std::string non_finite_name(const FieldValue& field) {
  const double value = field.f;
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  const bool is_f32 = field.info->type == FieldType::kF32;
  const std::uint64_t bits = is_f32 ? std::bit_cast<std::uint32_t>(static_cast<float>(value))
                                    : std::bit_cast<std::uint64_t>(value);
  const std::uint64_t quiet = is_f32 ? std::bit_cast<std::uint32_t>(std::numeric_limits<float>::quiet_NaN())
                                     : std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN());
  if (bits == quiet) {
    return "nan";
  }
  char text[32];
  std::snprintf(text, sizeof text, "nan:0x%llx", static_cast<unsigned long long>(bits));
  return text;
}

void append_field(std::string& out, const FieldValue& field) {
  switch (value_kind(field.info->type)) {
    case ValueKind::kStr:  // checked once: stray bytes become \xHH (escape_invalid_utf8), as in field_json()
      if (is_valid_utf8(field.str)) {
        append_valid_string(out, field.str);
      } else {
        append_valid_string(out, escape_invalid_utf8(field.str));
      }
      return;
    case ValueKind::kEnum:
      if (const EnumValueInfo* named = field.info->enum_info->find(field.u)) {
        append_string(out, named->name);
      } else {
        append_uint(out, field.u);
      }
      return;
    case ValueKind::kSigned:
      append_int(out, field.s);
      return;
    case ValueKind::kFloat:
      if (std::isfinite(field.f)) {
        append_double(out, field.f);
      } else {
        append_string(out, non_finite_name(field));
      }
      return;
    case ValueKind::kBool:
      out += field.u != 0 ? "true" : "false";
      return;
    case ValueKind::kUnsigned:
      break;
  }
  append_uint(out, field.u);
}

}  // namespace tband::json_text
