// Numbers with units as people write them in rules and options: "20us",
// "1.5 ms", "50%", "1kHz", "100/s", "-3".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tband {

enum class QuantityKind : std::uint8_t { kPlain, kDuration, kPercent, kRate };

struct Quantity {
  double value = 0;  // durations in ns, percent 0-100, rates per second
  QuantityKind kind = QuantityKind::kPlain;
};

/// Parses a quantity; nullopt (and `error` set) when it is not one.
[[nodiscard]] std::optional<Quantity> parse_quantity(std::string_view text, std::string& error);

/// "a duration (ns, us, ms, s)", for messages.
[[nodiscard]] std::string_view describe(QuantityKind kind) noexcept;

}  // namespace tband
