// The protobuf wire format, written straight into memory: varints, tags,
// fixed64 values, length-delimited fields (strings and nested messages).
// Free of libprotobuf (the writer must also build for WebAssembly), in the
// spirit of Perfetto's protozero: every writer takes the position to write at
// and returns the position after what it wrote; the caller makes sure the
// room is there (kMaxVarintSize and the size functions bound it).
//
// Lengths are always the shortest varint, as libprotobuf writes them, so the
// output is what a protobuf library would write for the same fields. A
// nested message whose size is not known in advance is written by
// NestedMessage: one length byte is reserved and the body moved on in the rare
// case it reaches 128 bytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tband::proto {

enum class WireType : std::uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

inline constexpr std::size_t kMaxVarintSize = 10;  // a 64-bit value
inline constexpr std::size_t kMaxTagSize = 5;      // field numbers up to 2^29 - 1

/// Bytes of the varint of `value`: 1 for 0..127, up to 10.
constexpr std::size_t varint_size(std::uint64_t value) {
  return static_cast<std::size_t>(std::bit_width(value | 1u) + 6) / 7;
}

/// An int32/int64/enum field's value on the wire: negative values as their
/// 64-bit two's complement (10 bytes), as protobuf does.
constexpr std::uint64_t int_bits(std::int64_t value) { return static_cast<std::uint64_t>(value); }

/// A sint32/sint64 field's value on the wire (ZigZag: 0, -1, 1, -2 -> 0, 1, 2, 3).
constexpr std::uint64_t zigzag(std::int64_t value) {
  return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

constexpr std::uint32_t tag(int field, WireType type) {
  return static_cast<std::uint32_t>(field) << 3 | static_cast<std::uint32_t>(type);
}

/// A tag of a field numbered 1-15: one byte (checked when compiled).
template <int field, WireType type>
constexpr std::uint8_t short_tag() {
  static_assert(field >= 1 && field <= 15, "a field number above 15 takes a tag of two bytes or more");
  return static_cast<std::uint8_t>(tag(field, type));
}

constexpr std::size_t tag_size(int field) { return varint_size(tag(field, WireType::kVarint)); }

inline std::uint8_t* write_varint(std::uint64_t value, std::uint8_t* p) {
  while (value >= 0x80) {
    *p++ = static_cast<std::uint8_t>(value | 0x80);
    value >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(value);
  return p;
}

inline std::uint8_t* write_tag(int field, WireType type, std::uint8_t* p) { return write_varint(tag(field, type), p); }

inline std::uint8_t* write_fixed64(std::uint64_t value, std::uint8_t* p) {
  for (int i = 0; i < 8; ++i) {
    p[i] = static_cast<std::uint8_t>(value >> (8 * i));  // little-endian whatever the host (compiles to one store)
  }
  return p + 8;
}

/// A varint field: uint32, uint64, bool; int32, int64 and enums through int_bits().
inline std::uint8_t* write_varint_field(int field, std::uint64_t value, std::uint8_t* p) {
  return write_varint(value, write_tag(field, WireType::kVarint, p));
}

inline std::uint8_t* write_double_field(int field, double value, std::uint8_t* p) {
  return write_fixed64(std::bit_cast<std::uint64_t>(value), write_tag(field, WireType::kFixed64, p));
}

/// Tag and length of a length-delimited field whose `size` bytes follow.
inline std::uint8_t* write_length_head(int field, std::size_t size, std::uint8_t* p) {
  return write_varint(size, write_tag(field, WireType::kLengthDelimited, p));
}

/// A string or bytes field.
inline std::uint8_t* write_bytes_field(int field, std::string_view value, std::uint8_t* p) {
  p = write_length_head(field, value.size(), p);
  if (!value.empty()) {  // an empty view may hold nullptr, which memcpy must not get
    std::memcpy(p, value.data(), value.size());
  }
  return p + value.size();
}

/// A nested message written elsewhere (`size` bytes at `body`; nullptr if empty).
inline std::uint8_t* write_message_field(int field, const std::uint8_t* body, std::size_t size, std::uint8_t* p) {
  return write_bytes_field(field, {reinterpret_cast<const char*>(body), size}, p);
}

/// Bytes of a length-delimited field with a `size`-byte payload.
constexpr std::size_t length_delimited_size(int field, std::size_t size) {
  return tag_size(field) + varint_size(size) + size;
}

/// A nested message written in place: begin() writes the tag and reserves one
/// length byte, the caller writes the body's fields from body(), end() fills
/// in the length, moving the body on by the length's extra bytes if it is 128
/// bytes or more. The room for those extra bytes (up to kMaxVarintSize - 1)
/// must be there too. Messages nest: end the inner one first.
class NestedMessage {
 public:
  NestedMessage(int field, std::uint8_t* p) : length_(write_tag(field, WireType::kLengthDelimited, p)) {}

  [[nodiscard]] std::uint8_t* body() const { return length_ + 1; }

  /// `end` is the position after the body; returns the position after the
  /// whole field.
  std::uint8_t* end(std::uint8_t* end) const {
    const auto size = static_cast<std::size_t>(end - body());
    if (size < 0x80) [[likely]] {
      *length_ = static_cast<std::uint8_t>(size);
      return end;
    }
    const std::size_t extra = varint_size(size) - 1;
    std::memmove(body() + extra, body(), size);
    write_varint(size, length_);
    return end + extra;
  }

 private:
  std::uint8_t* length_;
};

}  // namespace tband::proto
