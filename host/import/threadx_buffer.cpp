#include "import/threadx_buffer.hpp"

#include <algorithm>
#include <array>

#include "input/input_format.hpp"

namespace tband::threadx {

namespace {

// Event ids and the meaning of their four information fields: facts of
// ThreadX's tx_trace.h (1-199 are the kernel's), in tband's words.
constexpr EventKind kEvents[] = {
    {1, "thread_resume", {"thread_ptr", "previous_state", "stack_ptr", "next_thread"}},
    {2, "thread_suspend", {"thread_ptr", "new_state", "stack_ptr", "next_thread"}},
    {3, "isr_enter", {"stack_ptr", "isr_number", "system_state", "preempt_disable"}},
    {4, "isr_exit", {"stack_ptr", "isr_number", "system_state", "preempt_disable"}},
    {5, "time_slice", {"next_thread_ptr", "system_state", "preempt_disable", "stack_ptr"}},
    {6, "running", {"", "", "", ""}},
    {10, "block_allocate", {"pool_ptr", "memory_ptr", "wait_option", "remaining_blocks"}},
    {11, "block_pool_create", {"pool_ptr", "pool_start", "total_blocks", "block_size"}},
    {12, "block_pool_delete", {"pool_ptr", "stack_ptr", "", ""}},
    {13, "block_pool_info_get", {"pool_ptr", "", "", ""}},
    {14, "block_pool_performance_info_get", {"pool_ptr", "", "", ""}},
    {15, "block_pool_performance_system_info_get", {"", "", "", ""}},
    {16, "block_pool_prioritize", {"pool_ptr", "suspended_count", "stack_ptr", ""}},
    {17, "block_release", {"pool_ptr", "memory_ptr", "suspended", "stack_ptr"}},
    {20, "byte_allocate", {"pool_ptr", "memory_ptr", "size_requested", "wait_option"}},
    {21, "byte_pool_create", {"pool_ptr", "start_ptr", "pool_size", "stack_ptr"}},
    {22, "byte_pool_delete", {"pool_ptr", "stack_ptr", "", ""}},
    {23, "byte_pool_info_get", {"pool_ptr", "", "", ""}},
    {24, "byte_pool_performance_info_get", {"pool_ptr", "", "", ""}},
    {25, "byte_pool_performance_system_info_get", {"", "", "", ""}},
    {26, "byte_pool_prioritize", {"pool_ptr", "suspended_count", "stack_ptr", ""}},
    {27, "byte_release", {"pool_ptr", "memory_ptr", "suspended", "available_bytes"}},
    {30, "event_flags_create", {"group_ptr", "stack_ptr", "", ""}},
    {31, "event_flags_delete", {"group_ptr", "stack_ptr", "", ""}},
    {32, "event_flags_get", {"group_ptr", "requested_flags", "current_flags", "get_option"}},
    {33, "event_flags_info_get", {"group_ptr", "", "", ""}},
    {34, "event_flags_performance_info_get", {"group_ptr", "", "", ""}},
    {35, "event_flags_performance_system_info_get", {"", "", "", ""}},
    {36, "event_flags_set", {"group_ptr", "flags_to_set", "set_option", "suspended_count"}},
    {37, "event_flags_set_notify", {"group_ptr", "", "", ""}},
    {40, "interrupt_control", {"new_interrupt_posture", "stack_ptr", "", ""}},
    {50, "mutex_create", {"mutex_ptr", "inheritance", "stack_ptr", ""}},
    {51, "mutex_delete", {"mutex_ptr", "stack_ptr", "", ""}},
    {52, "mutex_get", {"mutex_ptr", "wait_option", "owning_thread", "own_count"}},
    {53, "mutex_info_get", {"mutex_ptr", "", "", ""}},
    {54, "mutex_performance_info_get", {"mutex_ptr", "", "", ""}},
    {55, "mutex_performance_system_info_get", {"", "", "", ""}},
    {56, "mutex_prioritize", {"mutex_ptr", "suspended_count", "stack_ptr", ""}},
    {57, "mutex_put", {"mutex_ptr", "owning_thread", "own_count", "stack_ptr"}},
    {60, "queue_create", {"queue_ptr", "message_size", "queue_start", "queue_size"}},
    {61, "queue_delete", {"queue_ptr", "stack_ptr", "", ""}},
    {62, "queue_flush", {"queue_ptr", "stack_ptr", "", ""}},
    {63, "queue_front_send", {"queue_ptr", "source_ptr", "wait_option", "enqueued"}},
    {64, "queue_info_get", {"queue_ptr", "", "", ""}},
    {65, "queue_performance_info_get", {"queue_ptr", "", "", ""}},
    {66, "queue_performance_system_info_get", {"", "", "", ""}},
    {67, "queue_prioritize", {"queue_ptr", "suspended_count", "stack_ptr", ""}},
    {68, "queue_receive", {"queue_ptr", "destination_ptr", "wait_option", "enqueued"}},
    {69, "queue_send", {"queue_ptr", "source_ptr", "wait_option", "enqueued"}},
    {70, "queue_send_notify", {"queue_ptr", "", "", ""}},
    {80, "semaphore_ceiling_put", {"semaphore_ptr", "current_count", "suspended_count", "ceiling"}},
    {81, "semaphore_create", {"semaphore_ptr", "initial_count", "stack_ptr", ""}},
    {82, "semaphore_delete", {"semaphore_ptr", "stack_ptr", "", ""}},
    {83, "semaphore_get", {"semaphore_ptr", "wait_option", "current_count", "stack_ptr"}},
    {84, "semaphore_info_get", {"semaphore_ptr", "", "", ""}},
    {85, "semaphore_performance_info_get", {"semaphore_ptr", "", "", ""}},
    {86, "semaphore_performance_system_info_get", {"", "", "", ""}},
    {87, "semaphore_prioritize", {"semaphore_ptr", "suspended_count", "stack_ptr", ""}},
    {88, "semaphore_put", {"semaphore_ptr", "current_count", "suspended_count", "stack_ptr"}},
    {89, "semaphore_put_notify", {"semaphore_ptr", "", "", ""}},
    {100, "thread_create", {"thread_ptr", "priority", "stack_ptr", "stack_size"}},
    {101, "thread_delete", {"thread_ptr", "stack_ptr", "", ""}},
    {102, "thread_entry_exit_notify", {"thread_ptr", "thread_state", "stack_ptr", ""}},
    {103, "thread_identify", {"", "", "", ""}},
    {104, "thread_info_get", {"thread_ptr", "thread_state", "", ""}},
    {105, "thread_performance_info_get", {"thread_ptr", "thread_state", "", ""}},
    {106, "thread_performance_system_info_get", {"", "", "", ""}},
    {107, "thread_preemption_change", {"thread_ptr", "new_threshold", "old_threshold", "thread_state"}},
    {108, "thread_priority_change", {"thread_ptr", "new_priority", "old_priority", "thread_state"}},
    {109, "thread_relinquish", {"stack_ptr", "next_thread_ptr", "", ""}},
    {110, "thread_reset", {"thread_ptr", "thread_state", "", ""}},
    {111, "thread_resume_api", {"thread_ptr", "thread_state", "stack_ptr", ""}},
    {112, "thread_sleep", {"sleep_value", "thread_state", "stack_ptr", ""}},
    {113, "thread_stack_error_notify", {"", "", "", ""}},
    {114, "thread_suspend_api", {"thread_ptr", "thread_state", "stack_ptr", ""}},
    {115, "thread_terminate", {"thread_ptr", "thread_state", "stack_ptr", ""}},
    {116, "thread_time_slice_change", {"thread_ptr", "new_timeslice", "old_timeslice", ""}},
    {117, "thread_wait_abort", {"thread_ptr", "thread_state", "stack_ptr", ""}},
    {120, "time_get", {"current_time", "stack_ptr", "", ""}},
    {121, "time_set", {"new_time", "", "", ""}},
    {122, "timer_activate", {"timer_ptr", "", "", ""}},
    {123, "timer_change", {"timer_ptr", "initial_ticks", "reschedule_ticks", ""}},
    {124, "timer_create", {"timer_ptr", "initial_ticks", "reschedule_ticks", "enable"}},
    {125, "timer_deactivate", {"timer_ptr", "stack_ptr", "", ""}},
    {126, "timer_delete", {"timer_ptr", "", "", ""}},
    {127, "timer_info_get", {"timer_ptr", "stack_ptr", "", ""}},
    {128, "timer_performance_info_get", {"timer_ptr", "", "", ""}},
    {129, "timer_performance_system_info_get", {"", "", "", ""}},
};

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, bool big_endian) : bytes_(bytes), big_(big_endian) {}
  [[nodiscard]] std::uint32_t u32(std::size_t at) const {
    const std::uint8_t* p = bytes_.data() + at;
    return big_ ? (std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3])
                : (std::uint32_t{p[3]} << 24 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[1]} << 8 | p[0]);
  }
  [[nodiscard]] std::uint16_t u16(std::size_t at) const {
    const std::uint8_t* p = bytes_.data() + at;
    return static_cast<std::uint16_t>(big_ ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]));
  }

 private:
  std::span<const std::uint8_t> bytes_;
  bool big_;
};

std::string hex(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[v & 0xF]);
    v >>= 4;
  } while (v != 0);
  return "0x" + out;
}

// The byte offset a header pointer stands for; throws when it is outside the file.
std::size_t offset_of(std::string_view what, std::uint32_t pointer, std::uint32_t base, std::size_t size) {
  const std::uint32_t off = pointer - base;  // modulo 2^32, as the pointers are
  if (off > size) {
    throw BufferError("ThreadX trace buffer: the header's " + std::string{what} + " (" + hex(pointer) +
                      ") is byte " + std::to_string(off) + " of the buffer, but the file has only " +
                      std::to_string(size) + " bytes (truncated dump?)");
  }
  return off;
}

}  // namespace

std::string_view object_type_name(std::uint8_t type) noexcept {
  static constexpr std::array<std::string_view, 9> kNames = {
      "object", "thread", "timer", "queue", "semaphore", "mutex", "event flags", "block pool", "byte pool"};
  return type < kNames.size() ? kNames[type] : "object";
}

bool looks_like_buffer(std::span<const std::uint8_t> head) noexcept { return sniff_threadx(head) != 0; }

Buffer parse_buffer(std::span<const std::uint8_t> bytes) {
  if (!looks_like_buffer(bytes)) {
    throw BufferError("not a ThreadX trace buffer: it does not start with the id TXTB (0x54585442) in either byte order");
  }
  if (bytes.size() < kHeaderSize) {
    throw BufferError("ThreadX trace buffer: " + std::to_string(bytes.size()) + " bytes, less than its " +
                      std::to_string(kHeaderSize) + "-byte header (truncated dump?)");
  }
  Buffer b;
  b.big_endian = bytes[0] == 0x54;
  const Reader r{bytes, b.big_endian};
  b.time_mask = r.u32(4);
  b.base = r.u32(8);
  b.name_size = r.u16(18);
  const std::size_t size = bytes.size();
  if (b.time_mask == 0) {
    // Also what a port with a 64-bit ULONG would write: "TXTB" then four zero bytes.
    throw BufferError("ThreadX trace buffer: the header's timer-valid mask is 0" +
                      std::string{r.u32(0) == kTraceId && r.u32(4) == 0 && r.u32(12) == 0
                                      ? " (8-byte header words? only ports whose ULONG is 32 bits are read)"
                                      : ""});
  }
  const std::size_t reg_start = offset_of("registry start", r.u32(12), b.base, size);
  const std::size_t reg_end = offset_of("registry end", r.u32(20), b.base, size);
  const std::size_t buf_start = offset_of("entries' start", r.u32(24), b.base, size);
  const std::size_t buf_end = offset_of("entries' end", r.u32(28), b.base, size);
  const std::size_t current = offset_of("current entry", r.u32(32), b.base, size);
  const std::size_t slot = kRegistryFixedSize + b.name_size;
  const auto bad = [&](const std::string& why) {
    return BufferError("ThreadX trace buffer: " + why + " (registry bytes " + std::to_string(reg_start) + "-" +
                       std::to_string(reg_end) + ", entries bytes " + std::to_string(buf_start) + "-" +
                       std::to_string(buf_end) + ", current " + std::to_string(current) + ")");
  };
  if (b.name_size == 0) {
    throw bad("the header's object name size is 0");
  }
  if (reg_start < kHeaderSize || reg_end < reg_start || buf_start < reg_end || buf_end < buf_start) {
    throw bad("the header's pointers are out of order");
  }
  if ((reg_end - reg_start) % slot != 0) {
    throw bad("the registry is not a whole number of " + std::to_string(slot) + "-byte slots");
  }
  if ((buf_end - buf_start) % kEntrySize != 0 || buf_end == buf_start) {
    throw bad("the entries are not a whole number of " + std::to_string(kEntrySize) + "-byte entries");
  }
  if (current < buf_start || current >= buf_end || (current - buf_start) % kEntrySize != 0) {
    throw bad("the current pointer is not at an entry");
  }

  b.registry_slots = (reg_end - reg_start) / slot;
  for (std::size_t at = reg_start; at < reg_end; at += slot) {
    if (bytes[at] == 1) {  // available
      ++b.registry_free;
      continue;
    }
    RegistryEntry& e = b.registry.emplace_back();
    e.type = bytes[at + 1];
    e.priority = static_cast<std::uint16_t>((bytes[at + 2] & 0x7F) << 8 | bytes[at + 3]);  // bit 7: a thread
    e.pointer = r.u32(at + 4);
    e.param1 = r.u32(at + 8);
    e.param2 = r.u32(at + 12);
    const auto* name = reinterpret_cast<const char*>(bytes.data() + at + kRegistryFixedSize);
    e.name.assign(name, std::find(name, name + b.name_size, '\0'));
  }

  // Entries in time order: from the current (oldest) one to the end, then from the start.
  b.entry_slots = (buf_end - buf_start) / kEntrySize;
  b.wrapped = r.u32(current) != 0;
  b.entries.reserve(b.entry_slots);
  // The highest time stamp + 1 (the mask's bits, contiguous from bit 0 as TX_TRACE_TIME_MASK is).
  const std::uint64_t period = std::uint64_t{b.time_mask} + 1;
  std::uint64_t epoch = 0;
  bool first = true;
  std::uint32_t last = 0;
  for (std::size_t i = 0; i < b.entry_slots; ++i) {
    const std::size_t at = buf_start + (current - buf_start + i * kEntrySize) % (buf_end - buf_start);
    const std::uint32_t thread = r.u32(at);
    const std::uint32_t event = r.u32(at + 8);
    if (thread == 0 || event == kInvalidEvent) {
      continue;  // never written
    }
    Entry& e = b.entries.emplace_back();
    e.thread = thread;
    e.priority = r.u32(at + 4);
    e.event = event;
    e.raw_time = r.u32(at + 12) & b.time_mask;
    for (std::size_t k = 0; k < 4; ++k) {
      e.info[k] = r.u32(at + 16 + 4 * k);
    }
    e.offset = at;
    if (!first && e.raw_time < last) {
      epoch += period;
      ++b.time_wraps;
    }
    first = false;
    last = e.raw_time;
    e.time = epoch + e.raw_time;
  }
  return b;
}

const EventKind* find_event_kind(std::uint32_t id) noexcept {
  const auto* it = std::lower_bound(std::begin(kEvents), std::end(kEvents), id,
                                    [](const EventKind& k, std::uint32_t v) { return k.id < v; });
  return it != std::end(kEvents) && it->id == id ? it : nullptr;
}

std::string event_name(std::uint32_t id) {
  if (const EventKind* known = find_event_kind(id)) {
    return "tx_" + std::string{known->name};
  }
  return (id >= kUserEventStart ? "user_event_" : "event_") + std::to_string(id);
}

std::string_view suspension_reason(std::uint32_t state) noexcept {
  // TX_SUSPENDED (3) and the ones after it, as tx_api.h numbers them.
  static constexpr std::array<std::string_view, 15> kReasons = {
      "", "", "", "suspended", "sleep", "queue", "semaphore", "event flags", "block pool", "byte pool",
      "I/O driver", "file", "TCP/IP", "mutex", "priority change"};
  return state < kReasons.size() ? kReasons[state] : "";
}

}  // namespace tband::threadx
