// Reflection types for the generated event tables: what every event and field
// is called, its type and its description, so tools can print and serialise any
// event without knowing it at compile time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tband {

enum class FieldType : std::uint8_t { kU8, kU16, kU32, kU64, kS8, kS16, kS32, kS64, kBool, kF32, kF64, kStr, kEnum };

/// How a field's value is held (FieldValue): the type's family.
enum class ValueKind : std::uint8_t { kUnsigned, kSigned, kFloat, kBool, kStr, kEnum };

[[nodiscard]] constexpr ValueKind value_kind(FieldType type) noexcept {
  switch (type) {
    case FieldType::kS8:
    case FieldType::kS16:
    case FieldType::kS32:
    case FieldType::kS64: return ValueKind::kSigned;
    case FieldType::kF32:
    case FieldType::kF64: return ValueKind::kFloat;
    case FieldType::kBool: return ValueKind::kBool;
    case FieldType::kStr: return ValueKind::kStr;
    case FieldType::kEnum: return ValueKind::kEnum;
    case FieldType::kU8:
    case FieldType::kU16:
    case FieldType::kU32:
    case FieldType::kU64: break;
  }
  return ValueKind::kUnsigned;
}

/// An optional field's default: what it means when a frame leaves it out.
/// The member that holds it follows value_kind() (u: unsigned, bool, enum).
struct FieldDefault {
  bool present = false;
  std::uint64_t u = 0;
  std::int64_t s = 0;
  double f = 0;
};

struct EnumValueInfo {
  std::uint8_t value;
  std::string_view name;
  std::string_view description;
};

struct EnumInfo {
  std::string_view name;
  std::string_view description;
  std::span<const EnumValueInfo> values;

  /// The value's entry, or nullptr if the enum has no such value.
  [[nodiscard]] const EnumValueInfo* find(std::uint64_t value) const noexcept {
    for (const EnumValueInfo& v : values) {
      if (v.value == value) {
        return &v;
      }
    }
    return nullptr;
  }
};

struct FieldInfo {
  std::string_view name;
  FieldType type;
  const EnumInfo* enum_info;  // set for kEnum fields only
  bool optional;
  bool implicit;  // the timestamp the generator adds to non-metadata events
  std::string_view description;
  FieldDefault default_value;  // optional fields only
};

struct EventInfo {
  std::uint8_t id;
  std::string_view name;
  std::string_view group;
  bool is_metadata;
  std::span<const FieldInfo> fields;  // wire order, timestamp included
  std::string_view description;
};

[[nodiscard]] constexpr std::string_view to_string(FieldType type) noexcept {
  switch (type) {
    case FieldType::kU8: return "u8";
    case FieldType::kU16: return "u16";
    case FieldType::kU32: return "u32";
    case FieldType::kU64: return "u64";
    case FieldType::kS8: return "s8";
    case FieldType::kS16: return "s16";
    case FieldType::kS32: return "s32";
    case FieldType::kS64: return "s64";
    case FieldType::kBool: return "bool";
    case FieldType::kF32: return "f32";
    case FieldType::kF64: return "f64";
    case FieldType::kStr: return "str";
    case FieldType::kEnum: return "enum";
  }
  return "?";
}

}  // namespace tband
