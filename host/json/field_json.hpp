// A decoded field's value as JSON, for the Chrome trace-event writer and
// `tband dump --json`.
#pragma once

#include <nlohmann/json.hpp>

#include "decode/field_value.hpp"

namespace tband {

/// Numbers as numbers, bools as true/false, enums by name, strings as text
/// (a string that is not UTF-8 with \xHH escapes, see escape_invalid_utf8()).
/// Floats that JSON cannot hold become "inf", "-inf" or "nan" (a NaN with
/// other bits than the default quiet NaN: "nan:0x" and its bits in hex).
[[nodiscard]] nlohmann::json field_json(const FieldValue& field);

}  // namespace tband
