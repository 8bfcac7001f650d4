// One decoded field's value, widened to a common type: what tools print and
// serialise, whether the event was decoded by the generated decoder or from a
// schema loaded at run time.
#pragma once

#include <cstdint>
#include <string_view>

#include "decode/schema_info.hpp"

namespace tband {

struct FieldValue {
  const FieldInfo* info = nullptr;
  bool present = true;   // false for an optional field the frame left out
  std::uint64_t u = 0;   // unsigned, bool and enum fields
  std::int64_t s = 0;    // signed fields
  double f = 0;          // f32 and f64 fields
  std::string_view str;  // str fields
};

}  // namespace tband
