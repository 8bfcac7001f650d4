// An output file written through a large buffer, so converters can append a
// few bytes per event without a system call each time. Full buffers are
// written by a background thread while the next one fills (the kernel's copy
// into the page cache costs about a fifth of a conversion otherwise). Write
// errors (a full disk, a closed pipe) are remembered and reported at the end.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tband {

class BufferedOutput {
 public:
  static constexpr std::size_t kBufferSize = 1 << 20;
  /// The first buffer starts this small and grows to kBufferSize when it
  /// fills: a small output never maps a megabyte (which cost most of a run of
  /// the fuzz targets, converting small inputs by the million).
  static constexpr std::size_t kFirstSize = 64 * 1024;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  static constexpr bool kWriterThread = false;  // the WebAssembly build has no threads: full buffers written inline
#else
  static constexpr bool kWriterThread = true;
#endif

  /// Writes to `file`, which the caller keeps open; `name` is used in messages.
  BufferedOutput(std::FILE* file, std::string name);
  BufferedOutput(const BufferedOutput&) = delete;
  BufferedOutput& operator=(const BufferedOutput&) = delete;
  ~BufferedOutput();

  /// Room for at least n bytes at the returned pointer; commit() what was used.
  std::uint8_t* reserve(std::size_t n) {
    if (capacity_ - used_ < n) {
      if (capacity_ < kBufferSize) {
        grow();
      }
      if (kBufferSize - used_ < n) {
        hand_over();
        if (n > kBufferSize) {
          big_.resize(n);
          big_pending_ = big_.data();
          return big_pending_;
        }
      }
    }
    return fill_.get() + used_;
  }
  void commit(std::uint8_t* end) {
    if (big_pending_ != nullptr) {
      wait_for_writer();
      const auto n = static_cast<std::size_t>(end - big_pending_);
      write_raw(big_pending_, n);
      written_ += n;
      big_pending_ = nullptr;
      return;
    }
    used_ = static_cast<std::size_t>(end - fill_.get());
  }

  void write(const void* data, std::size_t n) {
    if (n == 0) {
      return;  // data may be nullptr then, which memcpy must not get
    }
    std::uint8_t* p = reserve(n);
    std::memcpy(p, data, n);
    commit(p + n);
  }
  void write(std::string_view s) { write(s.data(), s.size()); }

  /// Writes everything buffered so far and flushes the file.
  void flush();

  [[nodiscard]] bool failed() const noexcept { return failed_.load(); }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] std::uint64_t bytes_written() const noexcept { return written_ + used_; }

 private:
  void grow();             // the first buffer to kBufferSize, keeping what it holds
  void hand_over();        // the full buffer goes to the writer thread
  void wait_for_writer();  // until the writer thread is idle
  void write_raw(const std::uint8_t* data, std::size_t n);
  void writer_loop();

  std::FILE* file_;
  std::string name_;
  std::unique_ptr<std::uint8_t[]> fill_;     // being filled by the caller
  std::size_t capacity_ = kFirstSize;        // of fill_: kFirstSize, then kBufferSize
  std::unique_ptr<std::uint8_t[]> pending_;  // being written by the thread
  std::size_t used_ = 0;
  std::size_t pending_len_ = 0;
  std::uint64_t written_ = 0;  // handed to the file or the writer thread (caller's thread only)
  std::vector<std::uint8_t> big_;  // only for a single write larger than the buffer
  std::uint8_t* big_pending_ = nullptr;
  std::atomic<bool> failed_{false};  // set by write_raw, on either thread

  std::mutex mutex_;
  std::condition_variable cv_;
  bool busy_ = false;  // pending_ holds data the thread has not written yet
  bool stop_ = false;
  std::thread writer_;  // started at the first full buffer
};

}  // namespace tband
