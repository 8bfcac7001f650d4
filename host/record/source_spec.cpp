#include "record/source_spec.hpp"

#include <charconv>

#include "input/input_spec.hpp"
#include "record/serial_port.hpp"

namespace tband::record {

namespace {

constexpr std::string_view kKinds = "serial:DEVICE[,baud=N][,flow=rtscts], tcp:HOST:PORT, file:PATH or - (stdin)";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

void parse_serial(std::string_view rest, SourceSpec& spec) {
  const std::size_t comma = rest.find(',');
  spec.path = std::string{rest.substr(0, comma)};
  if (spec.path.empty()) {
    throw SourceSpecError(spec.text + ": no device given (serial:/dev/ttyUSB0)");
  }
  std::string_view options = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  while (!options.empty()) {
    const std::size_t next = options.find(',');
    const std::string_view option = options.substr(0, next);
    options = next == std::string_view::npos ? std::string_view{} : options.substr(next + 1);
    if (starts_with(option, "baud=")) {
      const std::string_view value = option.substr(5);
      std::uint32_t baud = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), baud);
      if (ec != std::errc{} || end != value.data() + value.size() || !is_supported_baud(baud)) {
        throw SourceSpecError(spec.text + ": baud rate '" + std::string{value} +
                              "' is not one termios can set; use one of " + supported_baud_rates());
      }
      spec.baud = baud;
    } else if (option == "flow=rtscts") {
      spec.rts_cts = true;
    } else if (option == "flow=none") {
      spec.rts_cts = false;
    } else {
      throw SourceSpecError(spec.text + ": unknown serial option '" + std::string{option} +
                            "' (baud=N, flow=rtscts or flow=none)");
    }
  }
}

void parse_tcp(std::string_view rest, SourceSpec& spec) {
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
    throw SourceSpecError(spec.text + ": expected tcp:HOST:PORT (e.g. tcp:localhost:19021)");
  }
  std::string_view host = rest.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);  // [::1]
  }
  spec.host = std::string{host};
  spec.port = std::string{rest.substr(colon + 1)};
  std::uint32_t port = 0;
  const auto [end, ec] = std::from_chars(spec.port.data(), spec.port.data() + spec.port.size(), port);
  if (ec == std::errc{} && end == spec.port.data() + spec.port.size() && (port == 0 || port > 65535)) {
    throw SourceSpecError(spec.text + ": port " + spec.port + " is not between 1 and 65535");
  }
}

}  // namespace

SourceSpec parse_source_spec(std::string_view arg) {
  InputSpec split;
  try {
    split = parse_input_spec(arg);
  } catch (const std::invalid_argument& e) {
    throw SourceSpecError(e.what());
  }
  SourceSpec spec;
  spec.core = split.core;
  spec.text = split.path;
  const std::string_view text = spec.text;
  if (text == "-") {
    spec.kind = SourceKind::kStdin;
  } else if (starts_with(text, "serial:")) {
    spec.kind = SourceKind::kSerial;
    parse_serial(text.substr(7), spec);
  } else if (starts_with(text, "tcp:")) {
    spec.kind = SourceKind::kTcp;
    parse_tcp(text.substr(4), spec);
  } else if (starts_with(text, "file:")) {
    spec.kind = SourceKind::kFile;
    spec.path = std::string{text.substr(5)};
    if (spec.path.empty()) {
      throw SourceSpecError(spec.text + ": no path given (file:PATH)");
    }
  } else {
    const std::size_t colon = text.find(':');
    const std::string what = colon == std::string_view::npos || colon == 0
                                 ? "no source kind"
                                 : "unknown source kind '" + std::string{text.substr(0, colon)} + "'";
    throw SourceSpecError("'" + spec.text + "': " + what + "; sources are " + std::string{kKinds});
  }
  return spec;
}

}  // namespace tband::record
