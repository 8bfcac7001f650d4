#include "json/field_json.hpp"

#include <cmath>

#include "decode/utf8_text.hpp"
#include "json/json_text.hpp"

namespace tband {

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
      if (std::isfinite(field.f)) {
        return field.f;  // every f32 and f64 value prints back exactly (17 significant digits)
      }
      return json_text::non_finite_name(field);
    case ValueKind::kBool:
      return field.u != 0;
    case ValueKind::kUnsigned:
      break;
  }
  return field.u;
}

}  // namespace tband
