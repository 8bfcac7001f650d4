// Fuzz target for the text input formats: the hex decoder and the base64-log
// decoder on the same bytes, and format sniffing. Invariants checked on every
// input (a violation traps):
//  - no crash, out-of-bounds access or undefined behaviour (ASan, UBSan);
//  - each decoder gives trace bytes or throws InputFormatError with a one-line
//    message, nothing else;
//  - feeding the input whole or in chunks (of a size taken from the input)
//    gives the same bytes, the same error, the same note;
//  - hex: the output has one byte per two digits; base64: at most three bytes
//    per four characters;
//  - sniffing picks a format or says none fits, and a format that claims the
//    input has a decoder of that name.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "input/input_format.hpp"

namespace {

void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

struct Decoded {
  bool ok = false;
  std::string error_or_note;
  std::vector<std::uint8_t> bytes;
  bool operator==(const Decoded&) const = default;
};

Decoded decode(tband::ByteDecoder& decoder, std::span<const std::uint8_t> in, std::size_t chunk) {
  Decoded d;
  try {
    for (std::size_t at = 0; at < in.size(); at += chunk) {
      decoder.feed(in.subspan(at, std::min(chunk, in.size() - at)), d.bytes);
    }
    decoder.finish(d.bytes);
  } catch (const tband::InputFormatError& e) {
    d.error_or_note = e.what();
    require(!d.error_or_note.empty() && d.error_or_note.find('\n') == std::string::npos);
    d.bytes.clear();  // what came before the error is not compared: chunking moves it
    return d;
  }
  d.ok = true;
  d.error_or_note = decoder.note();
  return d;
}

Decoded both_ways(std::unique_ptr<tband::ByteDecoder> (*make)(), std::span<const std::uint8_t> in, std::size_t chunk) {
  auto whole_decoder = make();
  auto chunked_decoder = make();
  const Decoded whole = decode(*whole_decoder, in, in.empty() ? 1 : in.size());
  const Decoded chunked = decode(*chunked_decoder, in, chunk);
  require(whole == chunked);
  return whole;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> in{data, size};
  const std::size_t chunk = size == 0 ? 1 : 1 + data[size - 1] % 17;

  const Decoded hex = both_ways(tband::make_hex_decoder, in, chunk);
  if (hex.ok) {
    const auto digits = static_cast<std::size_t>(std::count_if(in.begin(), in.end(), [](std::uint8_t c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }));
    require(hex.bytes.size() * 2 == digits);
  }
  const Decoded base64 = both_ways(tband::make_base64_lines_decoder, in, chunk);
  if (base64.ok) {
    require(base64.bytes.size() <= size / 4 * 3 + 3);
  }

  try {
    const tband::InputFormat& format = tband::sniff_input_format(in);
    require(tband::find_input_format(format.name) == &format);
    require(format.sniff(in) > 0);
  } catch (const tband::InputFormatError& e) {
    require(!std::string{e.what()}.empty());
  }
  (void)tband::sniff_hex(in);
  (void)tband::sniff_base64_lines(in);
  return 0;
}
