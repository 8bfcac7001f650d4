#include "stats/quantity.hpp"

#include <charconv>
#include <cmath>

#include "common/text_place.hpp"

namespace tband {

namespace {

struct UnitSuffix {
  std::string_view text;
  QuantityKind kind;
  double factor;
};

constexpr UnitSuffix kUnits[] = {
    {"ns", QuantityKind::kDuration, 1},      {"us", QuantityKind::kDuration, 1e3},
    {"\xC2\xB5s", QuantityKind::kDuration, 1e3},  // µs
    {"ms", QuantityKind::kDuration, 1e6},    {"s", QuantityKind::kDuration, 1e9},
    {"%", QuantityKind::kPercent, 1},        {"/s", QuantityKind::kRate, 1},
    {"Hz", QuantityKind::kRate, 1},          {"kHz", QuantityKind::kRate, 1e3},
    {"MHz", QuantityKind::kRate, 1e6},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view describe(QuantityKind kind) noexcept {
  switch (kind) {
    case QuantityKind::kPlain: return "a plain number";
    case QuantityKind::kDuration: return "a duration (ns, us, ms, s)";
    case QuantityKind::kPercent: return "a share in % (e.g. 50%)";
    case QuantityKind::kRate: return "a rate (/s, Hz, kHz)";
  }
  return "";
}

std::optional<Quantity> parse_quantity(std::string_view text, std::string& error) {
  text = trim(text);
  std::string_view number = text;
  if (!number.empty() && number.front() == '+') {
    number.remove_prefix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc{} || !std::isfinite(value)) {
    // Built in place: assigning or adding "'" makes GCC 12 -O3 warn (-Wrestrict, a false positive).
    error = clip(text);
    error.insert(0, 1, '\'');
    error += "' is not a number";
    return std::nullopt;
  }
  const std::string_view unit = trim(std::string_view{end, static_cast<std::size_t>(number.data() + number.size() - end)});
  if (unit.empty()) {
    return Quantity{value, QuantityKind::kPlain};
  }
  for (const UnitSuffix& u : kUnits) {
    if (u.text == unit) {
      return Quantity{value * u.factor, u.kind};
    }
  }
  error = std::string{"unknown unit '"};
  error += clip(unit);
  error += "' in '";
  error += clip(text);
  error += "' (durations: ns, us, ms, s; shares: %; rates: /s, Hz, kHz)";
  return std::nullopt;
}

}  // namespace tband
