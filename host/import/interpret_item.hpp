// One decoded stream item handed to the interpreter: an event (compiled or
// from a run-time schema) or a frame that did not decode. Shared by the
// conversion of files and the live decoding of a recording, so both report
// the same diagnostics.
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
};

/// `schemas` may be null; unknown ids are then reported one frame at a time.
inline void interpret_item(TraceInterpreter& interpreter, const StreamItem& item, const EventOrigin& origin,
                           SchemaSet* schemas, ItemCounts& counts) {
  if (item.dynamic) {
    interpreter.on_dynamic_event(item.dynamic_event, origin);
  } else if (item.result.ok()) {
    interpreter.on_event(item.result.value(), origin);
  } else {
    ++counts.decode_errors;
    const DecodeError& error = item.result.error();
    if (error.kind == DecodeErrorKind::kUnknownEventId && schemas != nullptr) {
      // Counted, and reported once per id at the end (SchemaSet::unknown_ids_message).
      ++counts.unknown_frames;
      schemas->count_unknown(error.event_id, *origin.input, item.at->offset);
    } else {
      interpreter.on_decode_error(error, describe_error(error, schemas), origin);
    }
  }
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
