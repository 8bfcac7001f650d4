// Appends encoded events to a file through a buffer.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "tband_encode.hpp"

namespace tband::tools {

class TraceFile {
 public:
  explicit TraceFile(const std::string& path) : file_(std::fopen(path.c_str(), "wb")) {
    if (file_ == nullptr) {
      throw std::runtime_error(path + ": cannot create");
    }
    buf_.reserve(1 << 20);
  }
  ~TraceFile() {
    flush();
    std::fclose(file_);
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
      throw std::runtime_error("write failed");
    }
    buf_.clear();
  }
  [[nodiscard]] std::uint64_t events() const noexcept { return events_; }

 private:
  std::FILE* file_;
  std::vector<std::uint8_t> buf_;
  std::uint64_t events_ = 0;
};

}  // namespace tband::tools
