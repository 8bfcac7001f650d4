// Appends encoded events to a file through a buffer. The file is written
// through a temporary file and replaces the destination only when complete.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/output_file.hpp"
#include "tband_encode.hpp"

namespace tband::tools {

class TraceFile {
 public:
  explicit TraceFile(const std::string& path) : out_(path), file_(out_.file()) { buf_.reserve(1 << 20); }
  /// Complete unless an exception is on its way: then the destination stays
  /// as it was.
  ~TraceFile() {
    if (std::uncaught_exceptions() > exceptions_at_start_) {
      return;
    }
    try {
      flush();
      out_.commit();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tband_make_trace: %s\n", e.what());
      std::exit(1);
    }
  }
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  /// add([](std::uint8_t* b) { return enc::encode_...(b, ...); })
  template <class Encode>
  void add(Encode&& encode) {
    std::array<std::uint8_t, enc::kMaxFramedLen> frame{};
    const std::size_t n = encode(frame.data());
    buf_.insert(buf_.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(n));
    ++events_;
    if (buf_.size() > (1 << 20) - enc::kMaxFramedLen) {
      flush();
    }
  }
  void raw(const std::vector<std::uint8_t>& bytes) { buf_.insert(buf_.end(), bytes.begin(), bytes.end()); }
  void flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      throw std::runtime_error(out_.path() + ": write failed");
    }
    buf_.clear();
  }
  [[nodiscard]] std::uint64_t events() const noexcept { return events_; }

 private:
  OutputFile out_;
  std::FILE* file_;
  int exceptions_at_start_ = std::uncaught_exceptions();
  std::vector<std::uint8_t> buf_;
  std::uint64_t events_ = 0;
};

}  // namespace tband::tools
