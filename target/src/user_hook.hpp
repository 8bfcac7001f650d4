// The entry for the generated hooks of user events (tband_user_events.cpp,
// generated from the user's schema): the same critical section, timestamp and
// event path (event_path.hpp) as every built-in hook, for events with any of
// the schema's field types.
//
// Built for speed, each generated hook inlines trace_user_event_inline() with
// its event's own straight-line encoder, as the built-in hooks do. Built for
// size, every generated hook is a few stores into an array on its stack and
// one call of trace_user_event(), the one shared body, which encodes with the
// same compact encode_fields() as the built-in hooks: no second encoder.
#pragma once

#include "event_path.hpp"
#include "filter.hpp"
#include "hook_kind.hpp"

namespace tband::rt::hook {

/// The body of a generated hook built for speed: encode(out, ts) writes the
/// event's frame and returns its length. key: the event's first field, for an
/// event with a filter key (Event::kFilterKey).
template <class Event, class Encode>
__attribute__((always_inline)) inline void trace_user_event_inline(Encode&& encode, std::uint32_t key = 0) noexcept {
  static_assert(Event::kMaxFramedLen <= enc::kMaxFramedLen, "the core's event buffer holds every event compiled in");
  if constexpr (filter::kUseFilters && !Event::kIsMetadata) {
    if (filter::left_out(Event::kId, [&] { return key; })) {
      return;
    }
  } else {
    (void)key;
  }
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = current_core();
  const std::uint64_t ts = ts_field(core, Event::kIsMetadata, tband_portTIMESTAMP());
  trace_event<Event::kMaxFramedLen>(core, ts, Event::kIsMetadata,
                                    [&](std::uint8_t* out) __attribute__((always_inline)) {
                                      return encode(out, ts);
                                    });
  tband_portEXIT_CRITICAL_FROM_ANY();
}

/// The shared body of the generated hooks built for size. spec: the event's
/// kSpec, plus kFromValue for a metadata event. fields: fields[0] is room
/// for the timestamp, the event's integer fields follow as encode_fields()
/// takes them. str: the string field as a C string, or nullptr if the event
/// has none. Defined in the generated tband_user_events.cpp.
void trace_user_event(std::uint32_t spec, std::uint64_t* fields, const char* str) noexcept;

__attribute__((always_inline)) inline void trace_user_event_body(std::uint32_t spec, std::uint64_t* fields,
                                                                 const char* str) noexcept {
  if constexpr (filter::kUseFilters) {
    // fields[1]: the first field, read only when the event has a filter key
    if ((spec & kFromValue) == 0 && filter::left_out(spec & kIdBits, [&] { return fields[1]; })) {
      return;
    }
  }
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = current_core();
  const bool is_metadata = (spec & kFromValue) != 0;
  fields[kTsSlot] = ts_field(core, is_metadata, tband_portTIMESTAMP());
  trace_event<enc::kMaxFramedLen>(core, fields[kTsSlot], is_metadata,
                                  [&](std::uint8_t* out) __attribute__((always_inline)) {
                                    return enc::encode_fields(out, spec, fields + first_slot(spec), str);
                                  });
  tband_portEXIT_CRITICAL_FROM_ANY();
}

/// Sends schema_id (the schema's identity and user groups) through the hook
/// body; tband_gather_system_metadata() calls it when user events are compiled
/// in. Defined in the generated tband_user_events.cpp.
void send_schema_id() noexcept;

}  // namespace tband::rt::hook
