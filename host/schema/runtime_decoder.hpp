// Decodes the frames of events known only from a schema loaded at run time:
// a loop over the event's fields, driven by their types, with the same checks
// and the same errors (event, field, byte offset) as the generated decoder.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "decode/decode_error.hpp"
#include "decode/field_value.hpp"
#include "schema/runtime_schema.hpp"

namespace tband {

/// One decoded run-time event: its schema entry and every field in wire
/// order (absent optional fields included, as visit_fields() gives them).
/// String fields view the frame.
struct DynamicEvent {
  const RuntimeEvent* event = nullptr;
  std::vector<FieldValue> fields;
  /// False when no field holds a string (decode_dynamic() says so; an event
  /// made otherwise may leave it true): the UTF-8 check skips the event.
  bool has_str = true;

  [[nodiscard]] const EventInfo& info() const noexcept { return event->info; }
  [[nodiscard]] bool has_ts() const noexcept { return !event->info.is_metadata; }
  /// The timestamp (the first field) of an event that is not metadata.
  [[nodiscard]] std::uint64_t ts() const noexcept { return fields.front().u; }
};

/// Decodes a frame (id byte first) whose id is `event`'s into `out`. On
/// malformed input returns false with `error` set; `out` is then unspecified.
bool decode_dynamic(const RuntimeEvent& event, std::span<const std::uint8_t> frame, DynamicEvent& out,
                    DecodeError& error);

}  // namespace tband
