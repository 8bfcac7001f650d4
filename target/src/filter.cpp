// Run-time filters: the state the hooks read (filter.hpp), the tband_filter_*
// C API that changes it and the events that tell the trace when it changed.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_FILTERS == 1

#include "filter.hpp"
#include "hook_body.hpp"
#include "tband_user_events.h"  // TBAND_FILTER_KEY_* and TBAND_FILTER_GROUP_*, for the initial sets

namespace enc = tband::enc;
namespace rt = tband::rt;
namespace filter = tband::rt::filter;
using namespace tband::rt::hook;

namespace {

constexpr std::uint32_t bit_of(unsigned id) noexcept { return 1u << (id & 31); }

/// Ids the filter cannot leave out: its own events and the tracer's reports
/// (which no hook sends). Their bits stay set.
constexpr bool always_traced(unsigned id) noexcept {
  return id == enc::FilterIds::kId || id == enc::FilterObjectOff::kId || id == enc::FilterObjectOn::kId ||
         id == enc::CoreId::kId || id == enc::DroppedEvtCnt::kId || id == enc::MetadataOverflow::kId;
}

constexpr int kInitialOffIds[] = {-1, tband_configFILTER_INITIAL_OFF_IDS};
constexpr int kInitialOffGroups[] = {-1, tband_configFILTER_INITIAL_OFF_GROUPS};
constexpr std::uint32_t kInitialOffObjects[] = {0, tband_configFILTER_INITIAL_OFF_OBJECTS};

constexpr bool initial_sets_valid() noexcept {
  for (const int id : kInitialOffIds) {
    if (id < -1 || id > 255) {
      return false;
    }
  }
  for (const int group : kInitialOffGroups) {
    if (group < -1 || group >= static_cast<int>(enc::kFilterGroupCount)) {
      return false;
    }
  }
  for (const std::uint32_t entry : kInitialOffObjects) {
    const std::uint32_t key = entry >> filter::kObjectIdBits;
    if (entry != 0 && (key == 0 || key > enc::kFilterKeyCount)) {
      return false;
    }
  }
  return true;
}
static_assert(initial_sets_valid(),
              "tband: tband_configFILTER_INITIAL_OFF_IDS holds event ids (0-255), tband_configFILTER_INITIAL_OFF_GROUPS "
              "TBAND_FILTER_GROUP_* and tband_configFILTER_INITIAL_OFF_OBJECTS TBAND_FILTER_OBJECT(TBAND_FILTER_KEY_*, id)");
static_assert(sizeof(kInitialOffObjects) / sizeof(kInitialOffObjects[0]) - 1 <= filter::kMaxObjects,
              "tband: more tband_configFILTER_INITIAL_OFF_OBJECTS than tband_configFILTER_MAX_OBJECTS");

constexpr filter::State initial_state() noexcept {
  filter::State state{};
  for (std::uint32_t& word : state.ids) {
    word = ~0u;
  }
  for (const int id : kInitialOffIds) {
    if (id >= 0 && !always_traced(static_cast<unsigned>(id))) {
      state.ids[id >> 5] &= ~bit_of(static_cast<unsigned>(id));
    }
  }
  for (const int group : kInitialOffGroups) {
    for (unsigned id = 0; group >= 0 && id < 256; ++id) {
      if ((enc::kFilterGroups[group].mask[id >> 5] & bit_of(id)) != 0 && !always_traced(id)) {
        state.ids[id >> 5] &= ~bit_of(id);
      }
    }
  }
  for (const std::uint32_t entry : kInitialOffObjects) {
    if (entry != 0) {
      state.objects[state.objects_used++] = entry;
    }
  }
  return state;
}

rt::Spinlock g_lock;

/// The filter's lock: the caller's critical section, and between cores the spinlock.
class Guard {
 public:
  Guard() noexcept {
    tband_portENTER_CRITICAL_FROM_ANY();
    g_lock.lock();
  }
  ~Guard() {
    g_lock.unlock();
    tband_portEXIT_CRITICAL_FROM_ANY();
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};

/// Sets the words of the enable set: bits in `mask` to traced or not. Sends a
/// filter_ids event for each word that changed (after the lock: the event
/// goes through the hook body, which takes the critical section itself).
void update_ids(const std::uint32_t (&mask)[8], bool traced) noexcept {
  std::uint32_t changed[8] = {};
  std::uint32_t values[8] = {};
  {
    const Guard guard;
    for (unsigned w = 0; w < 8; ++w) {
      std::uint32_t bits = mask[w];
      for (unsigned b = 0; b < 32; ++b) {
        if (always_traced(w * 32 + b)) {
          bits &= ~bit_of(b);
        }
      }
      const std::uint32_t old = __atomic_load_n(&filter::g_state.ids[w], __ATOMIC_RELAXED);
      const std::uint32_t now = traced ? (old | bits) : (old & ~bits);
      if (now != old) {
        __atomic_store_n(&filter::g_state.ids[w], now, __ATOMIC_RELAXED);
        changed[w] = 1;
        values[w] = now;
      }
    }
  }
  for (unsigned w = 0; w < 8; ++w) {
    if (changed[w] != 0) {
      trace_hook(kKind<enc::FilterIds, kTsValueU32>, w, values[w]);
    }
  }
}

bool valid_object(std::uint32_t key, std::uint32_t object_id) noexcept {
  return key != 0 && key <= enc::kFilterKeyCount && object_id < (1u << filter::kObjectIdBits);
}

}  // namespace

filter::State filter::g_state = initial_state();

bool filter::object_left_out(std::uint32_t key, std::uint32_t value) noexcept {
  if (value >= (1u << kObjectIdBits)) {
    return false;
  }
  const std::uint32_t entry = object_entry(key, value);
  for (const std::uint32_t& slot : g_state.objects) {
    if (__atomic_load_n(&slot, __ATOMIC_RELAXED) == entry) {
      return true;
    }
  }
  return false;
}

extern "C" int tband_filter_set_event(uint8_t event_id, bool traced) {
  if (always_traced(event_id)) {
    return -1;
  }
  std::uint32_t mask[8] = {};
  mask[event_id >> 5] = bit_of(event_id);
  update_ids(mask, traced);
  return 0;
}

extern "C" bool tband_filter_event_traced(uint8_t event_id) {
  return ((__atomic_load_n(&filter::g_state.ids[event_id >> 5], __ATOMIC_RELAXED) >> (event_id & 31)) & 1) != 0;
}

extern "C" int tband_filter_set_group(unsigned int group, bool traced) {
  if (group >= enc::kFilterGroupCount) {
    return -1;
  }
  update_ids(enc::kFilterGroups[group].mask, traced);
  return 0;
}

extern "C" int tband_filter_set_all(bool traced) {
  constexpr std::uint32_t kAll[8] = {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u};
  update_ids(kAll, traced);
  return 0;
}

extern "C" int tband_filter_set_object(uint8_t key, uint32_t object_id, bool traced) {
  if (!valid_object(key, object_id)) {
    return -1;
  }
  const std::uint32_t entry = filter::object_entry(key, object_id);
  bool changed = false;
  {
    const Guard guard;
    std::uint32_t* found = nullptr;
    std::uint32_t* free_slot = nullptr;
    for (std::uint32_t& slot : filter::g_state.objects) {
      if (slot == entry) {
        found = &slot;
      } else if (slot == 0 && free_slot == nullptr) {
        free_slot = &slot;
      }
    }
    if (!traced && found == nullptr) {
      if (free_slot == nullptr) {
        return -2;  // the table is full: tband_configFILTER_MAX_OBJECTS
      }
      __atomic_store_n(free_slot, entry, __ATOMIC_RELAXED);
      __atomic_store_n(&filter::g_state.objects_used, filter::g_state.objects_used + 1, __ATOMIC_RELAXED);
      changed = true;
    } else if (traced && found != nullptr) {
      __atomic_store_n(found, 0u, __ATOMIC_RELAXED);
      __atomic_store_n(&filter::g_state.objects_used, filter::g_state.objects_used - 1, __ATOMIC_RELAXED);
      changed = true;
    }
  }
  if (changed) {
    if (traced) {
      trace_hook(kKind<enc::FilterObjectOn, kTsValueU32>, object_id, key);
    } else {
      trace_hook(kKind<enc::FilterObjectOff, kTsValueU32>, object_id, key);
    }
  }
  return 0;
}

extern "C" bool tband_filter_object_traced(uint8_t key, uint32_t object_id) {
  return !valid_object(key, object_id) || !filter::object_left_out(key, object_id);
}

extern "C" int tband_filter_find_group(const char* name) {
  for (std::size_t g = 0; name != nullptr && g < enc::kFilterGroupCount; ++g) {
    const char* a = enc::kFilterGroups[g].name;
    const char* b = name;
    while (*a != '\0' && *a == *b) {
      ++a;
      ++b;
    }
    if (*a == '\0' && *b == '\0') {
      return static_cast<int>(g);
    }
  }
  return -1;
}

/// The filter as it stands, as metadata: the keys' names, the words of the
/// set that are not all ones, the objects left out (tband_gather_system_metadata()).
void tband::rt::filter::send_metadata() noexcept {
  for (std::uint32_t key = 1; key <= enc::kFilterKeyCount; ++key) {
    trace_hook(kKind<enc::FilterKeyName, kMetaValueStr>, key, as_payload(enc::kFilterKeyNames[key - 1]));
  }
  for (std::uint32_t w = 0; w < 8; ++w) {
    const std::uint32_t word = __atomic_load_n(&g_state.ids[w], __ATOMIC_RELAXED);
    if (word != ~0u) {
      trace_hook(kKind<enc::FilterIdsInitial, kMetaValueU32>, w, word);
    }
  }
  for (const std::uint32_t& slot : g_state.objects) {
    const std::uint32_t entry = __atomic_load_n(&slot, __ATOMIC_RELAXED);
    if (entry != 0) {
      trace_hook(kKind<enc::FilterObjectInitial, kMetaValueU32>, entry & ((1u << kObjectIdBits) - 1),
                 entry >> kObjectIdBits);
    }
  }
}

#endif
