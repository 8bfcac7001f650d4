// A recording source as the user writes it on the command line:
//   serial:/dev/ttyUSB0[,baud=921600][,flow=rtscts]   a serial port (raw, 8N1)
//   tcp:HOST:PORT                                     a TCP server (RTT servers, QEMU -serial tcp:)
//   -                                                 standard input (a pipe)
//   file:PATH                                         a file, followed as it grows
// each optionally followed by "@N" when it carries the events of core N only.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tband::record {

/// A source argument that cannot be understood; the message is one line.
class SourceSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class SourceKind : std::uint8_t { kSerial, kTcp, kStdin, kFile };

struct SourceSpec {
  SourceKind kind = SourceKind::kStdin;
  std::string text;  // the argument without "@N", for messages
  std::string path;  // serial device or followed file
  std::string host;  // tcp
  std::string port;  // tcp, as given (a number or a service name)
  std::uint32_t baud = 115200;  // serial
  bool rts_cts = false;         // serial: hardware flow control
  std::optional<std::uint32_t> core;
};

/// Parses one source argument. Throws SourceSpecError.
[[nodiscard]] SourceSpec parse_source_spec(std::string_view arg);

}  // namespace tband::record
