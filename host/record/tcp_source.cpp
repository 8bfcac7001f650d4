// A TCP connection to a server that streams the trace: OpenOCD's or pyOCD's
// RTT server, J-Link's RTT telnet port, QEMU's -serial tcp:...,server.
// Connects without blocking; a refused or unreachable server is "not yet".
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "record/source.hpp"

namespace tband::record {

namespace {

class TcpSource final : public Source {
 public:
  using Source::Source;
  ~TcpSource() override { close(); }

  OpenStatus open() override {
    if (fd_ >= 0 && connecting_) {
      return finish_connect();
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int status = ::getaddrinfo(spec().host.c_str(), spec().port.c_str(), &hints, &found);
    if (status != 0) {
      if (status == EAI_AGAIN) {
        last_problem_ = spec().host + ": " + ::gai_strerror(status);
        return OpenStatus::kNotYet;
      }
      throw SourceError(spec().text + ": cannot resolve " + spec().host + ":" + spec().port + ": " +
                        ::gai_strerror(status));
    }
    // The first address; a name with several (localhost: ::1 and 127.0.0.1)
    // moves on to the next one on the next attempt.
    int index = 0;
    addrinfo* chosen = found;
    for (addrinfo* a = found; a != nullptr; a = a->ai_next, ++index) {
      if (index == next_address_) {
        chosen = a;
      }
    }
    next_address_ = index == 0 ? 0 : (next_address_ + 1) % index;
    fd_ = ::socket(chosen->ai_family, chosen->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, chosen->ai_protocol);
    if (fd_ < 0) {
      const std::string error = std::strerror(errno);
      ::freeaddrinfo(found);
      throw SourceError(spec().text + ": cannot create a socket: " + error);
    }
    const int rc = ::connect(fd_, chosen->ai_addr, chosen->ai_addrlen);
    const int error = errno;
    ::freeaddrinfo(found);
    if (rc == 0) {
      return connected();
    }
    if (error == EINPROGRESS) {
      connecting_ = true;
      return OpenStatus::kPending;
    }
    return not_yet(error);
  }

  ReadResult read(std::span<std::uint8_t> buffer) override { return read_fd(fd_, buffer); }
  void close() override {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
    connecting_ = false;
  }
  [[nodiscard]] int poll_fd() const noexcept override { return fd_; }
  [[nodiscard]] short poll_events() const noexcept override { return connecting_ ? POLLOUT : POLLIN; }
  [[nodiscard]] bool writable() const noexcept override { return true; }

 private:
  // MSG_NOSIGNAL: a closed connection is an error here, not SIGPIPE.
  long write_some(const std::uint8_t* data, std::size_t len) noexcept override {
    return ::send(fd_, data, len, MSG_NOSIGNAL);
  }

  OpenStatus finish_connect() {
    int error = 0;
    socklen_t len = sizeof error;
    if (::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &len) != 0) {
      error = errno;
    }
    if (error == 0) {
      return connected();
    }
    return not_yet(error);
  }
  OpenStatus connected() {
    connecting_ = false;
    last_problem_.clear();
    return OpenStatus::kOpen;
  }
  OpenStatus not_yet(int error) {
    close();
    last_problem_ = spec().host + ":" + spec().port + ": " + std::strerror(error);
    return OpenStatus::kNotYet;
  }

  int fd_ = -1;
  bool connecting_ = false;
  int next_address_ = 0;
};

}  // namespace

std::unique_ptr<Source> make_tcp_source(const SourceSpec& spec) { return std::make_unique<TcpSource>(spec); }

}  // namespace tband::record
