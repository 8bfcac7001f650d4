#include "common/buffered_output.hpp"

namespace tband {

BufferedOutput::BufferedOutput(std::FILE* file, std::string name)
    : file_(file),
      name_(std::move(name)),
      // Not zeroed: only what was written is read, and zeroing touched every
      // page of both megabytes even for a small output. The second buffer
      // comes with the writer thread: an output that fits one never has it.
      fill_(std::make_unique_for_overwrite<std::uint8_t[]>(kFirstSize)) {}

BufferedOutput::~BufferedOutput() {
  flush();
  if (writer_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    writer_.join();
  }
}

void BufferedOutput::write_raw(const std::uint8_t* data, std::size_t n) {
  if (!failed_.load() && std::fwrite(data, 1, n, file_) != n) {
    failed_.store(true);
  }
}

void BufferedOutput::wait_for_writer() {
  if (!writer_.joinable()) {
    return;
  }
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !busy_; });
}

void BufferedOutput::grow() {
  auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(kBufferSize);
  std::memcpy(bigger.get(), fill_.get(), used_);
  fill_ = std::move(bigger);
  capacity_ = kBufferSize;
}

void BufferedOutput::hand_over() {
  if (used_ == 0) {
    return;
  }
  if constexpr (!kWriterThread) {
    write_raw(fill_.get(), used_);  // no threads (WebAssembly without pthreads): written here
    written_ += used_;
    used_ = 0;
    return;
  }
  if (!writer_.joinable()) {
    pending_ = std::make_unique_for_overwrite<std::uint8_t[]>(kBufferSize);
    writer_ = std::thread([this] { writer_loop(); });
  }
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !busy_; });
  std::swap(fill_, pending_);
  pending_len_ = used_;
  written_ += used_;
  used_ = 0;
  busy_ = true;
  lock.unlock();
  cv_.notify_all();
}

void BufferedOutput::writer_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return busy_ || stop_; });
    if (!busy_) {
      return;  // stop_ and nothing left to write
    }
    lock.unlock();
    write_raw(pending_.get(), pending_len_);  // the caller does not touch pending_ while busy_
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

void BufferedOutput::flush() {
  wait_for_writer();
  if (used_ != 0) {
    write_raw(fill_.get(), used_);
    written_ += used_;
    used_ = 0;
  }
  if (!failed_.load() && file_ != nullptr && std::fflush(file_) != 0) {
    failed_.store(true);
  }
}

}  // namespace tband
