// Reads one input in chunks and hands out its trace bytes: the file (or
// stdin) through the input format's decoder. Memory stays at a few chunks
// however long the input is.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/uninitialized_bytes.hpp"
#include "input/decompressor.hpp"
#include "input/input_format.hpp"
#include "input/input_spec.hpp"

namespace tband {

/// An input that cannot be read at all: missing, unreadable, empty, or not
/// in its format. The message is one line and names the input.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InputReader {
 public:
  static constexpr std::size_t kChunkSize = 64 * 1024;
  static constexpr std::size_t kMaxDetectionBuffer = std::size_t{256} << 20;

  /// Opens the input; a zstd or gzip file (or pipe) is decompressed as it
  /// is read, recognised by its magic bytes, and the format applies to what
  /// it holds. Format "auto" looks at the first kChunkSize bytes (on
  /// a pipe it waits for them, or the end); binary that is not COBS frames
  /// is searched further for a post-mortem block: the rest of a file, or
  /// what a pipe delivers, buffered, up to kMaxDetectionBuffer. Throws InputError.
  InputReader(const InputSpec& spec, std::string_view format);
  ~InputReader();
  InputReader(const InputReader&) = delete;
  InputReader& operator=(const InputReader&) = delete;

  /// The next trace bytes, valid until the next call; empty at the end.
  /// Throws InputError.
  std::span<const std::uint8_t> next();

  [[nodiscard]] const InputSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] std::string_view format_name() const noexcept { return format_->name; }
  /// Bytes read from the file so far (compressed bytes for a compressed
  /// input), and its size when known (not for pipes).
  [[nodiscard]] std::uint64_t raw_bytes_read() const noexcept { return raw_read_; }
  [[nodiscard]] std::optional<std::uint64_t> raw_size() const noexcept { return size_; }
  /// Notes for the summary: the decoder's, and what --format auto decided on a doubtful input.
  [[nodiscard]] std::string decoder_note() const;
  /// The compression the input was read through (kNone for most).
  [[nodiscard]] Compression compression() const noexcept { return compression_; }
  /// After the end: a compressed input cut short inside a frame says so here
  /// (one line naming the byte offset; what came before was handed out).
  [[nodiscard]] const std::string& truncation() const noexcept { return truncation_; }

 private:
  std::size_t read_raw();  // fills raw_, returns the byte count (0 at end)
  // Reads into raw_ from `at` on; on a pipe, until raw_ is full or the end when `fill`.
  std::size_t read_into(std::size_t at, bool fill);
  // read(2) on the input, with EINTR and errors handled; 0 at the end.
  std::size_t read_fd(std::uint8_t* to, std::size_t size);
  // Fills raw_ from `at` on with decompressed bytes, as read_into() does.
  std::size_t decompress_into(std::size_t at, bool fill);
  void sniff_compression_of_head();
  const InputFormat& detect_format();
  bool file_holds_block() const;
  bool compressed_file_holds_block() const;
  bool pipe_delivers_block();
  [[noreturn]] void fail(const std::string& what) const;

  InputSpec spec_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::optional<std::uint64_t> size_;
  std::uint64_t raw_read_ = 0;
  const InputFormat* format_ = nullptr;
  std::unique_ptr<ByteDecoder> decoder_;
  UninitializedBytes raw_;  // filled by read(2) or the decompressor
  std::size_t raw_len_ = 0;
  bool first_pending_ = false;  // raw_ holds the sniffed first chunk, not yet handed out
  bool at_end_ = false;
  bool detected_ = false;       // the format came from --format auto
  std::string detection_note_;  // why --format auto chose as it did, when in doubt
  std::vector<std::uint8_t> decoded_;
  Compression compression_ = Compression::kNone;
  std::unique_ptr<StreamDecompressor> decompressor_;
  // The first bytes, read to sniff the compression; then, for a compressed
  // input, the compressed bytes read and not yet all decompressed.
  UninitializedBytes packed_;
  std::size_t packed_len_ = 0;
  bool packed_end_ = false;
  std::string truncation_;
};

/// Throws InputError for an input that is missing, unreadable or a folder:
/// done before any output is touched, so a typo in an input path costs no
/// output file. Only a regular file is opened for the check: opening a FIFO
/// wakes its writer, which then loses its pipe when the check closes it.
void check_inputs_readable(const std::vector<InputSpec>& inputs);

}  // namespace tband
