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

/// Whether the filter leaves out the event `id` (not metadata) whose first
/// field is value() (called only when the event has a filter key).
template <class Value>
__attribute__((always_inline)) inline bool left_out(std::uint32_t id, Value&& value) noexcept {
#if tband_configUSE_FILTERS == 1
  const std::uint32_t word = __atomic_load_n(&g_state.ids[(id >> 5) & 7], __ATOMIC_RELAXED);
  if (__builtin_expect(((word >> (id & 31)) & 1) == 0, 0)) {
    return true;
  }
  const std::uint32_t key = enc::kFilterKeyOf[id & 0xFF];
  if (key != 0 && __builtin_expect(__atomic_load_n(&g_state.objects_used, __ATOMIC_RELAXED) != 0, 0)) {
    return object_left_out(key, static_cast<std::uint32_t>(value()));
  }
  return false;
#else
  (void)id;
  (void)value;
  return false;
#endif
}

}  // namespace tband::rt::filter
