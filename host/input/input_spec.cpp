#include "input/input_spec.hpp"

#include <charconv>
#include <stdexcept>

namespace tband {

InputSpec parse_input_spec(std::string_view arg) {
  const std::size_t at = arg.rfind('@');
  if (at == std::string_view::npos) {
    return {std::string{arg}, std::nullopt};
  }
  const std::string_view core_text = arg.substr(at + 1);
  if (core_text.empty()) {
    throw std::invalid_argument("'" + std::string{arg} + "': expected a core number after '@'");
  }
  for (const char c : core_text) {
    if (c < '0' || c > '9') {
      return {std::string{arg}, std::nullopt};  // an '@' inside the path
    }
  }
  std::uint32_t core = 0;
  const auto [end, ec] = std::from_chars(core_text.data(), core_text.data() + core_text.size(), core);
  if (ec != std::errc{} || end != core_text.data() + core_text.size()) {
    throw std::invalid_argument("'" + std::string{arg} + "': core number out of range");
  }
  if (at == 0) {
    throw std::invalid_argument("'" + std::string{arg} + "': missing file name before '@'");
  }
  return {std::string{arg.substr(0, at)}, core};
}

}  // namespace tband
