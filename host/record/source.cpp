// Sources other than TCP (tcp_source.cpp): serial ports, stdin, followed files.
#include "record/source.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/serial_port.hpp"

namespace tband::record {

std::unique_ptr<Source> make_tcp_source(const SourceSpec& spec);  // tcp_source.cpp

ReadResult read_fd(int fd, std::span<std::uint8_t> buffer) {
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      return {ReadResult::kData, static_cast<std::size_t>(n), {}};
    }
    if (n == 0) {
      return {ReadResult::kEnded, 0, "end of input"};
    }
    if (errno == EINTR) {
      continue;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return {ReadResult::kWouldBlock, 0, {}};
    }
    // EIO: a serial adapter unplugged, or a pseudo-terminal's other end closed.
    return {ReadResult::kEnded, 0, std::strerror(errno)};
  }
}

long Source::write_some(const std::uint8_t*, std::size_t) noexcept {
  errno = EBADF;
  return -1;
}

void Source::send(std::span<const std::uint8_t> bytes, int timeout_ms) {
  if (!writable()) {
    throw SourceError(spec().text + ": cannot send commands: only tcp: and serial: sources carry them to the target");
  }
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const long n = write_some(bytes.data() + sent, bytes.size() - sent);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd fd{poll_fd(), POLLOUT, 0};
      if (::poll(&fd, 1, timeout_ms) > 0) {
        continue;
      }
      throw SourceError(spec().text + ": cannot send commands: the link took no bytes for " +
                        std::to_string(timeout_ms) + " ms");
    }
    throw SourceError(spec().text + ": cannot send commands: " + std::strerror(n < 0 ? errno : EIO));
  }
}

namespace {

bool is_missing(int error) noexcept { return error == ENOENT || error == ENODEV || error == ENXIO; }

class SerialSource final : public Source {
 public:
  using Source::Source;
  ~SerialSource() override { close(); }

  OpenStatus open() override {
    fd_ = ::open(spec().path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) {
      if (is_missing(errno)) {
        last_problem_ = spec().path + ": " + std::strerror(errno);
        return OpenStatus::kNotYet;  // a USB adapter not plugged in (yet)
      }
      const std::string hint = errno == EACCES ? " (is your user in the dialout group?)" : "";
      throw SourceError(spec().text + ": cannot open " + spec().path + ": " + std::strerror(errno) + hint);
    }
    try {
      configure_serial_port(fd_, spec().text, spec().baud, spec().rts_cts);
    } catch (const std::runtime_error& e) {
      close();
      throw SourceError(e.what());
    }
    return OpenStatus::kOpen;
  }
  ReadResult read(std::span<std::uint8_t> buffer) override { return read_fd(fd_, buffer); }
  void close() override {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  [[nodiscard]] int poll_fd() const noexcept override { return fd_; }
  [[nodiscard]] bool writable() const noexcept override { return true; }
  [[nodiscard]] short poll_events() const noexcept override { return POLLIN; }

 private:
  long write_some(const std::uint8_t* data, std::size_t len) noexcept override { return ::write(fd_, data, len); }

  int fd_ = -1;
};

// Standard input: a pipe or a file (a terminal is refused by the command).
// Made non-blocking while recorded; its flags are restored afterwards.
class StdinSource final : public Source {
 public:
  using Source::Source;
  ~StdinSource() override { close(); }

  OpenStatus open() override {
    saved_flags_ = ::fcntl(STDIN_FILENO, F_GETFL);
    if (saved_flags_ < 0) {
      throw SourceError("stdin: " + std::string{std::strerror(errno)});
    }
    ::fcntl(STDIN_FILENO, F_SETFL, saved_flags_ | O_NONBLOCK);
    open_ = true;
    return OpenStatus::kOpen;
  }
  ReadResult read(std::span<std::uint8_t> buffer) override { return read_fd(STDIN_FILENO, buffer); }
  void close() override {
    if (open_) {
      ::fcntl(STDIN_FILENO, F_SETFL, saved_flags_);
      open_ = false;
    }
  }
  [[nodiscard]] int poll_fd() const noexcept override { return STDIN_FILENO; }
  [[nodiscard]] short poll_events() const noexcept override { return POLLIN; }

 private:
  int saved_flags_ = 0;
  bool open_ = false;
};

// A file another program appends to (an emulator's -serial file:, a logger):
// read to its end, then woken by inotify when it changes. It never ends by
// itself; a file cut shorter is read again from its start.
class FileSource final : public Source {
 public:
  using Source::Source;
  ~FileSource() override { close(); }

  OpenStatus open() override {
    fd_ = ::open(spec().path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      if (errno == ENOENT) {
        last_problem_ = spec().path + ": " + std::strerror(errno);
        return OpenStatus::kNotYet;
      }
      throw SourceError(spec().text + ": cannot open " + spec().path + ": " + std::strerror(errno));
    }
    notify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (notify_fd_ < 0 || ::inotify_add_watch(notify_fd_, spec().path.c_str(), IN_MODIFY | IN_CLOSE_WRITE) < 0) {
      const std::string error = std::strerror(errno);
      close();
      throw SourceError(spec().text + ": cannot watch " + spec().path + ": " + error);
    }
    offset_ = 0;
    return OpenStatus::kOpen;
  }
  ReadResult read(std::span<std::uint8_t> buffer) override {
    std::uint8_t events[4096];
    while (::read(notify_fd_, events, sizeof events) > 0) {
    }
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && static_cast<std::uint64_t>(st.st_size) < offset_) {
      ::lseek(fd_, 0, SEEK_SET);  // truncated and rewritten: start again
      offset_ = 0;
    }
    ReadResult r = read_fd(fd_, buffer);
    if (r.state == ReadResult::kEnded && r.reason == "end of input") {
      return {ReadResult::kWouldBlock, 0, {}};  // at its end for now: wait for inotify
    }
    offset_ += r.bytes;
    return r;
  }
  void close() override {
    for (int* fd : {&fd_, &notify_fd_}) {
      if (*fd >= 0) {
        ::close(*fd);
        *fd = -1;
      }
    }
  }
  [[nodiscard]] int poll_fd() const noexcept override { return notify_fd_; }
  [[nodiscard]] short poll_events() const noexcept override { return POLLIN; }

 private:
  int fd_ = -1;
  int notify_fd_ = -1;
  std::uint64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<Source> make_source(const SourceSpec& spec) {
  switch (spec.kind) {
    case SourceKind::kSerial:
      return std::make_unique<SerialSource>(spec);
    case SourceKind::kTcp:
      return make_tcp_source(spec);
    case SourceKind::kStdin:
      return std::make_unique<StdinSource>(spec);
    case SourceKind::kFile:
      return std::make_unique<FileSource>(spec);
  }
  throw SourceError(spec.text + ": unknown source kind");
}

}  // namespace tband::record
