// Reads the fields of one decoded frame in wire order. Every read checks the
// bounds and the encoding and, on failure, records a DecodeError that names
// the event, the field and the byte offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string_view>

#include "decode/decode_error.hpp"
#include "decode/schema_info.hpp"

namespace tband {

/// An s64 from its wire form: the magnitude shifted left, the sign in bit 0.
[[nodiscard]] constexpr std::int64_t s64_from_sign_magnitude(std::uint64_t raw) noexcept {
  const std::uint64_t magnitude = raw >> 1;
  if ((raw & 1u) == 0) {
    return static_cast<std::int64_t>(magnitude);
  }
  return magnitude == 0 ? INT64_MIN : -static_cast<std::int64_t>(magnitude);  // "negative zero" stands for INT64_MIN
}

class FieldReader {
 public:
  /// frame must not be empty; its first byte is the event id.
  explicit FieldReader(std::span<const std::uint8_t> frame) noexcept
      : begin_(frame.data()), pos_(frame.data() + 1), end_(frame.data() + frame.size()) {}

  [[nodiscard]] bool at_end() const noexcept { return pos_ == end_; }
  [[nodiscard]] std::uint8_t event_id() const noexcept { return *begin_; }

  bool read(std::uint8_t& out, int field) noexcept {
    if (pos_ == end_) {
      return fail(DecodeErrorKind::kMissingField, field, pos_);
    }
    out = *pos_++;
    return true;
  }
  bool read(std::uint32_t& out, int field) noexcept {
    std::uint64_t value = 0;
    if (!read_varlen<32>(value, field)) {
      return false;
    }
    out = static_cast<std::uint32_t>(value);
    return true;
  }
  bool read(std::uint64_t& out, int field) noexcept { return read_varlen<64>(out, field); }
  bool read(std::int64_t& out, int field) noexcept {
    std::uint64_t raw = 0;
    if (!read_varlen<64>(raw, field)) {
      return false;
    }
    out = s64_from_sign_magnitude(raw);
    return true;
  }
  bool read(std::uint16_t& out, int field) noexcept {
    std::uint64_t value = 0;
    if (!read_varlen<16>(value, field)) {
      return false;
    }
    out = static_cast<std::uint16_t>(value);
    return true;
  }
  bool read(std::int8_t& out, int field) noexcept {
    std::uint8_t raw = 0;
    if (!read(raw, field)) {
      return false;
    }
    out = static_cast<std::int8_t>(raw);
    return true;
  }
  bool read(std::int16_t& out, int field) noexcept { return read_sign_magnitude<17>(out, field); }
  bool read(std::int32_t& out, int field) noexcept { return read_sign_magnitude<33>(out, field); }
  bool read(bool& out, int field) noexcept {
    const std::uint8_t* start = pos_;
    std::uint8_t raw = 0;
    if (!read(raw, field)) {
      return false;
    }
    if (raw > 1) {
      return fail(DecodeErrorKind::kInvalidBoolValue, field, start, raw);
    }
    out = raw == 1;
    return true;
  }
  bool read(float& out, int field) noexcept {
    std::uint32_t bits = 0;
    if (!read(bits, field)) {
      return false;
    }
    out = std::bit_cast<float>(bits);
    return true;
  }
  bool read(double& out, int field) noexcept {
    std::uint64_t bits = 0;
    if (!read(bits, field)) {
      return false;
    }
    out = std::bit_cast<double>(bits);
    return true;
  }
  template <class Enum>
  bool read_enum(Enum& out, int field, const EnumInfo& info) noexcept {
    const std::uint8_t* start = pos_;
    std::uint8_t raw = 0;
    if (!read(raw, field)) {
      return false;
    }
    if (info.find(raw) == nullptr) {
      return fail(DecodeErrorKind::kInvalidEnumValue, field, start, raw);
    }
    out = static_cast<Enum>(raw);
    return true;
  }
  /// The string field: every byte up to the end of the frame.
  std::string_view read_str() noexcept {
    const auto* start = reinterpret_cast<const char*>(pos_);
    const auto len = static_cast<std::size_t>(end_ - pos_);
    pos_ = end_;
    return {start, len};
  }

  /// The error recorded by the last failed read.
  [[nodiscard]] const DecodeError& error() const noexcept { return error_; }

  /// Records and returns an error for bytes left after the last field.
  const DecodeError& trailing_bytes() noexcept {
    fail(DecodeErrorKind::kTrailingBytes, -1, pos_, static_cast<std::uint64_t>(end_ - pos_));
    return error_;
  }
  const DecodeError& unknown_event_id() noexcept {
    fail(DecodeErrorKind::kUnknownEventId, -1, begin_, *begin_);
    return error_;
  }

 private:
  // Reads an unsigned varlen of at most ceil(Bits / 7) bytes. The bounds and
  // the last-byte rules are checked once, not per byte.
  template <unsigned Bits>
  bool read_varlen(std::uint64_t& out, int field) noexcept {
    constexpr unsigned kMaxBytes = (Bits + 6) / 7;
    return read_varlen_bounded(out, field, kMaxBytes, Bits - 7 * (kMaxBytes - 1));
  }

 public:
  /// An unsigned varlen of at most max_bytes bytes whose last byte may use
  /// last_byte_bits value bits: what read_varlen<Bits> reads, with the width
  /// chosen at run time (the run-time decoder's one path for every varlen type).
  [[gnu::always_inline]] bool read_varlen_bounded(std::uint64_t& out, int field, unsigned max_bytes,
                                                  unsigned last_byte_bits) noexcept {
    const std::uint8_t* start = pos_;
    const auto available = static_cast<std::size_t>(end_ - start);
    const unsigned n = available < max_bytes ? static_cast<unsigned>(available) : max_bytes;
    std::uint64_t value = 0;
    for (unsigned i = 0; i < n; ++i) {
      const std::uint8_t byte = start[i];
      value |= static_cast<std::uint64_t>(byte & 0x7Fu) << (7 * i);
      if ((byte & 0x80u) == 0) {
        if (i == max_bytes - 1 && (static_cast<unsigned>(byte) >> last_byte_bits) != 0) {
          return fail(DecodeErrorKind::kVarlenOverflow, field, start, byte);
        }
        pos_ = start + i + 1;
        out = value;
        return true;
      }
    }
    if (n == max_bytes) {
      return fail(DecodeErrorKind::kVarlenTooLong, field, start, max_bytes);
    }
    return fail(n == 0 ? DecodeErrorKind::kMissingField : DecodeErrorKind::kTruncatedField, field, start);
  }
  /// read_varlen_bounded() with its common cases first: a one-byte varlen,
  /// and one that ends within the next eight bytes of the frame, read as one
  /// word (a 5-byte timestamp without a loop). Anything else, errors
  /// included, goes to read_varlen_bounded(): the same values and errors.
  [[gnu::always_inline]] bool read_varlen_quick(std::uint64_t& out, int field, unsigned max_bytes,
                                                unsigned last_byte_bits) noexcept {
    if (pos_ != end_ && *pos_ < 0x80u && (max_bytes > 1 || (*pos_ >> last_byte_bits) == 0)) [[likely]] {
      out = *pos_++;
      return true;
    }
    if constexpr (std::endian::native == std::endian::little) {
      if (end_ - pos_ >= 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, pos_, sizeof w);
        const std::uint64_t stops = ~w & 0x8080808080808080ull;  // bytes without a continuation bit
        const unsigned len = static_cast<unsigned>(std::countr_zero(stops) >> 3) + 1u;  // 9 when none ends it
        if (len <= 8 &&
            (len < max_bytes || (len == max_bytes && ((w >> (8 * (len - 1))) & 0xFFu) >> last_byte_bits == 0))) {
          std::uint64_t x = w & 0x7F7F7F7F7F7F7F7Full;
          if (len < 8) {
            x &= (std::uint64_t{1} << (8 * len)) - 1;
          }
          // Seven bits per byte, packed: pairs, then fours, then all eight.
          x = (x & 0x007F007F007F007Full) | ((x & 0x7F007F007F007F00ull) >> 1);
          x = (x & 0x00003FFF00003FFFull) | ((x & 0x3FFF00003FFF0000ull) >> 2);
          x = (x & 0x000000000FFFFFFFull) | ((x & 0x0FFFFFFF00000000ull) >> 4);
          pos_ += len;
          out = x;
          return true;
        }
      }
    }
    return read_varlen_bounded(out, field, max_bytes, last_byte_bits);
  }
  /// Records and returns false for a value the field's type cannot hold,
  /// read from `start` (the run-time decoder's range checks).
  bool value_error(DecodeErrorKind kind, int field, const std::uint8_t* start, std::uint64_t value) noexcept {
    return fail(kind, field, start, value);
  }
  [[nodiscard]] const std::uint8_t* position() const noexcept { return pos_; }

 private:
  // s16 and s32: the sign-magnitude varlen of s64, but only magnitudes the
  // type can hold (Bits: the widest encoding's bits, magnitude plus sign).
  template <unsigned Bits, class Int>
  bool read_sign_magnitude(Int& out, int field) noexcept {
    const std::uint8_t* start = pos_;
    std::uint64_t raw = 0;
    if (!read_varlen<Bits>(raw, field)) {
      return false;
    }
    const std::uint64_t magnitude = raw >> 1;
    const bool negative = (raw & 1u) != 0;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
    if (magnitude > kMax + (negative ? 1u : 0u) || (negative && magnitude == 0)) {
      return fail(DecodeErrorKind::kValueOutOfRange, field, start, raw);
    }
    out = negative ? static_cast<Int>(-static_cast<std::int64_t>(magnitude)) : static_cast<Int>(magnitude);
    return true;
  }

  bool fail(DecodeErrorKind kind, int field, const std::uint8_t* at, std::uint64_t value = 0) noexcept {
    error_ = DecodeError{kind, true, *begin_, static_cast<std::int16_t>(field),
                         static_cast<std::uint32_t>(at - begin_), value};
    return false;
  }

  const std::uint8_t* begin_;
  const std::uint8_t* pos_;
  const std::uint8_t* end_;
  DecodeError error_{DecodeErrorKind::kMissingField};
};

/// The same reads without saying what went wrong: a failed read returns
/// false and nothing more, so that the common case (a well-formed frame)
/// costs only the reads. decode_event_fast() uses it; on a failure the caller
/// decodes the frame again with FieldReader (decode_event()) for the error.
/// Accepts exactly what FieldReader accepts, with the same values.
class FastFieldReader {
 public:
  /// frame must not be empty; its first byte is the event id.
  explicit FastFieldReader(std::span<const std::uint8_t> frame) noexcept
      : pos_(frame.data() + 1), end_(frame.data() + frame.size()) {}

  [[nodiscard]] bool at_end() const noexcept { return pos_ == end_; }

  [[gnu::always_inline]] bool read(std::uint8_t& out) noexcept {
    if (pos_ == end_) {
      return false;
    }
    out = *pos_++;
    return true;
  }
  [[gnu::always_inline]] bool read(std::int8_t& out) noexcept {
    if (pos_ == end_) {
      return false;
    }
    out = static_cast<std::int8_t>(*pos_++);
    return true;
  }
  [[gnu::always_inline]] bool read(bool& out) noexcept {
    if (pos_ == end_ || *pos_ > 1) {
      return false;
    }
    out = *pos_++ == 1;
    return true;
  }
  [[gnu::always_inline]] bool read(std::uint16_t& out) noexcept { return read_unsigned<16>(out); }
  [[gnu::always_inline]] bool read(std::uint32_t& out) noexcept { return read_unsigned<32>(out); }
  [[gnu::always_inline]] bool read(std::uint64_t& out) noexcept { return read_unsigned<64>(out); }
  [[gnu::always_inline]] bool read(std::int64_t& out) noexcept {
    std::uint64_t raw = 0;
    if (!read_varlen<64>(raw)) {
      return false;
    }
    out = s64_from_sign_magnitude(raw);
    return true;
  }
  [[gnu::always_inline]] bool read(std::int16_t& out) noexcept { return read_sign_magnitude<17>(out); }
  [[gnu::always_inline]] bool read(std::int32_t& out) noexcept { return read_sign_magnitude<33>(out); }
  [[gnu::always_inline]] bool read(float& out) noexcept {
    std::uint32_t bits = 0;
    if (!read(bits)) {
      return false;
    }
    out = std::bit_cast<float>(bits);
    return true;
  }
  [[gnu::always_inline]] bool read(double& out) noexcept {
    std::uint64_t bits = 0;
    if (!read(bits)) {
      return false;
    }
    out = std::bit_cast<double>(bits);
    return true;
  }
  template <class Enum>
  [[gnu::always_inline]] bool read_enum(Enum& out, const EnumInfo& info) noexcept {
    if (pos_ == end_ || info.find(*pos_) == nullptr) {
      return false;
    }
    out = static_cast<Enum>(*pos_++);
    return true;
  }
  std::string_view read_str() noexcept {
    const auto* start = reinterpret_cast<const char*>(pos_);
    const auto len = static_cast<std::size_t>(end_ - pos_);
    pos_ = end_;
    return {start, len};
  }

 private:
  template <unsigned Bits, class T>
  [[gnu::always_inline]] bool read_unsigned(T& out) noexcept {
    std::uint64_t value = 0;
    if (!read_varlen<Bits>(value)) {
      return false;
    }
    out = static_cast<T>(value);
    return true;
  }
  // FieldReader::read_varlen<Bits> without the error: at most ceil(Bits / 7)
  // bytes, the last of which may use only the bits the type has left.
  template <unsigned Bits>
  [[gnu::always_inline]] bool read_varlen(std::uint64_t& out) noexcept {
    constexpr unsigned kMaxBytes = (Bits + 6) / 7;
    constexpr unsigned kLastByteBits = Bits - 7 * (kMaxBytes - 1);
    static_assert(kMaxBytes > 1);
    const std::uint8_t* p = pos_;
    const auto available = static_cast<std::size_t>(end_ - p);
    if (available == 0) {
      return false;
    }
    if (p[0] < 0x80u) [[likely]] {  // one byte: small ids and values
      out = p[0];
      pos_ = p + 1;
      return true;
    }
    std::uint64_t value = p[0] & 0x7Fu;
#pragma GCC unroll 10
    for (unsigned i = 1; i < kMaxBytes; ++i) {
      if (i == available) {
        return false;
      }
      const std::uint8_t byte = p[i];
      value |= static_cast<std::uint64_t>(byte & 0x7Fu) << (7 * i);
      if ((byte & 0x80u) == 0) {
        if (i == kMaxBytes - 1 && (static_cast<unsigned>(byte) >> kLastByteBits) != 0) {
          return false;
        }
        pos_ = p + i + 1;
        out = value;
        return true;
      }
    }
    return false;
  }
  template <unsigned Bits, class Int>
  [[gnu::always_inline]] bool read_sign_magnitude(Int& out) noexcept {
    std::uint64_t raw = 0;
    if (!read_varlen<Bits>(raw)) {
      return false;
    }
    const std::uint64_t magnitude = raw >> 1;
    const bool negative = (raw & 1u) != 0;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
    if (magnitude > kMax + (negative ? 1u : 0u) || (negative && magnitude == 0)) {
      return false;
    }
    out = negative ? static_cast<Int>(-static_cast<std::int64_t>(magnitude)) : static_cast<Int>(magnitude);
    return true;
  }

  const std::uint8_t* pos_;
  const std::uint8_t* end_;
};

}  // namespace tband
