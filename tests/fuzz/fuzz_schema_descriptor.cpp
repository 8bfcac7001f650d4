// Fuzz target for loading schema descriptors at run time (host/schema): the
// JSON a user passes with --schema or leaves next to a trace. Invariants
// checked on every input (a violation traps):
//  - loading never crashes, overflows the stack or hits undefined behaviour
//    (ASan and UBSan): a descriptor is loaded or refused with a SchemaLoadError;
//  - a refusal names the file, line and column ("fuzz.json:3:14: ..."), and
//    stays short however large the value at fault;
//  - a loaded schema finds each of its events by id.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "input_file_checks.hpp"
#include "schema/runtime_schema.hpp"

using tband::fuzz::require;
using tband::fuzz::starts_with_place;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  try {
    const tband::RuntimeSchema schema = tband::RuntimeSchema::from_descriptor(text, "fuzz.json");
    for (const tband::RuntimeEvent& event : schema.events()) {
      require(schema.find(event.info.id) == &event);
    }
  } catch (const tband::SchemaLoadError& e) {
    const std::string_view message = e.what();
    require(starts_with_place(message, "fuzz.json"));
    require(message.size() < 1000);
  }
  return 0;
}
