// An input argument as the user wrote it: a path ("-" for stdin), optionally
// followed by "@N" when the file holds the events of core N only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tband {

struct InputSpec {
  std::string path;                  // "-" reads standard input
  std::optional<std::uint32_t> core;  // from "file@N"

  [[nodiscard]] bool is_stdin() const noexcept { return path == "-"; }
  /// How messages name this input: the path, or "<stdin>".
  [[nodiscard]] std::string display_name() const { return is_stdin() ? "<stdin>" : path; }
};

/// Splits "path@N". The text after the last '@' counts as a core only when it
/// is a decimal number, so paths that contain '@' still work. Throws
/// std::invalid_argument for "file@" or a core number that does not fit u32.
[[nodiscard]] InputSpec parse_input_spec(std::string_view arg);

}  // namespace tband
