#include "json/field_json.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "decode/utf8_text.hpp"

namespace tband {

namespace {

nlohmann::json float_json(const FieldValue& field) {
  const double value = field.f;
  if (std::isfinite(value)) {
    return value;  // every f32 and f64 value prints back exactly (17 significant digits)
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  const bool is_f32 = field.info->type == FieldType::kF32;
  const std::uint64_t bits = is_f32 ? std::bit_cast<std::uint32_t>(static_cast<float>(value))
                                    : std::bit_cast<std::uint64_t>(value);
  const std::uint64_t quiet = is_f32 ? std::bit_cast<std::uint32_t>(std::numeric_limits<float>::quiet_NaN())
                                     : std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN());
  if (bits == quiet) {
    return "nan";
  }
  char text[32];
  std::snprintf(text, sizeof text, "nan:0x%llx", static_cast<unsigned long long>(bits));
  return text;
}

}  // namespace

nlohmann::json field_json(const FieldValue& field) {
  switch (value_kind(field.info->type)) {
    case ValueKind::kStr:
      return is_valid_utf8(field.str) ? std::string{field.str} : escape_invalid_utf8(field.str);
    case ValueKind::kEnum:
      if (const EnumValueInfo* named = field.info->enum_info->find(field.u)) {
        return std::string{named->name};
      }
      return field.u;
    case ValueKind::kSigned:
      return field.s;
    case ValueKind::kFloat:
      return float_json(field);
    case ValueKind::kBool:
      return field.u != 0;
    case ValueKind::kUnsigned:
      break;
  }
  return field.u;
}

}  // namespace tband
