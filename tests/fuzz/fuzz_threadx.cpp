// Fuzz target for the ThreadX trace buffer reader and importer
// (import/threadx_buffer.hpp, import/threadx_import.hpp): arbitrary bytes
// as a dumped buffer. Invariants checked on every input (a violation traps):
//  - no crash, out-of-bounds access or undefined behaviour (ASan, UBSan);
//  - parse_buffer() answers a Buffer or a BufferError with a message, and
//    only for bytes that start with the TXTB id;
//  - a Buffer's entries are no more than its slots, with time stamps that
//    never go back (unwrapped), each within the timer-valid mask's epoch;
//  - import_buffer() throws BufferError or imports every entry.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "import/threadx_buffer.hpp"
#include "import/threadx_import.hpp"
#include "trace/diagnostics.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace {

namespace tx = tband::threadx;

void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes{data, size};
  tx::Buffer buffer;
  try {
    buffer = tx::parse_buffer(bytes);
  } catch (const tx::BufferError& e) {
    require(std::string{e.what()}.size() > 10);
    return 0;
  }
  require(tx::looks_like_buffer(bytes));
  require(buffer.entries.size() <= buffer.entry_slots);
  require(buffer.registry.size() + buffer.registry_free == buffer.registry_slots);
  for (std::size_t i = 1; i < buffer.entries.size(); ++i) {
    require(buffer.entries[i].time >= buffer.entries[i - 1].time);
    require((buffer.entries[i].time & buffer.time_mask) == buffer.entries[i].raw_time ||
            buffer.time_mask != 0xFFFFFFFFu);
  }
  tband::NameTable names;
  tband::Timeline timeline{names};
  tband::Diagnostics diagnostics;
  tband::NullObserver observer;  // every observer call made through a real target
  try {
    const tx::ImportResult result =
        tx::import_buffer(bytes, "fuzz", {size % 2 == 0 ? std::optional<std::uint64_t>{} : 32768, &observer}, timeline,
                          diagnostics);
    require(result.events == buffer.entries.size());
    require(result.last_ts_ns >= result.first_ts_ns);
  } catch (const tx::BufferError&) {
    require(buffer.entries.empty());
  }
  return 0;
}
