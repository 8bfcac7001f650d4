// An output file written through a large buffer, so converters can append a
// few bytes per event without a system call each time. Write errors (a full
// disk, a closed pipe) are remembered and reported once at the end.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tband {

class BufferedOutput {
 public:
  static constexpr std::size_t kBufferSize = 1 << 20;

  /// Writes to `file`, which the caller keeps open; `name` is used in messages.
  BufferedOutput(std::FILE* file, std::string name)
      : file_(file), name_(std::move(name)), buf_(std::make_unique<std::uint8_t[]>(kBufferSize)) {}
  BufferedOutput(const BufferedOutput&) = delete;
  BufferedOutput& operator=(const BufferedOutput&) = delete;
  ~BufferedOutput() { flush(); }

  /// Room for at least n bytes at the returned pointer; commit() what was used.
  std::uint8_t* reserve(std::size_t n) {
    if (kBufferSize - used_ < n) {
      flush();
      if (n > kBufferSize) {
        big_.resize(n);
        big_pending_ = big_.data();
        return big_pending_;
      }
    }
    return buf_.get() + used_;
  }
  void commit(std::uint8_t* end) {
    if (big_pending_ != nullptr) {
      write_raw(big_pending_, static_cast<std::size_t>(end - big_pending_));
      big_pending_ = nullptr;
      return;
    }
    used_ = static_cast<std::size_t>(end - buf_.get());
  }

  void write(const void* data, std::size_t n) {
    std::uint8_t* p = reserve(n);
    std::memcpy(p, data, n);
    commit(p + n);
  }
  void write(std::string_view s) { write(s.data(), s.size()); }

  void flush() {
    if (used_ != 0) {
      write_raw(buf_.get(), used_);
      used_ = 0;
    }
    if (!failed_ && file_ != nullptr && std::fflush(file_) != 0) {
      failed_ = true;
    }
  }

  [[nodiscard]] bool failed() const noexcept { return failed_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] std::uint64_t bytes_written() const noexcept { return written_ + used_; }

 private:
  void write_raw(const std::uint8_t* data, std::size_t n) {
    if (!failed_ && std::fwrite(data, 1, n, file_) != n) {
      failed_ = true;
    }
    written_ += n;
  }

  std::FILE* file_;
  std::string name_;
  std::unique_ptr<std::uint8_t[]> buf_;
  std::size_t used_ = 0;
  std::uint64_t written_ = 0;
  std::vector<std::uint8_t> big_;  // only for a single write larger than the buffer
  std::uint8_t* big_pending_ = nullptr;
  bool failed_ = false;
};

}  // namespace tband
