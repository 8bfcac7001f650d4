// Decoded stream items handed to the interpreter: an event (compiled or
// from a run-time schema) or a frame that did not decode. Shared by the
// conversion of files (on one thread or two) and the live decoding of a
// recording, so all report the same diagnostics.
#pragma once

#include <cstdint>
#include <string>

#include "import/event_stream.hpp"
#include "schema/schema_set.hpp"
#include "trace/interpreter.hpp"

namespace tband {

struct ItemCounts {
  std::uint64_t decode_errors = 0;   // frames that did not decode (unknown ids included)
  std::uint64_t unknown_frames = 0;  // of those, frames whose id no schema knows
  std::uint64_t link_faults = 0;     // link integrity's reports (lost, corrupt, stale): not decode errors
};

/// A link integrity report (decode/link_check.hpp) rather than a frame that did not decode.
[[nodiscard]] inline bool is_link_fault(const DecodeError& error) noexcept {
  return error.kind == DecodeErrorKind::kLinkLost || error.kind == DecodeErrorKind::kLinkCorrupt ||
         error.kind == DecodeErrorKind::kLinkStale;
}

/// The interpreter's part of an item whose kind classify_item() found: the
/// one place that hands items to the interpreter, for the conversion on one
/// thread or two and for live decoding. `dynamic_event()` is called for
/// kDynamic only, `describe()` (the error's description) for kError only.
template <class DynamicOf, class Describe>
inline void interpret_classified(TraceInterpreter& interpreter, ItemKind kind, const DecodeResult& result,
                                 const DynamicOf& dynamic_event, const Describe& describe, const EventOrigin& origin,
                                 ItemCounts& counts) {
  switch (kind) {
    case ItemKind::kEvent: [[likely]]
      interpreter.on_event(result.value(), origin);
      break;
    case ItemKind::kDynamic:
      interpreter.on_dynamic_event(dynamic_event(), origin);
      break;
    case ItemKind::kUnknownId:
      // Reported once per id at the end (SchemaSet::unknown_ids_message).
      ++counts.decode_errors;
      ++counts.unknown_frames;
      break;
    case ItemKind::kError:
      ++(is_link_fault(result.error()) ? counts.link_faults : counts.decode_errors);
      interpreter.on_decode_error(result.error(), describe(), origin);
      break;
  }
}

/// Both parts of an item, in this thread. `schemas` may be null; unknown ids
/// are then reported one frame at a time.
inline void interpret_item(TraceInterpreter& interpreter, const StreamItem& item, const EventOrigin& origin,
                           SchemaSet* schemas, ItemCounts& counts) {
  const ItemKind kind = classify_item(item.dynamic, item.result, schemas, *origin.input, item.at->offset);
  interpret_classified(
      interpreter, kind, item.result, [&]() -> const DynamicEvent& { return item.dynamic_event; },
      [&] { return describe_error(item.result.error(), schemas); }, origin, counts);
}

/// The end of the items: problems only the whole trace shows, then the
/// interpreter's own end-of-trace checks.
inline void finish_interpretation(TraceInterpreter& interpreter, SchemaSet* schemas) {
  if (schemas != nullptr) {
    if (const auto& problem = schemas->identity_problem()) {
      interpreter.report(DiagnosticKind::kSchemaMismatch, *problem);
    }
    if (auto message = schemas->unknown_ids_message()) {
      interpreter.report(DiagnosticKind::kUnknownEventId, std::move(*message));
    }
  }
  interpreter.finish();
}

}  // namespace tband
