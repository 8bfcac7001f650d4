// Human-readable text for events and field values.
#pragma once

#include <string>
#include <string_view>

#include "decode/event_fields.hpp"
#include "tband_events.hpp"

namespace tband {

/// Bytes as a double-quoted string, with non-printable bytes as \xNN.
[[nodiscard]] std::string quote_bytes(std::string_view bytes);

/// A float field's value: the shortest decimal text that reads back to it
/// ("1.5", "-0", "inf", "nan").
[[nodiscard]] std::string format_float(const FieldValue& field);

/// A field's value: numbers in decimal, bools as true/false, enums by name,
/// strings quoted; an absent optional field as its default or "(absent)".
[[nodiscard]] std::string format_field_value(const FieldValue& field);

/// "isr_name isr_id=0 name=\"ISR0\"": the event name, then every field as name=value.
[[nodiscard]] std::string format_event(const Event& event);

}  // namespace tband
