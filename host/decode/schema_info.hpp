// Reflection types for the generated event tables: what every event and field
// is called, its type and its description, so tools can print and serialise any
// event without knowing it at compile time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tband {

enum class FieldType : std::uint8_t { kU8, kU32, kU64, kS64, kStr, kEnum };

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
    case FieldType::kU32: return "u32";
    case FieldType::kU64: return "u64";
    case FieldType::kS64: return "s64";
    case FieldType::kStr: return "str";
    case FieldType::kEnum: return "enum";
  }
  return "?";
}

}  // namespace tband
