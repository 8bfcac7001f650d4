#include "input/input_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "postmortem/dump_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tband {

InputReader::InputReader(const InputSpec& spec, std::string_view format) : spec_(spec), raw_(kChunkSize) {
  if (spec_.is_stdin()) {
    fd_ = STDIN_FILENO;
  } else {
    fd_ = ::open(spec_.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      fail(std::strerror(errno));
    }
    owns_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      fail("is a directory");
    }
    if (S_ISREG(st.st_mode)) {
      size_ = static_cast<std::uint64_t>(st.st_size);
    }
  }
  detected_ = format == "auto";
  sniff_compression_of_head();
  raw_len_ = read_into(0, detected_);
  if (raw_len_ == 0) {
    fail(compression_ == Compression::kNone
             ? std::string{"empty input, no trace data"}
             : "empty input, no trace data in its " + std::string{compression_name(compression_)} + " data" +
                   (truncation_.empty() ? "" : " (" + truncation_ + ")"));
  }
  first_pending_ = true;
  if (detected_) {
    format_ = &detect_format();
  } else {
    format_ = find_input_format(format);
    if (format_ == nullptr) {
      fail("unknown input format '" + std::string{format} + "'");
    }
  }
  if (format_->make_decoder != nullptr) {
    decoder_ = format_->make_decoder();
  }
}

InputReader::~InputReader() {
  if (owns_fd_) {
    ::close(fd_);
  }
}

void InputReader::fail(const std::string& what) const { throw InputError(spec_.display_name() + ": " + what); }

std::size_t InputReader::read_raw() { return read_into(0, false); }

std::size_t InputReader::read_fd(std::uint8_t* to, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd_, to, size);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(std::string{"read failed: "} + std::strerror(errno));
    }
    raw_read_ += static_cast<std::size_t>(n);
    return static_cast<std::size_t>(n);
  }
}

// Reads the first 4 bytes (fewer at the end) and looks for a compressed
// format's magic; they are handed out first, decompressed or as they are.
void InputReader::sniff_compression_of_head() {
  constexpr std::size_t kMagic = 4;
  packed_.resize(kMagic);
  while (packed_len_ < kMagic) {
    const std::size_t n = read_fd(packed_.data() + packed_len_, kMagic - packed_len_);
    if (n == 0) {
      break;
    }
    packed_len_ += n;
  }
  compression_ = sniff_compression({packed_.data(), packed_len_});
  if (compression_ == Compression::kNone) {
    return;
  }
  packed_.resize(kChunkSize);  // the read size of compressed bytes
  try {
    decompressor_ = StreamDecompressor::make(compression_);
  } catch (const DecompressError& e) {
    fail(e.what());  // a build without decompression
  }
  decompressor_->give({packed_.data(), packed_len_});
}

std::size_t InputReader::read_into(std::size_t at, bool fill) {
  if (decompressor_) {
    return decompress_into(at, fill);
  }
  std::size_t got = 0;
  if (packed_len_ != 0) {  // the head read to sniff the compression: plain bytes
    got = std::min(packed_len_, raw_.size() - at);
    std::memcpy(raw_.data() + at, packed_.data(), got);
    std::memmove(packed_.data(), packed_.data() + got, packed_len_ - got);
    packed_len_ -= got;
    if (!size_ && !fill) {
      return got;
    }
  }
  while (at + got < raw_.size()) {
    const std::size_t n = read_fd(raw_.data() + at + got, raw_.size() - at - got);
    if (n == 0) {
      break;
    }
    got += n;
    if (!size_ && !fill) {
      break;  // a pipe: hand out what arrived instead of waiting for a full chunk
    }
  }
  return got;
}

std::size_t InputReader::decompress_into(std::size_t at, bool fill) {
  std::size_t got = 0;
  while (at + got < raw_.size()) {
    std::size_t n = 0;
    try {
      n = decompressor_->take({raw_.data() + at + got, raw_.size() - at - got});
    } catch (const DecompressError& e) {
      fail(e.what());
    }
    if (n != 0) {
      got += n;
      continue;
    }
    // Every compressed byte read is used: read more, unless a pipe should hand out what it has.
    if (packed_end_ || (!size_ && !fill && got != 0)) {
      break;
    }
    packed_len_ = read_fd(packed_.data(), packed_.size());
    if (packed_len_ == 0) {
      packed_end_ = true;
      truncation_ = decompressor_->finish();
      break;
    }
    decompressor_->give({packed_.data(), packed_len_});
  }
  return got;
}

// What the first bytes look like; a post-mortem block may lie beyond them
// in binary that is not COBS frames (a RAM dump), so that is searched on.
const InputFormat& InputReader::detect_format() {
  const std::span<const std::uint8_t> head{raw_.data(), raw_len_};
  const InputFormat* found = nullptr;
  try {
    found = &sniff_input_format(head);
  } catch (const InputFormatError& e) {
    fail(std::string{e.what()} + " (looked at the first " + std::to_string(raw_len_) + " bytes)");
  }
  if (found->name != "bin" || looks_like_cobs_frames(head)) {
    return *found;
  }
  const bool more = raw_len_ == raw_.size();  // a full first chunk: the input goes on
  bool found_block = false;
  if (more) {
    found_block = !size_ ? pipe_delivers_block() : decompressor_ ? compressed_file_holds_block() : file_holds_block();
  }
  if (found_block) {
    return *find_input_format("postmortem");
  }
  detection_note_ = "binary but mostly not COBS frames, and no post-mortem block in it: read as raw trace bytes "
                    "(--format bin); if it is something else, pass --format";
  return *found;
}

// Searches the rest of a regular file (the head had none), leaving its read position alone.
bool InputReader::file_holds_block() const {
  constexpr std::size_t kStep = std::size_t{1} << 20;
  constexpr std::size_t kOverlap = postmortem::kHeaderCheckBytes;
  std::vector<std::uint8_t> window(kStep + kOverlap);
  // From where the head's search stopped, 4-byte aligned as the block is.
  for (std::uint64_t at = (raw_len_ - kOverlap) & ~std::uint64_t{3}; at < *size_; at += kStep) {
    std::size_t got = 0;
    while (got < window.size()) {
      const ssize_t n = ::pread(fd_, window.data() + got, window.size() - got, static_cast<off_t>(at + got));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    if (postmortem::find_block_header({window.data(), got})) {
      return true;
    }
    if (got < window.size()) {
      break;
    }
  }
  return false;
}

// The same search in a compressed file: decompressed once more from its
// start through a window of its own (memory stays flat), leaving the
// reading decompressor alone. Bad data ends the search; reading reports it.
bool InputReader::compressed_file_holds_block() const {
  constexpr std::size_t kStep = std::size_t{1} << 20;
  constexpr std::size_t kOverlap = postmortem::kHeaderCheckBytes;  // a multiple of 4: windows stay aligned
  static_assert(kOverlap % 4 == 0);
  const std::unique_ptr<StreamDecompressor> search = StreamDecompressor::make(compression_);
  std::vector<std::uint8_t> packed(kChunkSize);
  std::vector<std::uint8_t> window(kStep + kOverlap);
  std::uint64_t file_at = 0;
  std::size_t filled = 0;
  bool end = false;
  try {
    while (!end) {
      const std::size_t n = search->take({window.data() + filled, window.size() - filled});
      filled += n;
      if (n == 0) {
        ssize_t got = 0;
        do {
          got = ::pread(fd_, packed.data(), packed.size(), static_cast<off_t>(file_at));
        } while (got < 0 && errno == EINTR);
        end = got <= 0;
        file_at += got > 0 ? static_cast<std::uint64_t>(got) : 0;
        search->give({packed.data(), got > 0 ? static_cast<std::size_t>(got) : 0});
      }
      if (filled == window.size() || (end && filled != 0)) {
        if (postmortem::find_block_header({window.data(), filled})) {
          return true;
        }
        const std::size_t keep = std::min(filled, kOverlap);
        std::memmove(window.data(), window.data() + filled - keep, keep);
        filled = keep;
      }
    }
  } catch (const DecompressError&) {
    return false;
  }
  return false;
}

// Reads on from a pipe, keeping everything (a dump is decoded whole anyway),
// until a block header turns up, the input ends, or kMaxDetectionBuffer.
bool InputReader::pipe_delivers_block() {
  constexpr std::size_t kOverlap = postmortem::kHeaderCheckBytes;
  while (raw_len_ < kMaxDetectionBuffer) {
    const std::size_t searched_to = (raw_len_ - kOverlap) & ~std::size_t{3};
    raw_.resize(raw_len_ + kChunkSize);
    const std::size_t n = read_into(raw_len_, true);
    raw_len_ += n;
    if (postmortem::find_block_header({raw_.data() + searched_to, raw_len_ - searched_to})) {
      return true;
    }
    if (n < kChunkSize) {
      return false;  // the end
    }
  }
  return false;
}

std::string InputReader::decoder_note() const {
  std::string note = decoder_ ? decoder_->note() : std::string{};
  if (compression_ != Compression::kNone) {
    std::string packed = std::string{compression_name(compression_)} + "-compressed";
    if (const std::string skipped = decompressor_ ? decompressor_->note() : std::string{}; !skipped.empty()) {
      packed += " (" + skipped + ")";
    }
    note = packed + (note.empty() ? "" : "; " + note);
  }
  if (!detection_note_.empty()) {
    note += (note.empty() ? "" : "; ") + detection_note_;
  }
  return note;
}

std::span<const std::uint8_t> InputReader::next() {
  while (!at_end_) {
    std::size_t n = 0;
    if (first_pending_) {
      first_pending_ = false;
      n = raw_len_;
    } else {
      if (raw_.size() > kChunkSize) {  // grown while detecting the format; handed out by now
        raw_.resize(kChunkSize);
        raw_.shrink_to_fit();
      }
      n = read_raw();
    }
    try {
      if (n == 0) {
        at_end_ = true;
        if (decoder_) {
          decoded_.clear();
          decoder_->finish(decoded_);
          if (!decoded_.empty()) {
            return decoded_;
          }
        }
        break;
      }
      if (!decoder_) {
        return {raw_.data(), n};
      }
      decoded_.clear();
      decoder_->feed({raw_.data(), n}, decoded_);
      if (!decoded_.empty()) {
        return decoded_;
      }
    } catch (const InputFormatError& e) {
      if (detected_ && format_->name == "postmortem") {
        fail(std::string{e.what()} +
             " (taken for a post-mortem dump by --format auto; if it is a raw trace, pass --format bin)");
      }
      fail(e.what());
    }
  }
  return {};
}

void check_inputs_readable(const std::vector<InputSpec>& inputs) {
  for (const InputSpec& spec : inputs) {
    if (spec.is_stdin()) {
      continue;
    }
    struct stat st {};
    if (::stat(spec.path.c_str(), &st) != 0) {
      throw InputError(spec.display_name() + ": " + std::strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
      throw InputError(spec.display_name() + ": is a directory");
    }
    if (!S_ISREG(st.st_mode)) {
      // A FIFO or a device: asked, not opened (see the header).
      if (::faccessat(AT_FDCWD, spec.path.c_str(), R_OK, AT_EACCESS) != 0) {
        throw InputError(spec.display_name() + ": " + std::strerror(errno));
      }
      continue;
    }
    const int fd = ::open(spec.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      throw InputError(spec.display_name() + ": " + std::strerror(errno));
    }
    ::close(fd);
  }
}

}  // namespace tband
