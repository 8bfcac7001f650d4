#include "decode/event_format.hpp"

#include <charconv>
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

std::string format_float(const FieldValue& field) {
  char buf[32];
  // Shortest text that reads back to the same value, at the field's precision.
  const auto [end, ec] = field.info->type == FieldType::kF32
                             ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(field.f))
                             : std::to_chars(buf, buf + sizeof buf, field.f);
  (void)ec;
  return {buf, end};
}

std::string format_field_value(const FieldValue& field) {
  if (!field.present) {
    if (field.info->default_value.present) {
      FieldValue as_default = field;
      as_default.present = true;
      return format_field_value(as_default) + " (default)";
    }
    return "(absent)";
  }
  switch (value_kind(field.info->type)) {
    case ValueKind::kStr:
      return quote_bytes(field.str);
    case ValueKind::kSigned:
      return std::to_string(field.s);
    case ValueKind::kFloat:
      return format_float(field);
    case ValueKind::kBool:
      return field.u != 0 ? "true" : "false";
    case ValueKind::kEnum:
      if (const EnumValueInfo* value = field.info->enum_info->find(field.u)) {
        return std::string{value->name};
      }
      return std::to_string(field.u);
    case ValueKind::kUnsigned:
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
