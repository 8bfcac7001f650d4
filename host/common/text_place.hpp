// Small helpers for messages about user files: where a byte is, and how much
// of a value from the file to quote.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tband {

/// "line:col" (1-based, columns in bytes) of a byte of `text`.
[[nodiscard]] inline std::string line_col(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    col = text[i] == '\n' ? 1 : col + 1;
    line += text[i] == '\n' ? 1u : 0u;
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

/// At most about `limit` bytes of `text` (cut at a character boundary, "..."
/// added): what a message quotes of a value from a file, which may be huge.
[[nodiscard]] inline std::string clip(std::string_view text, std::size_t limit = 60) {
  if (text.size() <= limit) {
    return std::string{text};
  }
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) {
    --cut;  // not inside a UTF-8 sequence
  }
  return std::string{text.substr(0, cut)} + "...";
}

}  // namespace tband
