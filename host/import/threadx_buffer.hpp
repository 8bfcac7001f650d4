// A ThreadX event trace buffer (TX_ENABLE_EVENT_TRACE, the .trx file TraceX
// reads): the RAM area tx_trace_enable() was given, dumped as it is. Parsed
// into its header, object registry and entries, the entries in time order
// (the oldest at the header's current pointer, unused ones left out) with
// time stamps unwrapped by the header's timer-valid mask. Knows nothing of
// the model: threadx_import.hpp turns it into one. Layout facts: host/THREADX.md.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tband::threadx {

/// A buffer that cannot be read at all; the message says where and why.
class BufferError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint32_t kTraceId = 0x54585442u;  // "TXTB" as a 32-bit word
inline constexpr std::size_t kHeaderSize = 48;
inline constexpr std::size_t kEntrySize = 32;        // 8 ULONGs: 32-bit on every port, 64-bit ones too
inline constexpr std::size_t kRegistryFixedSize = 16;  // before the name
inline constexpr std::uint32_t kIsrContext = 0xFFFFFFFFu;   // thread pointer of an entry made in an ISR
inline constexpr std::uint32_t kInitContext = 0xF0F0F0F0u;  // ... during initialisation
inline constexpr std::uint32_t kInvalidEvent = 0xFFFFFFFFu;
inline constexpr std::uint32_t kUserEventStart = 4096;

enum class ObjectType : std::uint8_t {
  kNone = 0, kThread = 1, kTimer = 2, kQueue = 3, kSemaphore = 4, kMutex = 5, kEventFlags = 6,
  kBlockPool = 7, kBytePool = 8,
};
[[nodiscard]] std::string_view object_type_name(std::uint8_t type) noexcept;

struct RegistryEntry {
  std::uint8_t type = 0;
  std::uint32_t pointer = 0;
  std::uint32_t param1 = 0, param2 = 0;  // thread: stack start/size; queue: size/message size; ...
  std::uint16_t priority = 0;            // threads: priority when registered
  std::string name;
};

struct Entry {
  std::uint32_t thread = 0;    // the running thread, kIsrContext or kInitContext
  std::uint32_t priority = 0;  // thread: bit 31 | threshold << 16 | priority; ISR: the interrupted thread
  std::uint32_t event = 0;
  std::uint32_t raw_time = 0;  // as stored
  std::uint64_t time = 0;      // unwrapped, in ticks of the time source
  std::uint32_t info[4] = {};
  std::size_t offset = 0;      // byte offset in the file, for diagnostics
};

struct Buffer {
  bool big_endian = false;
  std::uint32_t time_mask = 0xFFFFFFFFu;
  std::uint32_t base = 0;
  std::uint16_t name_size = 0;
  std::size_t registry_slots = 0;
  std::size_t registry_free = 0;  // slots still available: 0 means objects may be missing
  std::vector<RegistryEntry> registry;  // the used slots
  std::size_t entry_slots = 0;
  bool wrapped = false;           // the oldest slot was written: the start of the trace is lost
  std::vector<Entry> entries;     // used entries, oldest first
  std::uint64_t time_wraps = 0;   // how often the time stamp wrapped around its mask
};

/// Whether the bytes start like a ThreadX trace buffer (either byte order).
[[nodiscard]] bool looks_like_buffer(std::span<const std::uint8_t> head) noexcept;

/// Parses a whole buffer. Throws BufferError when the header is not one or
/// its pointers do not fit the file.
[[nodiscard]] Buffer parse_buffer(std::span<const std::uint8_t> bytes);

/// What tx_trace.h says an event id is: a name and up to four field names ("" unused).
struct EventKind {
  std::uint32_t id;
  std::string_view name;
  std::string_view fields[4];
};
/// The ThreadX event with this id, or nullptr (user events and unknown ids).
[[nodiscard]] const EventKind* find_event_kind(std::uint32_t id) noexcept;

/// How tband names an event: "tx_<call>" for ThreadX's, "user_event_<id>"
/// from 4096, "event_<id>" for an id ThreadX does not define.
[[nodiscard]] std::string event_name(std::uint32_t id);

/// The thread states of TX_TRACE_THREAD_SUSPEND's new-state field, as words
/// ("sleep", "queue", "mutex", ...); "" for one that is not a suspension.
[[nodiscard]] std::string_view suspension_reason(std::uint32_t state) noexcept;

}  // namespace tband::threadx
