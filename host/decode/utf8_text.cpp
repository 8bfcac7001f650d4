#include "decode/utf8_text.hpp"

#include <cstdint>

namespace tband {

namespace {

/// Length of the well-formed UTF-8 sequence at the start of `s`, or 0 if the
/// first byte does not begin one (RFC 3629, table 3-7 of the Unicode standard).
std::size_t sequence_length(std::string_view s) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
  const std::uint8_t b0 = byte(0);
  if (b0 < 0x80) {
    return 1;
  }
  std::size_t len = 0;
  std::uint8_t lo = 0x80;  // the second byte's range, narrowed for the first byte's special cases
  std::uint8_t hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    lo = b0 == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
    hi = b0 == 0xED ? 0x9F : 0xBF;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    lo = b0 == 0xF0 ? 0x90 : 0x80;  // no overlong forms
    hi = b0 == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < len || byte(1) < lo || byte(1) > hi) {
    return 0;
  }
  for (std::size_t i = 2; i < len; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) {
      return 0;
    }
  }
  return len;
}

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kEscapeDigits[] = "0123456789ABCDEF";  // as `tband dump` writes \xFF

}  // namespace

bool is_valid_utf8(std::string_view bytes) noexcept {
  std::size_t i = 0;
  while (i < bytes.size()) {
    if (static_cast<std::uint8_t>(bytes[i]) < 0x80) {  // ASCII, the common case
      ++i;
      continue;
    }
    const std::size_t len = sequence_length(bytes.substr(i));
    if (len == 0) {
      return false;
    }
    i += len;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 8);
  std::size_t i = 0;
  while (i < bytes.size()) {
    const std::size_t len = sequence_length(bytes.substr(i));
    if (len == 0) {
      const auto b = static_cast<std::uint8_t>(bytes[i]);
      out += "\\x";
      out += kEscapeDigits[b >> 4];
      out += kEscapeDigits[b & 0xF];
      ++i;
      continue;
    }
    if (bytes[i] == '\\') {
      out += '\\';
    }
    out.append(bytes.substr(i, len));
    i += len;
  }
  return out;
}

std::string hex_bytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<std::uint8_t>(c);
    out += kHexDigits[b >> 4];
    out += kHexDigits[b & 0xF];
  }
  return out;
}

}  // namespace tband
