// The ThreadX importer: a trace buffer (threadx_buffer.hpp) -> the model's
// RTOS-neutral trackers (threads, ISRs, sync objects), the Timeline and the
// TraceObserver, so that conv, stats, check and report show a ThreadX trace
// on the same tracks and under the same names as a FreeRTOS one. Every other
// service call and every user event is an instant with its fields named.
// The event-by-event mapping is in host/THREADX.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "trace/diagnostics.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband::threadx {

/// Ticks per second of the time stamps when --threadx-clock-hz is not given.
inline constexpr std::uint64_t kDefaultClockHz = 1'000'000;

struct ImportOptions {
  std::optional<std::uint64_t> clock_hz;  // --threadx-clock-hz; kDefaultClockHz when not given
  TraceObserver* observer = nullptr;
};

struct ImportResult {
  std::uint64_t events = 0;  // entries read (used ones)
  std::uint64_t first_ts_ns = 0, last_ts_ns = 0;
  std::vector<std::string> notes;
};

/// Reads the buffer in `bytes` (named `input` in messages) onto the timeline.
/// Throws BufferError for a buffer that cannot be read or holds no entry.
ImportResult import_buffer(std::span<const std::uint8_t> bytes, const std::string& input, const ImportOptions& options,
                           Timeline& timeline, Diagnostics& diagnostics);

}  // namespace tband::threadx
