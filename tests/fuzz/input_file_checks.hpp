// What the fuzz targets of user input files (descriptors, rules files) check
// of every message: that it says where.
#pragma once

#include <cctype>
#include <cstddef>
#include <string_view>

namespace tband::fuzz {

inline void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

/// `text` starts with "<source>:<line>:<col>".
inline bool starts_with_place(std::string_view text, std::string_view source) {
  if (!text.starts_with(source) || text.size() == source.size() || text[source.size()] != ':') {
    return false;
  }
  std::size_t at = source.size() + 1;
  for (int number = 0; number < 2; ++number) {
    const std::size_t digits = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) != 0) {
      ++at;
    }
    if (at == digits) {
      return false;
    }
    if (number == 0) {
      if (at >= text.size() || text[at] != ':') {
        return false;
      }
      ++at;
    }
  }
  return true;
}

}  // namespace tband::fuzz
