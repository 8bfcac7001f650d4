// The tracing hooks of the C API. Every hook is one call of the shared hook
// body, trace_hook() (hook_body.hpp), with a constant that says what its
// event is and where its fields come from.
#include "tband.h"

#if tband_configENABLE == 1

#include "hook_body.hpp"
#include "user_hook.hpp"

namespace enc = tband::enc;
using namespace tband::rt::hook;

// The build choice every file of the tracer refers to (runtime.hpp).
#ifdef TBAND_BUILD_CHOICE_SYMBOL
__asm__(".globl " TBAND_BUILD_CHOICE_SYMBOL "\n.set " TBAND_BUILD_CHOICE_SYMBOL ", 0");
#endif

// Every hook's event fits the core's event buffer (core_frames.hpp).
static_assert(enc::Valmarker::kMaxFramedLen <= enc::kMaxFramedLen);

#if tband_configOPTIMIZE_FOR_SIZE == 0
// One copy for all hooks: the kind is a run-time value here.
__attribute__((noinline)) void tband::rt::hook::trace_hook_general(std::uint32_t value, std::uint32_t kind,
                                                                   std::uint64_t payload) noexcept {
  if constexpr (kLeafFastPath) {
    trace_hook_body(kind, value, payload);
  }
}
#endif

#if tband_configOPTIMIZE_FOR_SIZE == 1
__attribute__((noinline)) void tband::rt::hook::stamp_fields(std::uint32_t value, std::uint32_t payload_low,
                                                             std::uint32_t kind,
                                                             std::uint32_t payload_high) noexcept {
  stamp_fields_inline(kind, value, join_halves(payload_low, payload_high));
}

__attribute__((noinline)) bool tband::rt::hook::encoded_in_place(std::uint32_t kind) noexcept {
  return encoded_in_place_inline(kind);
}

__attribute__((noinline)) void tband::rt::hook::trace_hook_shared(std::uint32_t value, std::uint32_t payload_low,
                                                                  std::uint32_t kind,
                                                                  std::uint32_t payload_high) noexcept {
  if constexpr (tband::rt::filter::kUseFilters) {
    if ((kind & kFieldsFrom) == 0 && tband::rt::filter::left_out(kind & kIdBits, [&] { return value; })) {
      return;  // before the critical section and the timestamp
    }
  }
  trace_hook_body(kind, value, join_halves(payload_low, payload_high));
}
#endif

extern "C" void tband_gather_system_metadata(void) {
  trace_hook(kKind<enc::TsResolutionNs, kMetaU64>, 0, tband_portTIMESTAMP_RESOLUTION_NS);
  // Only firmware with user groups names its schema (tband's own needs no
  // naming); with a metadata buffer, the buffer does that by itself.
  if constexpr (enc::kHasUserEvents && !tband::rt::kUseMetadataBuf) {
    send_schema_id();
  }
#if tband_configUSE_FILTERS == 1
  tband::rt::filter::send_metadata();
#endif
}

#if tband_configISR_TRACE_ENABLE == 1
extern "C" void tband_isr_name(std::uint32_t isr_id, const char* name) {
  trace_hook(kKind<enc::IsrName, kMetaValueStr>, isr_id, as_payload(name));
}
extern "C" void tband_isr_enter(std::uint32_t isr_id) { trace_hook(kKind<enc::IsrEnter, kTsValue>, isr_id, 0); }
extern "C" void tband_isr_exit(std::uint32_t isr_id) { trace_hook(kKind<enc::IsrExit, kTsValue>, isr_id, 0); }
#endif

#if tband_configMARKER_TRACE_ENABLE == 1
extern "C" void tband_evtmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kKind<enc::EvtmarkerName, kMetaValueStr>, id, as_payload(name));
}
extern "C" void tband_evtmarker(std::uint32_t id, const char* msg) {
  trace_hook(kKind<enc::Evtmarker, kTsValueStr>, id, as_payload(msg));
}
extern "C" void tband_evtmarker_begin(std::uint32_t id, const char* msg) {
  trace_hook(kKind<enc::EvtmarkerBegin, kTsValueStr>, id, as_payload(msg));
}
extern "C" void tband_evtmarker_end(std::uint32_t id) { trace_hook(kKind<enc::EvtmarkerEnd, kTsValue>, id, 0); }
extern "C" void tband_valmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kKind<enc::ValmarkerName, kMetaValueStr>, id, as_payload(name));
}
extern "C" void tband_valmarker(std::uint32_t id, std::int64_t val) {
  trace_hook(kKind<enc::Valmarker, kTsValueS64>, id, static_cast<std::uint64_t>(val));
}
#endif

#endif
