#include "input/input_reader.hpp"

#include <cerrno>
#include <cstring>

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
  raw_len_ = read_raw();
  if (raw_len_ == 0) {
    fail("empty input, no trace data");
  }
  first_pending_ = true;
  if (format == "auto") {
    try {
      format_ = &sniff_input_format({raw_.data(), raw_len_});
    } catch (const InputFormatError& e) {
      fail(e.what());
    }
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

std::size_t InputReader::read_raw() {
  std::size_t got = 0;
  while (got < raw_.size()) {
    const ssize_t n = ::read(fd_, raw_.data() + got, raw_.size() - got);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail(std::string{"read failed: "} + std::strerror(errno));
    }
    if (n == 0) {
      break;
    }
    got += static_cast<std::size_t>(n);
    if (!size_) {
      break;  // a pipe: hand out what arrived instead of waiting for a full chunk
    }
  }
  raw_read_ += got;
  return got;
}

std::span<const std::uint8_t> InputReader::next() {
  while (!at_end_) {
    std::size_t n = 0;
    if (first_pending_) {
      first_pending_ = false;
      n = raw_len_;
    } else {
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
    const int fd = ::open(spec.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      throw InputError(spec.display_name() + ": " + std::strerror(errno));
    }
    struct stat st {};
    const bool folder = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    ::close(fd);
    if (folder) {
      throw InputError(spec.display_name() + ": is a directory");
    }
  }
}

}  // namespace tband
