// The host side of the control channel (target/README.md, "Control
// channel"): command lines parsed into command frames (COBS of the command
// byte, its arguments and their CRC-16/CCITT-FALSE, big-endian, then 0x00),
// and the target's acknowledgements (ctl_ack events) picked out of the
// up-link's byte stream.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tband {
class CobsDeframer;
}  // namespace tband

namespace tband::ctl {

/// A command line that is no command; one line, says what is expected.
class CommandError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct Command {
  std::uint8_t code = 0;
  std::vector<std::uint8_t> args;
  std::string name;  // as the user wrote it, e.g. "stop"
};

/// Parses one command ("stop", "start", "metadata", ...). Throws CommandError.
[[nodiscard]] Command parse_command(std::string_view text);

/// The names parse_command() takes, for help texts: "start, stop, ...".
[[nodiscard]] std::string command_names();

/// The frame the target's tband_rx_feed() takes.
[[nodiscard]] std::vector<std::uint8_t> encode_frame(const Command& command);

/// The frame of raw payload bytes (command byte and arguments): for tests.
[[nodiscard]] std::vector<std::uint8_t> encode_payload(std::span<const std::uint8_t> payload);

struct Ack {
  std::uint8_t cmd = 0;
  std::uint32_t status = 0;
  std::uint32_t value = 0;
};

enum Status : std::uint32_t { kDone = 0, kRefused = 1, kFailed = 2, kNotBuilt = 3, kUnknown = 4, kBadArguments = 5 };

/// "done", "refused (already on, or not on)", ...
[[nodiscard]] std::string status_text(std::uint32_t status);

/// Watches the up-link's bytes for ctl_ack events; everything else is ignored.
class AckReader {
 public:
  AckReader();
  ~AckReader();
  AckReader(const AckReader&) = delete;
  AckReader& operator=(const AckReader&) = delete;

  /// Feeds the next bytes; returns the acknowledgements completed in them.
  std::vector<Ack> feed(std::span<const std::uint8_t> bytes);

 private:
  std::unique_ptr<CobsDeframer> deframer_;
};

}  // namespace tband::ctl
