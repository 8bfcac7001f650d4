// Fuzz target for the run-time decoder (host/schema), driven by the lab
// group's descriptor: tband's built-in events and the lab's (every field
// type, optional fields, enums). Invariants checked on every input (a
// violation traps):
//  - decoding never crashes, reads out of bounds or hits undefined behaviour
//    (ASan and UBSan);
//  - for every built-in event, the run-time decoder gives exactly what the
//    generated decoder gives: the same field values, or the same error;
//  - an error names only fields its event has, at an offset inside the frame;
//    a decoded event has its timestamp exactly when it is not metadata;
//  - the input read as a descriptor is either loaded or rejected with a
//    SchemaLoadError, never anything else.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include "decode/cobs_deframer.hpp"
#include "decode/event_fields.hpp"
#include "decode/event_format.hpp"
#include "schema/runtime_decoder.hpp"
#include "tband_events.hpp"

namespace {

void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

const tband::RuntimeSchema& lab_schema() {
  static const tband::RuntimeSchema schema = [] {
    std::ifstream file(TBAND_LAB_DESCRIPTOR, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    return tband::RuntimeSchema::from_descriptor(text, TBAND_LAB_DESCRIPTOR);
  }();
  return schema;
}

void check_frame(std::span<const std::uint8_t> frame) {
  const tband::RuntimeEvent* event = frame.empty() ? nullptr : lab_schema().find(frame[0]);
  const tband::DecodeResult compiled = tband::decode_event(frame);
  if (event == nullptr) {
    require(!compiled.ok());
    return;
  }
  tband::DynamicEvent dynamic;
  tband::DecodeError error{tband::DecodeErrorKind::kEmptyFrame};
  const bool ok = tband::decode_dynamic(*event, frame, dynamic, error);
  if (ok) {
    require(dynamic.fields.size() == event->info.fields.size());
    require(dynamic.has_ts() == !event->info.is_metadata);
    for (const tband::FieldValue& field : dynamic.fields) {
      require(!tband::format_field_value(field).empty());
    }
  } else {
    require(error.has_event_id && error.event_id == frame[0]);
    require(error.field_index < static_cast<int>(event->info.fields.size()));
    require(error.offset <= frame.size());
    require(!tband::describe(error, &event->info).empty());
  }
  if (tband::find_event_info(frame[0]) == nullptr) {
    return;  // a lab event: the project's generated decoder does not know it
  }
  require(ok == compiled.ok());
  if (!ok) {
    require(error == compiled.error());
    return;
  }
  std::size_t i = 0;
  tband::visit_fields(compiled.value(), [&](const tband::FieldValue& c) {
    const tband::FieldValue& d = dynamic.fields[i++];
    require(d.present == c.present && d.u == c.u && d.s == c.s && d.str == c.str);
    require(std::bit_cast<std::uint64_t>(d.f) == std::bit_cast<std::uint64_t>(c.f));
  });
  require(i == dynamic.fields.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tband::CobsDeframer deframer{256};
  const auto sink = [](const tband::RawFrame& raw) {
    if (raw.error == nullptr) {
      check_frame(raw.data);
    }
  };
  deframer.feed({data, size}, sink);
  deframer.finish(sink);
  check_frame({data, size});  // the input as one frame's content

  try {
    (void)tband::RuntimeSchema::from_descriptor({reinterpret_cast<const char*>(data), size}, "input");
  } catch (const tband::SchemaLoadError&) {
    // rejected with a message: fine
  }
  return 0;
}
