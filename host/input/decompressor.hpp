// Compressed inputs (zstd, gzip) decompressed as they are read: recognised
// by their magic bytes, whatever the file is called, and decoded a piece at a
// time into a buffer of the caller's, so memory stays flat however large the
// input or however far a frame expands.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tband {

enum class Compression : std::uint8_t { kNone, kZstd, kGzip };

/// The compression whose magic `head` starts with (kNone when too short to tell).
[[nodiscard]] Compression sniff_compression(std::span<const std::uint8_t> head) noexcept;
/// "zstd", "gzip" or "none".
[[nodiscard]] std::string_view compression_name(Compression c) noexcept;

/// Compressed data that is not valid (not a truncation): the message names
/// the compressed byte offset where it went wrong.
class DecompressError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StreamDecompressor {
 public:
  /// A decompressor for `c` (not kNone).
  [[nodiscard]] static std::unique_ptr<StreamDecompressor> make(Compression c);
  virtual ~StreamDecompressor() = default;

  /// Hands over the next compressed bytes, once the ones before are used up
  /// (take() returned 0). They must stay valid until then.
  void give(std::span<const std::uint8_t> in) noexcept {
    in_ = in;
    in_pos_ = 0;
  }
  /// Decompresses into `out`; returns the byte count, 0 only when every
  /// byte given is used up and nothing is left to hand out. Throws DecompressError.
  virtual std::size_t take(std::span<std::uint8_t> out) = 0;
  /// The compressed input ended (after take() returned 0). Empty when it
  /// ended between frames (or members); else a one-line warning naming the
  /// byte offset of the frame it cut short: what came before was handed out.
  [[nodiscard]] virtual std::string finish() = 0;
  /// What the input's summary should say about bytes skipped on purpose
  /// (gzip's zero padding); empty when nothing was.
  [[nodiscard]] virtual std::string note() const { return {}; }
  /// Compressed bytes used so far.
  [[nodiscard]] std::uint64_t consumed() const noexcept { return consumed_; }

 protected:
  std::span<const std::uint8_t> in_;
  std::size_t in_pos_ = 0;
  std::uint64_t consumed_ = 0;
};

}  // namespace tband
