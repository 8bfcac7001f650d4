// JSON values appended to a string as text, in the very bytes
// nlohmann::json's dump(-1, ' ', false, error_handler_t::replace) gives
// (compact, UTF-8 kept, control characters escaped, invalid UTF-8 replaced,
// numbers as its shortest round-trip form): a writer can stream events
// without building a document per event, and its output stays what it was.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "decode/field_value.hpp"

namespace tband::json_text {

/// A quoted, escaped string.
void append_string(std::string& out, std::string_view text);
/// A double as nlohmann::json prints it ("1.0", "0.541", "1e+20"); null when
/// it is not finite, as there.
void append_double(std::string& out, double value);
/// ts_ns / 1000.0 as append_double() writes it, mostly without its Grisu2.
void append_microseconds(std::string& out, std::uint64_t ts_ns);
void append_int(std::string& out, std::int64_t value);
void append_uint(std::string& out, std::uint64_t value);
/// What a float field that JSON cannot hold is written as (a string): "inf",
/// "-inf", "nan", or for a NaN with other bits than the default quiet NaN
/// "nan:0x" and its bits in hex.
[[nodiscard]] std::string non_finite_name(const FieldValue& field);
/// A decoded field as field_json() (json/field_json.hpp) gives it.
void append_field(std::string& out, const FieldValue& field);

}  // namespace tband::json_text
