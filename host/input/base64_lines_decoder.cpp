// --format base64: a firmware log as a UART console shows it. The firmware
// prints trace bytes as base64 lines between its ordinary log lines; a line
// that is entirely base64 (length a multiple of 4, '=' padding only at the
// end) is trace data, every other line is log text and is skipped.
#include <array>
#include <string>

#include "input/input_format.hpp"

namespace tband {

namespace {

constexpr std::size_t kMaxLine = 1 << 20;

constexpr std::array<std::int8_t, 256> make_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto kTable = make_table();

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Decodes `line` if it is a base64 line; false (and nothing appended) otherwise.
bool decode_line(std::string_view line, std::vector<std::uint8_t>* out) {
  if (line.empty() || line.size() % 4 != 0) {
    return false;
  }
  std::size_t pad = 0;
  if (line.back() == '=') ++pad;
  if (line.size() >= 2 && line[line.size() - 2] == '=') ++pad;
  for (std::size_t i = 0; i < line.size() - pad; ++i) {
    if (kTable[static_cast<unsigned char>(line[i])] < 0) {
      return false;
    }
  }
  if (out == nullptr) {
    return true;
  }
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < line.size() - pad; ++i) {
    acc = acc << 6 | static_cast<std::uint32_t>(kTable[static_cast<unsigned char>(line[i])]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return true;
}

class Base64LinesDecoder final : public ByteDecoder {
 public:
  void feed(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) override {
    for (const std::uint8_t c : in) {
      if (c == '\n') {
        end_line(out);
        continue;
      }
      if (line_.size() == kMaxLine) {
        throw InputFormatError("base64 input: line " + std::to_string(line_number_) + " is longer than " +
                               std::to_string(kMaxLine) + " bytes");
      }
      line_.push_back(static_cast<char>(c));
    }
  }
  void finish(std::vector<std::uint8_t>& out) override {
    if (!line_.empty()) {
      end_line(out);
    }
    if (data_lines_ == 0 && skipped_lines_ != 0) {
      throw InputFormatError("base64 input: none of the " + std::to_string(skipped_lines_) +
                             " lines is base64 trace data");
    }
  }
  [[nodiscard]] std::string note() const override {
    return std::to_string(data_lines_) + " base64 line(s) decoded, " + std::to_string(skipped_lines_) +
           " log line(s) skipped";
  }

 private:
  void end_line(std::vector<std::uint8_t>& out) {
    const std::string_view line = trim(line_);
    if (!line.empty()) {
      if (decode_line(line, &out)) {
        ++data_lines_;
      } else {
        ++skipped_lines_;
      }
    }
    line_.clear();
    ++line_number_;
  }

  std::string line_;
  std::uint64_t line_number_ = 1;
  std::uint64_t data_lines_ = 0;
  std::uint64_t skipped_lines_ = 0;
};

}  // namespace

std::unique_ptr<ByteDecoder> make_base64_lines_decoder() { return std::make_unique<Base64LinesDecoder>(); }

int sniff_base64_lines(std::span<const std::uint8_t> head) {
  // Text with at least one complete base64 line.
  std::size_t start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const std::uint8_t c = head[i];
    if (c == 0 || c >= 0x7F) {
      return 0;
    }
    if (c == '\n') {
      const std::string_view line = trim({reinterpret_cast<const char*>(head.data()) + start, i - start});
      if (decode_line(line, nullptr)) {
        return 50;
      }
      start = i + 1;
    }
  }
  const std::string_view last = trim({reinterpret_cast<const char*>(head.data()) + start, head.size() - start});
  return decode_line(last, nullptr) ? 50 : 0;
}

}  // namespace tband
