// Input formats: how the bytes of a file become the trace's COBS byte stream.
// Each format is one entry in a table (input_format.cpp): a name for
// --format, a sniffing function for --format auto, and a factory for its
// decoder. Adding a format is writing a ByteDecoder and adding one entry.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tband {

/// Input that is not valid in its format; the message names the place.
class InputFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Turns a format's raw bytes into trace bytes, chunk by chunk (a call per
/// chunk, not per event, so a virtual call costs nothing here).
class ByteDecoder {
 public:
  virtual ~ByteDecoder() = default;
  /// Appends the trace bytes decoded from `in` to `out`. Throws InputFormatError.
  virtual void feed(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) = 0;
  /// The input ended: flush or reject what is left.
  virtual void finish(std::vector<std::uint8_t>& out) = 0;
  /// Extra line for the summary, e.g. how many log lines were skipped.
  [[nodiscard]] virtual std::string note() const { return {}; }
};

struct InputFormat {
  std::string_view name;
  std::string_view description;
  /// How sure the format is that `head` (the first bytes) is its kind: 0 (no) to 100.
  int (*sniff)(std::span<const std::uint8_t> head);
  /// A decoder; nullptr means the bytes are the trace as they are.
  std::unique_ptr<ByteDecoder> (*make_decoder)();
};

/// Every format, in the order --help lists them.
[[nodiscard]] std::span<const InputFormat> input_formats();
[[nodiscard]] const InputFormat* find_input_format(std::string_view name);
/// The format that claims `head` most strongly. Throws InputFormatError when none does.
[[nodiscard]] const InputFormat& sniff_input_format(std::span<const std::uint8_t> head);

/// Whether most of `head` (its complete frames) is well-formed COBS frames:
/// a raw trace, rather than a RAM dump that merely holds zeros.
[[nodiscard]] bool looks_like_cobs_frames(std::span<const std::uint8_t> head);

std::unique_ptr<ByteDecoder> make_hex_decoder();
std::unique_ptr<ByteDecoder> make_base64_lines_decoder();
std::unique_ptr<ByteDecoder> make_postmortem_decoder();
int sniff_hex(std::span<const std::uint8_t> head);
int sniff_base64_lines(std::span<const std::uint8_t> head);
int sniff_postmortem(std::span<const std::uint8_t> head);
int sniff_threadx(std::span<const std::uint8_t> head);

}  // namespace tband
