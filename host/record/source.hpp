// A live byte source being recorded: a serial port, a TCP connection, stdin
// or a file followed as it grows. Every source is non-blocking: the recorder
// polls poll_fd() for poll_events() and reads until read() would block.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "record/source_spec.hpp"

namespace tband::record {

/// A source that can never work (no permission, not a serial port): the
/// recording stops. The message is one line and names the source.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class OpenStatus : std::uint8_t {
  kOpen,     // ready to read
  kPending,  // connecting: poll poll_fd() for poll_events(), then call open() again
  kNotYet,   // not there yet (connection refused, device not plugged in): try again later
};

struct ReadResult {
  enum State : std::uint8_t { kData, kWouldBlock, kEnded } state = kWouldBlock;
  std::size_t bytes = 0;
  std::string reason;  // kEnded: why ("end of input", "connection reset", ...)
};

class Source {
 public:
  explicit Source(SourceSpec spec) : spec_(std::move(spec)) {}
  virtual ~Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  /// Opens or connects, or carries on connecting. Throws SourceError.
  virtual OpenStatus open() = 0;
  /// Reads what is there into `buffer`. Never blocks.
  virtual ReadResult read(std::span<std::uint8_t> buffer) = 0;
  /// Releases the connection or device; open() may be called again.
  virtual void close() = 0;
  /// The descriptor to wait on (while pending or open) and the poll events.
  [[nodiscard]] virtual int poll_fd() const noexcept = 0;
  [[nodiscard]] virtual short poll_events() const noexcept = 0;
  /// Whether bytes can be sent to the target (tcp:, serial:): the control
  /// channel's commands (tband record --send, tband ctl).
  [[nodiscard]] virtual bool writable() const noexcept { return false; }
  /// Sends all of `bytes` on the open source, waiting up to `timeout_ms` for
  /// room. Throws SourceError (not writable, connection gone, no room in time).
  void send(std::span<const std::uint8_t> bytes, int timeout_ms = 2000);
  /// Why the last open() said kNotYet, for the "never connected" message.
  [[nodiscard]] const std::string& last_problem() const noexcept { return last_problem_; }

  [[nodiscard]] const SourceSpec& spec() const noexcept { return spec_; }

 protected:
  /// One write of what is left: bytes written, or -1 with errno (writable sources).
  virtual long write_some(const std::uint8_t* data, std::size_t len) noexcept;

  std::string last_problem_;

 private:
  SourceSpec spec_;
};

[[nodiscard]] std::unique_ptr<Source> make_source(const SourceSpec& spec);

/// Reads a non-blocking descriptor: data, would block, or the end (EOF or an
/// error, with the reason). Shared by the sources.
[[nodiscard]] ReadResult read_fd(int fd, std::span<std::uint8_t> buffer);

}  // namespace tband::record
