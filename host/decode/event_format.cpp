#include "decode/event_format.hpp"

#include <cstdio>

namespace tband {

std::string quote_bytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  out.push_back('"');
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte >= 0x20 && byte < 0x7F) {
      out.push_back(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
      out.append(escaped);
    }
  }
  out.push_back('"');
  return out;
}

std::string format_field_value(const FieldValue& field) {
  if (!field.present) {
    return "(absent)";
  }
  switch (field.info->type) {
    case FieldType::kStr:
      return quote_bytes(field.str);
    case FieldType::kS64:
      return std::to_string(field.s);
    case FieldType::kEnum:
      if (const EnumValueInfo* value = field.info->enum_info->find(field.u)) {
        return std::string{value->name};
      }
      return std::to_string(field.u);
    case FieldType::kU8:
    case FieldType::kU32:
    case FieldType::kU64:
      break;
  }
  return std::to_string(field.u);
}

std::string format_event(const Event& event) {
  std::string out{event_info(event).name};
  visit_fields(event, [&](const FieldValue& field) {
    out.push_back(' ');
    out.append(field.info->name);
    out.push_back('=');
    out.append(format_field_value(field));
  });
  return out;
}

}  // namespace tband
