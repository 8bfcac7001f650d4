// Run-time filters (tband_configUSE_FILTERS): which events a hook traces.
//
// Global filter: a 256-bit enable set, one bit per event id. Local filter: a
// small table of objects left out, each the pair (filter key, object id), a
// filter key being a schema field marked filter_key (isr_id, task_id, ...),
// compared with the event's first field. A hook checks both before it enters
// its critical section or reads the timestamp: built for speed, with the id
// and the key constants, a load, a bit test and a branch (and, for an event
// with a key, a load and a branch while the table is empty).
//
// Updates (filter.cpp) run under a lock and publish each 32-bit word with one
// atomic store; hooks read them with relaxed atomic loads, from any core or
// interrupt, without a lock: a hook racing with an update sees the old or the
// new word. Metadata (names) is never filtered, nor are the filter's own events.
//
// With tband_configUSE_FILTERS 0 nothing here makes code.
#pragma once

#include "runtime.hpp"

namespace tband::rt::filter {

inline constexpr bool kUseFilters = tband_configUSE_FILTERS == 1;

#if tband_configUSE_FILTERS == 1
inline constexpr std::size_t kMaxObjects = tband_configFILTER_MAX_OBJECTS;
inline constexpr unsigned kObjectIdBits = 24;  // an entry: key << 24 | object id; 0 is empty

struct State {
  std::uint32_t ids[8];              // bit (id & 31) of ids[id >> 5]: the event is traced
  std::uint32_t objects[kMaxObjects];  // the objects left out, 0: free
  std::uint32_t objects_used;        // entries in use (0: the hooks skip the table)
};
extern State g_state;

constexpr std::uint32_t object_entry(std::uint32_t key, std::uint32_t object_id) noexcept {
  return (key << kObjectIdBits) | object_id;
}

/// Whether the object table holds (key, value). Out of line: only taken while
/// the table has entries, for events with a filter key.
bool object_left_out(std::uint32_t key, std::uint32_t value) noexcept;

/// Sends the filter's keys and state as metadata (filter.cpp).
void send_metadata() noexcept;
#endif

/// What the filter says of an event by its id alone: traced, left out, or
/// ask the object table (the event has a filter key and the table has entries).
enum class Verdict : std::uint8_t { kTraced, kLeftOut, kAskTable };

__attribute__((always_inline)) inline Verdict verdict(std::uint32_t id) noexcept {
#if tband_configUSE_FILTERS == 1
  const std::uint32_t word = __atomic_load_n(&g_state.ids[(id >> 5) & 7], __ATOMIC_RELAXED);
  if (__builtin_expect(((word >> (id & 31)) & 1) == 0, 0)) {
    return Verdict::kLeftOut;
  }
  // The table's count first: usually 0, and one load fewer on the way.
  if (__builtin_expect(__atomic_load_n(&g_state.objects_used, __ATOMIC_RELAXED) != 0, 0) &&
      enc::kFilterKeyOf[id & 0xFF] != 0) {
    return Verdict::kAskTable;
  }
#else
  (void)id;
#endif
  return Verdict::kTraced;
}

/// Whether the filter leaves out the event `id` (not metadata) whose first
/// field is value() (called only when the object table must be asked).
template <class Value>
__attribute__((always_inline)) inline bool left_out(std::uint32_t id, Value&& value) noexcept {
#if tband_configUSE_FILTERS == 1
  switch (verdict(id)) {
    case Verdict::kLeftOut:
      return true;
    case Verdict::kAskTable:
      return object_left_out(enc::kFilterKeyOf[id & 0xFF], static_cast<std::uint32_t>(value()));
    case Verdict::kTraced:
      break;
  }
  return false;
#else
  (void)id;
  (void)value;
  return false;
#endif
}

}  // namespace tband::rt::filter
