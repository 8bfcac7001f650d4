// The FreeRTOS module's hooks: what the kernel's trace macros call
// (include/tband/freertos.h), and the task-local markers. Every event goes
// through the shared hook body, trace_hook() (hook_body.hpp), as the base
// hooks' do; a hook only works out the event's fields first.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configFREERTOS_TRACE_ENABLE == 1

#include <atomic>

#include "hook_body.hpp"

namespace enc = tband::enc;
namespace rt = tband::rt;
using namespace tband::rt::hook;

static_assert(TBAND_FRQK_QUEUE == static_cast<unsigned>(enc::FrQueueKind::FRQK_QUEUE) &&
                  TBAND_FRQK_COUNTING_SEMPHR == static_cast<unsigned>(enc::FrQueueKind::FRQK_COUNTING_SEMPHR) &&
                  TBAND_FRQK_BINARY_SEMPHR == static_cast<unsigned>(enc::FrQueueKind::FRQK_BINARY_SEMPHR) &&
                  TBAND_FRQK_MUTEX == static_cast<unsigned>(enc::FrQueueKind::FRQK_MUTEX) &&
                  TBAND_FRQK_RECURSIVE_MUTEX == static_cast<unsigned>(enc::FrQueueKind::FRQK_RECURSIVE_MUTEX) &&
                  TBAND_FRQK_QUEUE_SET == static_cast<unsigned>(enc::FrQueueKind::FRQK_QUEUE_SET),
              "TBAND_FRQK_* must be the schema's FrQueueKind values");

namespace {

// Ids handed out so far; 0 is never an id (a kernel object the tracer has
// not seen). Queues are created outside the kernel's critical sections, so
// handing out an id is a read-modify-write that must not be interrupted.
std::atomic<std::uint32_t> g_next_task_id{1};
std::atomic<std::uint32_t> g_next_queue_id{1};

__attribute__((always_inline)) inline std::uint32_t next_id(std::atomic<std::uint32_t>& next) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  std::uint32_t id = 0;
  if constexpr (rt::kMultiCore) {
    id = next.fetch_add(1, std::memory_order_relaxed);
  } else {
    id = next.load(std::memory_order_relaxed);
    next.store(id + 1, std::memory_order_relaxed);
  }
  tband_portEXIT_CRITICAL_FROM_ANY();
  return id;
}

}  // namespace

// ---- Ids and names --------------------------------------------------------------

// traceTASK_CREATE calls this, then tband_freertos_hook_task_name(): the
// reference tracer's order (task_created, task_priority_set, task_name).
extern "C" std::uint32_t tband_freertos_hook_task_created(std::uint32_t priority) {
  const std::uint32_t id = next_id(g_next_task_id);
#if tband_configFREERTOS_TASK_TRACE_ENABLE == 1
  trace_hook(kKind<enc::TaskCreated, kTsValue>, id, 0);
  trace_hook(kKind<enc::TaskPrioritySet, kTsValueU32>, id, priority);
#else
  (void)priority;
#endif
  return id;
}

extern "C" void tband_freertos_hook_task_name(std::uint32_t task_id, const char* name) {
  trace_hook(kKind<enc::TaskName, kMetaValueStr>, task_id, as_payload(name));
}

extern "C" std::uint32_t tband_freertos_hook_queue_created(std::uint32_t kind) {
  const std::uint32_t id = next_id(g_next_queue_id);
  trace_hook(kKind<enc::QueueCreated, kTsValue>, id, 0);
#if tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1
  trace_hook(kKind<enc::QueueKind, kMetaValueU8>, id, kind);
  trace_hook(kKind<enc::QueueCurLength, kTsValueU32>, id, 0);
#else
  (void)kind;
#endif
  return id;
}

extern "C" void tband_freertos_hook_queue_name(std::uint32_t queue_id, const char* name) {
  trace_hook(kKind<enc::QueueName, kMetaValueStr>, queue_id, as_payload(name));
}

extern "C" void tband_freertos_hook_idle_task(std::uint32_t task_id, std::uint32_t core_id) {
  trace_hook(kKind<enc::TaskIsIdleTask, kMetaValueU32>, task_id, core_id);
}

extern "C" void tband_freertos_hook_timer_task(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskIsTimerTask, kMetaValue>, task_id, 0);
}

// ---- Scheduling ------------------------------------------------------------------

#if tband_configFREERTOS_TASK_TRACE_ENABLE == 1

namespace {
// The task each core runs, as far as the switches said (the task-local
// marker names carry it). Written by the core's own scheduler only.
std::uint32_t& current_task_of(unsigned core) noexcept { return rt::per_core(g_current_task, core); }
// Whether the core's last switch was traced: a repeat of it is left out,
// but not the first switch after tracing started (it says who runs).
bool g_switch_traced[rt::kCores] = {};
}  // namespace

// Kernels call traceTASK_SWITCHED_IN on every switch request, also when the
// task keeps running (a preemptive kernel at each tick or wake-up of a task of
// lower priority, a cooperative one at each yield): those repeats are not
// sent, per core (a task that ran on another core in between was switched
// out of this one first).
extern "C" bool tband_freertos_hook_task_switched_in(std::uint32_t task_id) {
  const unsigned core = rt::current_core();
  std::uint32_t& current = current_task_of(core);
  bool& traced = rt::per_core(g_switch_traced, core);
  const bool first = current == 0;  // 0 is no task's id
  if (current == task_id && traced) {
    return false;
  }
  current = task_id;
  traced = rt::backend::accepting();  // tracing is on (always, for the external backend)
  trace_hook(kKind<enc::TaskSwitchedIn, kTsValue>, task_id, 0);
  return first;
}

extern "C" void tband_freertos_hook_task_to_rdy_state(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskToRdyState, kTsValue>, task_id, 0);
}
extern "C" void tband_freertos_hook_task_resumed(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskResumed, kTsValue>, task_id, 0);
}
extern "C" void tband_freertos_hook_task_resumed_from_isr(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskResumedFromIsr, kTsValue>, task_id, 0);
}
extern "C" void tband_freertos_hook_task_suspended(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskSuspended, kTsValue>, task_id, 0);
}
extern "C" void tband_freertos_hook_task_deleted(std::uint32_t task_id) {
  trace_hook(kKind<enc::TaskDeleted, kTsValue>, task_id, 0);
}
extern "C" void tband_freertos_hook_curtask_delay(std::uint32_t ticks) {
  trace_hook(kKind<enc::CurtaskDelay, kTsValue>, ticks, 0);
}
extern "C" void tband_freertos_hook_curtask_delay_until(std::uint32_t time_to_wake) {
  trace_hook(kKind<enc::CurtaskDelayUntil, kTsValue>, time_to_wake, 0);
}
extern "C" void tband_freertos_hook_task_priority_set(std::uint32_t task_id, std::uint32_t priority) {
  trace_hook(kKind<enc::TaskPrioritySet, kTsValueU32>, task_id, priority);
}
extern "C" void tband_freertos_hook_task_priority_inherit(std::uint32_t task_id, std::uint32_t priority) {
  trace_hook(kKind<enc::TaskPriorityInherit, kTsValueU32>, task_id, priority);
}
extern "C" void tband_freertos_hook_task_priority_disinherit(std::uint32_t task_id, std::uint32_t priority) {
  trace_hook(kKind<enc::TaskPriorityDisinherit, kTsValueU32>, task_id, priority);
}
extern "C" void tband_freertos_hook_block_on_queue_send(std::uint32_t queue_id, std::uint32_t ticks_to_wait) {
  trace_hook(kKind<enc::CurtaskBlockOnQueueSend, kTsValueU32>, queue_id, ticks_to_wait);
}
extern "C" void tband_freertos_hook_block_on_queue_receive(std::uint32_t queue_id, std::uint32_t ticks_to_wait) {
  trace_hook(kKind<enc::CurtaskBlockOnQueueReceive, kTsValueU32>, queue_id, ticks_to_wait);
}
extern "C" void tband_freertos_hook_block_on_queue_peek(std::uint32_t queue_id, std::uint32_t ticks_to_wait) {
  trace_hook(kKind<enc::CurtaskBlockOnQueuePeek, kTsValueU32>, queue_id, ticks_to_wait);
}

#endif  // tband_configFREERTOS_TASK_TRACE_ENABLE == 1

// ---- Queue traffic --------------------------------------------------------------

#if tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1

namespace {

// The kernel calls the send hooks before the item goes in. Into a full queue
// only xQueueOverwrite() gets that far, and it leaves the fill as it was.
__attribute__((always_inline)) inline void queue_send(std::uint32_t send_kind, std::uint32_t overwrite_kind,
                                                      std::uint32_t queue_id, std::uint32_t waiting,
                                                      std::uint32_t length) noexcept {
  const bool overwrite = waiting >= length;
  trace_hook(overwrite ? overwrite_kind : send_kind, queue_id, overwrite ? waiting : waiting + 1);
}

// The receive hooks come before the item leaves (the kernel only calls them
// when there is one).
constexpr std::uint32_t after_receive(std::uint32_t waiting) noexcept { return waiting > 0 ? waiting - 1 : 0; }

}  // namespace

extern "C" void tband_freertos_hook_queue_send(std::uint32_t queue_id, std::uint32_t waiting, std::uint32_t length) {
  queue_send(kKind<enc::QueueSend, kTsValueU32>, kKind<enc::QueueOverwrite, kTsValueU32>, queue_id, waiting, length);
}
extern "C" void tband_freertos_hook_queue_send_from_isr(std::uint32_t queue_id, std::uint32_t waiting,
                                                       std::uint32_t length) {
  queue_send(kKind<enc::QueueSendFromIsr, kTsValueU32>, kKind<enc::QueueOverwriteFromIsr, kTsValueU32>, queue_id,
             waiting, length);
}
extern "C" void tband_freertos_hook_queue_receive(std::uint32_t queue_id, std::uint32_t waiting) {
  trace_hook(kKind<enc::QueueReceive, kTsValueU32>, queue_id, after_receive(waiting));
}
extern "C" void tband_freertos_hook_queue_receive_from_isr(std::uint32_t queue_id, std::uint32_t waiting) {
  trace_hook(kKind<enc::QueueReceiveFromIsr, kTsValueU32>, queue_id, after_receive(waiting));
}
extern "C" void tband_freertos_hook_queue_reset(std::uint32_t queue_id) {
  trace_hook(kKind<enc::QueueReset, kTsValue>, queue_id, 0);
}
extern "C" void tband_freertos_hook_queue_cur_length(std::uint32_t queue_id, std::uint32_t length) {
  trace_hook(kKind<enc::QueueCurLength, kTsValueU32>, queue_id, length);
}
extern "C" void tband_freertos_hook_queue_kind(std::uint32_t queue_id, std::uint32_t kind) {
  trace_hook(kKind<enc::QueueKind, kMetaValueU8>, queue_id, kind);
}

#endif  // tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1

// ---- Events with more fields than trace_hook() takes -------------------------------

#if TBAND_FREERTOS_NOTIFY_ON || TBAND_FREERTOS_EVENT_GROUPS_ON || TBAND_FREERTOS_STREAM_BUFFERS_ON || \
    TBAND_FREERTOS_TIMERS_ON || TBAND_FREERTOS_QUEUE_SETS_ON

#include "user_hook.hpp"

namespace {

// A third or fourth integer field, or a one-byte one, does not fit
// trace_hook()'s value and payload. Built for size, these events have one
// body of their own, the same critical section, timestamp, event path and
// compact encoder, with up to four fields passed in registers and put in a
// scratch of their own, inside the critical section (the base hooks' scratch
// holds three fields: the base images stay as they are).
#if tband_configOPTIMIZE_FOR_SIZE == 1
std::uint64_t g_fields[rt::kCores][5];

__attribute__((noinline)) void trace_fields(std::uint32_t spec, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                            std::uint32_t d) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = rt::current_core();
  std::uint64_t* const fields = rt::per_core(g_fields, core);
  fields[1] = a;  // before the timestamp call: nothing but spec and fields stays live across it
  fields[2] = b;
  fields[3] = c;
  fields[4] = d;
  const std::uint64_t ts = rt::ts_field(core, false, tband_portTIMESTAMP());
  fields[0] = ts;
  rt::trace_event<enc::kMaxFramedLen>(core, ts, false, [&](std::uint8_t* out) __attribute__((always_inline)) {
    return enc::encode_fields(out, spec, fields, nullptr);
  });
  tband_portEXIT_CRITICAL_FROM_ANY();
}
#endif

// One event: built for size, trace_fields() with its spec and fields (one
// body for all of them); built for speed, the event's own generated encoder
// (its arguments: the same fields, typed) inlined into the hook, as the base
// hooks are (user_hook.hpp's body).
#if tband_configOPTIMIZE_FOR_SIZE == 1
// trace_fields() takes the timestamp and up to four integer fields: no string, no metadata.
template <class Event>
constexpr bool fits_trace_fields() noexcept {
  return !Event::kIsMetadata && !Event::kHasString && (Event::kSpec & (0x3Fu << 18)) == 0;
}
#define TBAND_OBJECT_EVENT(Event, encoder, a, b, c, d, ...)                                      \
  do {                                                                                          \
    static_assert(fits_trace_fields<enc::Event>(), "tband: " #Event " does not fit trace_fields()"); \
    trace_fields(enc::Event::kSpec, a, b, c, d);                                                \
  } while (0)
#else
#define TBAND_OBJECT_EVENT(Event, encoder, a, b, c, d, ...)                                 \
  trace_user_event_inline<enc::Event>([&](std::uint8_t* out, std::uint64_t ts)             \
                                          __attribute__((always_inline)) { return enc::encoder(out, ts, __VA_ARGS__); })
#endif

}  // namespace

#endif

// ---- Task notifications ------------------------------------------------------------

#if TBAND_FREERTOS_NOTIFY_ON

static_assert(TBAND_FRNA_INCREMENT == static_cast<unsigned>(enc::FrNotifyAction::FRNA_INCREMENT),
              "TBAND_FRNA_INCREMENT must be the schema's FrNotifyAction value");

extern "C" void tband_freertos_hook_task_notify(std::uint32_t task_id, std::uint32_t index, std::uint32_t action,
                                                std::uint32_t value) {
  TBAND_OBJECT_EVENT(TaskNotify, encode_task_notify, task_id, index, action, value, task_id,
                     static_cast<std::uint8_t>(index), static_cast<enc::FrNotifyAction>(static_cast<std::uint8_t>(action)), value);
}
extern "C" void tband_freertos_hook_task_notify_from_isr(std::uint32_t task_id, std::uint32_t index,
                                                         std::uint32_t action, std::uint32_t value) {
  TBAND_OBJECT_EVENT(TaskNotifyFromIsr, encode_task_notify_from_isr, task_id, index, action, value,
                     task_id, static_cast<std::uint8_t>(index), static_cast<enc::FrNotifyAction>(static_cast<std::uint8_t>(action)), value);
}
extern "C" void tband_freertos_hook_block_on_notify_take(std::uint32_t index, std::uint32_t ticks_to_wait) {
  TBAND_OBJECT_EVENT(CurtaskBlockOnNotifyTake, encode_curtask_block_on_notify_take, index, ticks_to_wait, 0,
                     0, static_cast<std::uint8_t>(index), ticks_to_wait);
}
extern "C" void tband_freertos_hook_block_on_notify_wait(std::uint32_t index, std::uint32_t ticks_to_wait) {
  TBAND_OBJECT_EVENT(CurtaskBlockOnNotifyWait, encode_curtask_block_on_notify_wait, index, ticks_to_wait, 0,
                     0, static_cast<std::uint8_t>(index), ticks_to_wait);
}
// The kernel calls the hook before it takes: a count left is 0 when the
// caller clears it, else one less (nothing changes when there is none).
extern "C" void tband_freertos_hook_notify_take(std::uint32_t index, std::uint32_t value, bool clear) {
  const std::uint32_t left = (clear || value == 0) ? 0 : value - 1;
  TBAND_OBJECT_EVENT(CurtaskNotifyTake, encode_curtask_notify_take, index, value, left, 0,
                     static_cast<std::uint8_t>(index), value, left);
}
extern "C" void tband_freertos_hook_notify_wait(std::uint32_t index, std::uint32_t value, bool received,
                                                std::uint32_t clear_on_exit) {
  const std::uint32_t left = received ? value & ~clear_on_exit : value;
  TBAND_OBJECT_EVENT(CurtaskNotifyWait, encode_curtask_notify_wait, index, received ? 1u : 0u, value,
                     left, static_cast<std::uint8_t>(index), received, value, left);
}

#endif  // TBAND_FREERTOS_NOTIFY_ON

// ---- Event groups ------------------------------------------------------------------

#if TBAND_FREERTOS_EVENT_GROUPS_ON

namespace {
std::atomic<std::uint32_t> g_next_event_group_id{1};
}  // namespace

extern "C" std::uint32_t tband_freertos_hook_event_group_created() {
  const std::uint32_t id = next_id(g_next_event_group_id);
  trace_hook(kKind<enc::EventGroupCreated, kTsValue>, id, 0);
  return id;
}
extern "C" void tband_freertos_hook_event_group_name(std::uint32_t group_id, const char* name) {
  trace_hook(kKind<enc::EventGroupName, kMetaValueStr>, group_id, as_payload(name));
}
extern "C" void tband_freertos_hook_event_group_deleted(std::uint32_t group_id) {
  trace_hook(kKind<enc::EventGroupDeleted, kTsValue>, group_id, 0);
}
extern "C" void tband_freertos_hook_event_group_set_bits(std::uint32_t group_id, std::uint32_t bits,
                                                         std::uint32_t before) {
  TBAND_OBJECT_EVENT(EventGroupSetBits, encode_event_group_set_bits, group_id, bits, before | bits, 0,
                     group_id, bits, before | bits);
}
extern "C" void tband_freertos_hook_event_group_clear_bits(std::uint32_t group_id, std::uint32_t bits,
                                                           std::uint32_t before) {
  TBAND_OBJECT_EVENT(EventGroupClearBits, encode_event_group_clear_bits, group_id, bits, before & ~bits,
                     0, group_id, bits, before & ~bits);
}
extern "C" void tband_freertos_hook_event_group_set_bits_from_isr(std::uint32_t group_id, std::uint32_t bits) {
  trace_hook(kKind<enc::EventGroupSetBitsFromIsr, kTsValueU32>, group_id, bits);
}
extern "C" void tband_freertos_hook_event_group_clear_bits_from_isr(std::uint32_t group_id, std::uint32_t bits) {
  trace_hook(kKind<enc::EventGroupClearBitsFromIsr, kTsValueU32>, group_id, bits);
}
extern "C" void tband_freertos_hook_block_on_event_group_wait(std::uint32_t group_id, std::uint32_t bits,
                                                              std::uint32_t ticks_to_wait) {
  TBAND_OBJECT_EVENT(CurtaskBlockOnEventGroupWait, encode_curtask_block_on_event_group_wait, group_id,
                     bits, ticks_to_wait, 0, group_id, bits, ticks_to_wait);
}
extern "C" void tband_freertos_hook_block_on_event_group_sync(std::uint32_t group_id, std::uint32_t bits,
                                                              std::uint32_t ticks_to_wait) {
  TBAND_OBJECT_EVENT(CurtaskBlockOnEventGroupSync, encode_curtask_block_on_event_group_sync, group_id,
                     bits, ticks_to_wait, 0, group_id, bits, ticks_to_wait);
}
extern "C" void tband_freertos_hook_event_group_wait_end(std::uint32_t group_id, std::uint32_t value,
                                                         bool timed_out) {
  TBAND_OBJECT_EVENT(CurtaskEventGroupWaitEnd, encode_curtask_event_group_wait_end, group_id, value,
                     timed_out ? 1u : 0u, 0, group_id, value, timed_out);
}

#endif  // TBAND_FREERTOS_EVENT_GROUPS_ON

// ---- Stream and message buffers ----------------------------------------------------

#if TBAND_FREERTOS_STREAM_BUFFERS_ON

namespace {
std::atomic<std::uint32_t> g_next_stream_buffer_id{1};

// The kernel's buffer types are the schema's kinds (V10's xIsMessageBuffer
// is pdFALSE or pdTRUE, V11's sbTYPE_* 0, 1 or 2).
__attribute__((always_inline)) inline enc::FrStreamBufferKind sb_kind(std::uint32_t kind) noexcept {
  return static_cast<enc::FrStreamBufferKind>(static_cast<std::uint8_t>(kind));
}
}  // namespace

extern "C" std::uint32_t tband_freertos_hook_stream_buffer_id() { return next_id(g_next_stream_buffer_id); }
extern "C" void tband_freertos_hook_stream_buffer_created(std::uint32_t sb_id, std::uint32_t kind,
                                                          std::uint32_t size) {
  TBAND_OBJECT_EVENT(StreamBufferCreated, encode_stream_buffer_created, sb_id, kind, size, 0, sb_id,
                     sb_kind(kind), size);
}
extern "C" void tband_freertos_hook_stream_buffer_create_failed(std::uint32_t kind) {
  TBAND_OBJECT_EVENT(StreamBufferCreateFailed, encode_stream_buffer_create_failed, kind, 0, 0, 0,
                     sb_kind(kind));
}
extern "C" void tband_freertos_hook_stream_buffer_name(std::uint32_t sb_id, const char* name) {
  trace_hook(kKind<enc::StreamBufferName, kMetaValueStr>, sb_id, as_payload(name));
}
extern "C" void tband_freertos_hook_stream_buffer_deleted(std::uint32_t sb_id) {
  trace_hook(kKind<enc::StreamBufferDeleted, kTsValue>, sb_id, 0);
}
extern "C" void tband_freertos_hook_stream_buffer_reset(std::uint32_t sb_id) {
  trace_hook(kKind<enc::StreamBufferReset, kTsValue>, sb_id, 0);
}
extern "C" void tband_freertos_hook_stream_buffer_send(std::uint32_t sb_id, std::uint32_t bytes, std::uint32_t fill) {
  TBAND_OBJECT_EVENT(StreamBufferSend, encode_stream_buffer_send, sb_id, bytes, fill, 0, sb_id, bytes,
                     fill);
}
extern "C" void tband_freertos_hook_stream_buffer_send_from_isr(std::uint32_t sb_id, std::uint32_t bytes,
                                                                std::uint32_t fill) {
  TBAND_OBJECT_EVENT(StreamBufferSendFromIsr, encode_stream_buffer_send_from_isr, sb_id, bytes, fill, 0,
                     sb_id, bytes, fill);
}
extern "C" void tband_freertos_hook_stream_buffer_send_failed(std::uint32_t sb_id) {
  trace_hook(kKind<enc::StreamBufferSendFailed, kTsValue>, sb_id, 0);
}
extern "C" void tband_freertos_hook_stream_buffer_receive(std::uint32_t sb_id, std::uint32_t bytes,
                                                          std::uint32_t fill) {
  TBAND_OBJECT_EVENT(StreamBufferReceive, encode_stream_buffer_receive, sb_id, bytes, fill, 0, sb_id,
                     bytes, fill);
}
extern "C" void tband_freertos_hook_stream_buffer_receive_from_isr(std::uint32_t sb_id, std::uint32_t bytes,
                                                                   std::uint32_t fill) {
  TBAND_OBJECT_EVENT(StreamBufferReceiveFromIsr, encode_stream_buffer_receive_from_isr, sb_id, bytes,
                     fill, 0, sb_id, bytes, fill);
}
extern "C" void tband_freertos_hook_stream_buffer_receive_failed(std::uint32_t sb_id) {
  trace_hook(kKind<enc::StreamBufferReceiveFailed, kTsValue>, sb_id, 0);
}
extern "C" void tband_freertos_hook_block_on_stream_buffer_send(std::uint32_t sb_id, std::uint32_t ticks_to_wait) {
  trace_hook(kKind<enc::CurtaskBlockOnStreamBufferSend, kTsValueU32>, sb_id, ticks_to_wait);
}
extern "C" void tband_freertos_hook_block_on_stream_buffer_receive(std::uint32_t sb_id, std::uint32_t ticks_to_wait) {
  trace_hook(kKind<enc::CurtaskBlockOnStreamBufferReceive, kTsValueU32>, sb_id, ticks_to_wait);
}

#endif  // TBAND_FREERTOS_STREAM_BUFFERS_ON

// ---- Software timers ---------------------------------------------------------------

#if TBAND_FREERTOS_TIMERS_ON

namespace {
std::atomic<std::uint32_t> g_next_timer_id{1};

// The kernel's tmrCOMMAND_* are the schema's command values.
__attribute__((always_inline)) inline enc::FrTimerCommand timer_command(std::uint32_t command) noexcept {
  return static_cast<enc::FrTimerCommand>(static_cast<std::uint8_t>(command));
}
}  // namespace

extern "C" std::uint32_t tband_freertos_hook_timer_id() { return next_id(g_next_timer_id); }
extern "C" void tband_freertos_hook_timer_created(std::uint32_t timer_id, std::uint32_t period, bool auto_reload) {
  TBAND_OBJECT_EVENT(TimerCreated, encode_timer_created, timer_id, period, auto_reload ? 1u : 0u, 0,
                     timer_id, period, auto_reload);
}
extern "C" void tband_freertos_hook_timer_name(std::uint32_t timer_id, const char* name) {
  trace_hook(kKind<enc::TimerName, kMetaValueStr>, timer_id, as_payload(name));
}
// No field but the timestamp: TBAND_OBJECT_EVENT's encoder call needs one.
extern "C" void tband_freertos_hook_timer_create_failed() {
#if tband_configOPTIMIZE_FOR_SIZE == 1
  static_assert(fits_trace_fields<enc::TimerCreateFailed>());
  trace_fields(enc::TimerCreateFailed::kSpec, 0, 0, 0, 0);
#else
  trace_user_event_inline<enc::TimerCreateFailed>(
      [&](std::uint8_t* out, std::uint64_t ts) __attribute__((always_inline)) {
        return enc::encode_timer_create_failed(out, ts);
      });
#endif
}
extern "C" void tband_freertos_hook_timer_command_send(std::uint32_t timer_id, std::uint32_t command,
                                                       std::uint32_t value, bool sent) {
  TBAND_OBJECT_EVENT(TimerCommandSend, encode_timer_command_send, timer_id, command, value,
                     sent ? 1u : 0u, timer_id, timer_command(command), value, sent);
}
extern "C" void tband_freertos_hook_timer_command_received(std::uint32_t timer_id, std::uint32_t command,
                                                           std::uint32_t value) {
  TBAND_OBJECT_EVENT(TimerCommandReceived, encode_timer_command_received, timer_id, command, value, 0,
                     timer_id, timer_command(command), value);
}
extern "C" void tband_freertos_hook_timer_expired(std::uint32_t timer_id) {
  trace_hook(kKind<enc::TimerExpired, kTsValue>, timer_id, 0);
}

#endif  // TBAND_FREERTOS_TIMERS_ON

// ---- Queue sets ---------------------------------------------------------------------

#if TBAND_FREERTOS_QUEUE_SETS_ON

// The kernel calls the send hook before the member's handle goes in; it
// only gets there when the set has room (a set is never overwritten).
extern "C" void tband_freertos_hook_queue_set_send(std::uint32_t set_id, std::uint32_t member_id,
                                                   std::uint32_t waiting) {
  const std::uint32_t after = waiting + 1;
  TBAND_OBJECT_EVENT(QueueSetSend, encode_queue_set_send, set_id, member_id, after, 0, set_id,
                     member_id, after);
}
extern "C" void tband_freertos_hook_queue_set_add(std::uint32_t set_id, std::uint32_t member_id) {
  trace_hook(kKind<enc::QueueSetAdd, kTsValueU32>, set_id, member_id);
}
extern "C" void tband_freertos_hook_queue_set_remove(std::uint32_t set_id, std::uint32_t member_id) {
  trace_hook(kKind<enc::QueueSetRemove, kTsValueU32>, set_id, member_id);
}
extern "C" void tband_freertos_hook_queue_set_select(std::uint32_t set_id, std::uint32_t member_id) {
  trace_hook(kKind<enc::QueueSetSelect, kTsValueU32>, set_id, member_id);
}
extern "C" void tband_freertos_hook_queue_set_select_from_isr(std::uint32_t set_id, std::uint32_t member_id) {
  trace_hook(kKind<enc::QueueSetSelectFromIsr, kTsValueU32>, set_id, member_id);
}

#endif  // TBAND_FREERTOS_QUEUE_SETS_ON

// ---- Task-local markers ------------------------------------------------------------

#if TBAND_FREERTOS_MARKERS_ON
static_assert(kTracksCurrentTask);

extern "C" void tband_freertos_task_evtmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kKind<enc::TaskEvtmarkerName, kMetaValueTaskStr>, id, as_payload(name));
}
extern "C" void tband_freertos_task_evtmarker(std::uint32_t id, const char* msg) {
  trace_hook(kKind<enc::TaskEvtmarker, kTsValueStr>, id, as_payload(msg));
}
extern "C" void tband_freertos_task_evtmarker_begin(std::uint32_t id, const char* msg) {
  trace_hook(kKind<enc::TaskEvtmarkerBegin, kTsValueStr>, id, as_payload(msg));
}
extern "C" void tband_freertos_task_evtmarker_end(std::uint32_t id) {
  trace_hook(kKind<enc::TaskEvtmarkerEnd, kTsValue>, id, 0);
}
extern "C" void tband_freertos_task_valmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kKind<enc::TaskValmarkerName, kMetaValueTaskStr>, id, as_payload(name));
}
extern "C" void tband_freertos_task_valmarker(std::uint32_t id, std::int64_t val) {
  trace_hook(kKind<enc::TaskValmarker, kTsValueS64>, id, static_cast<std::uint64_t>(val));
}
#endif

#endif  // tband_configENABLE == 1 && tband_configFREERTOS_TRACE_ENABLE == 1
