// --format hex: two hex digits per byte, whitespace anywhere between bytes
// (as a terminal or a debugger's memory view prints them).
#include <cctype>
#include <string>

#include "input/input_format.hpp"

namespace tband {

namespace {

int hex_value(std::uint8_t c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_space(std::uint8_t c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

class HexDecoder final : public ByteDecoder {
 public:
  void feed(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) override {
    for (const std::uint8_t c : in) {
      const int v = hex_value(c);
      if (v >= 0) {
        if (high_ < 0) {
          high_ = v;
        } else {
          out.push_back(static_cast<std::uint8_t>(high_ << 4 | v));
          high_ = -1;
        }
      } else if (is_space(c)) {
        if (high_ >= 0) {
          throw InputFormatError("hex input: single hex digit before whitespace at line " + std::to_string(line_));
        }
      } else {
        throw InputFormatError("hex input: unexpected character " + describe(c) + " at line " + std::to_string(line_) +
                               " (byte " + std::to_string(offset_) + ")");
      }
      if (c == '\n') {
        ++line_;
      }
      ++offset_;
    }
  }
  void finish(std::vector<std::uint8_t>&) override {
    if (high_ >= 0) {
      throw InputFormatError("hex input: odd number of hex digits (the last byte has one digit)");
    }
  }

 private:
  static std::string describe(std::uint8_t c) {
    if (c >= 0x20 && c < 0x7F) {
      return std::string{"'"} + static_cast<char>(c) + "'";
    }
    static constexpr char kDigits[] = "0123456789ABCDEF";
    return std::string{"0x"} + kDigits[c >> 4] + kDigits[c & 0xF];
  }

  int high_ = -1;  // first digit of a byte, -1 if none pending
  std::uint64_t line_ = 1;
  std::uint64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<ByteDecoder> make_hex_decoder() { return std::make_unique<HexDecoder>(); }

int sniff_hex(std::span<const std::uint8_t> head) {
  std::size_t digits = 0;
  for (const std::uint8_t c : head) {
    if (hex_value(c) >= 0) {
      ++digits;
    } else if (!is_space(c)) {
      return 0;
    }
  }
  return digits >= 2 ? 80 : 0;
}

}  // namespace tband
