#include "record/serial_port.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <termios.h>

namespace tband::record {

namespace {

constexpr std::array<std::pair<std::uint32_t, speed_t>, 31> kRates{{
    {50, B50},           {75, B75},           {110, B110},         {134, B134},         {150, B150},
    {200, B200},         {300, B300},         {600, B600},         {1200, B1200},       {1800, B1800},
    {2400, B2400},       {4800, B4800},       {9600, B9600},       {19200, B19200},     {38400, B38400},
    {57600, B57600},     {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
    {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000},
    {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000}, {3500000, B3500000}, {4000000, B4000000},
    {0, B0},
}};

const speed_t* find_speed(std::uint32_t baud) noexcept {
  for (const auto& [rate, speed] : kRates) {
    if (rate == baud && rate != 0) {
      return &speed;
    }
  }
  return nullptr;
}

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error(name + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

bool is_supported_baud(std::uint32_t baud) noexcept { return find_speed(baud) != nullptr; }

std::string supported_baud_rates() {
  std::string list;
  for (const auto& entry : kRates) {
    if (entry.first != 0) {
      list += (list.empty() ? "" : ", ") + std::to_string(entry.first);
    }
  }
  return list;
}

void configure_serial_port(int fd, const std::string& name, std::uint32_t baud, bool rts_cts) {
  const speed_t* speed = find_speed(baud);
  if (speed == nullptr) {
    throw std::runtime_error(name + ": baud rate " + std::to_string(baud) + " is not supported");
  }
  termios tty{};
  if (::tcgetattr(fd, &tty) != 0) {
    fail(name, errno == ENOTTY ? "not a serial port" : "cannot read its settings");
  }
  ::cfmakeraw(&tty);  // no echo, no line editing, no CR/LF translation, 8 data bits, no parity
  tty.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | CRTSCTS | HUPCL);
  tty.c_cflag |= CLOCAL | CREAD;  // ignore modem lines; receive
  if (rts_cts) {
    tty.c_cflag |= CRTSCTS;
  }
  tty.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tty.c_cc[VMIN] = 1;
  tty.c_cc[VTIME] = 0;
  if (::cfsetispeed(&tty, *speed) != 0 || ::cfsetospeed(&tty, *speed) != 0) {
    fail(name, "cannot set " + std::to_string(baud) + " baud");
  }
  if (::tcsetattr(fd, TCSANOW, &tty) != 0) {
    fail(name, "cannot apply the settings");
  }
  // tcsetattr succeeds if any one setting took: check the ones that matter.
  termios applied{};
  if (::tcgetattr(fd, &applied) != 0) {
    fail(name, "cannot read its settings back");
  }
  if (::cfgetispeed(&applied) != *speed || ::cfgetospeed(&applied) != *speed) {
    throw std::runtime_error(name + ": the port refused " + std::to_string(baud) + " baud");
  }
}

}  // namespace tband::record
