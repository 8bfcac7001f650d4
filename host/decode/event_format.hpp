// Human-readable text for events and field values.
#pragma once

#include <string>
#include <string_view>

#include "decode/event_fields.hpp"
#include "tband_events.hpp"

namespace tband {

/// Bytes as a double-quoted string, with non-printable bytes as \xNN.
[[nodiscard]] std::string quote_bytes(std::string_view bytes);

/// A field's value: numbers in decimal, enums by name, strings quoted.
[[nodiscard]] std::string format_field_value(const FieldValue& field);

/// "isr_name isr_id=0 name=\"ISR0\"": the event name, then every field as name=value.
[[nodiscard]] std::string format_event(const Event& event);

}  // namespace tband
