// Text made safe inside HTML and XML markup (element text and attribute values).
#pragma once

#include <string>
#include <string_view>

namespace tband {

/// Escapes & < > " ' and leaves out the control characters XML 1.0 forbids.
inline std::string escape_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t') {
          out += ch;
        }
    }
  }
  return out;
}

}  // namespace tband
