// Raw termios set-up of a serial port: the baud rate, 8 data bits, no parity,
// one stop bit, no echo or line editing, no software flow control, and
// hardware (RTS/CTS) flow control only when asked.
#pragma once

#include <cstdint>
#include <string>

namespace tband::record {

/// True for the rates termios has a constant for (50 ... 4000000).
[[nodiscard]] bool is_supported_baud(std::uint32_t baud) noexcept;
[[nodiscard]] std::string supported_baud_rates();

/// Configures the open terminal `fd`. Throws std::runtime_error naming `name`
/// when it is not a terminal or refuses the settings.
void configure_serial_port(int fd, const std::string& name, std::uint32_t baud, bool rts_cts);

}  // namespace tband::record
