// The tracing hooks of the C API. Every hook is one call of trace_hook(): one
// critical section that reads the timestamp, encodes the event with the
// generated encoder and delivers it (event_path.hpp).
//
// Built for speed, trace_hook() is inlined into each hook, where its shape and
// id are constants: each hook becomes straight-line code with its own
// encoder. Built for size, there is one trace_hook(), the hooks are a few
// instructions each, and it encodes with the compact encode_fields().
#include "tband.h"

#if tband_configENABLE == 1

#include "event_path.hpp"

namespace rt = tband::rt;
namespace enc = tband::enc;

namespace {

// What a hook's event holds besides its id, as flags (a constant per hook).
enum : std::uint32_t {
  kMetadata = 1u << 8,   // metadata event: no timestamp field
  kString = 1u << 9,     // a C string follows the integer fields (payload is the pointer)
  kWide = 1u << 10,      // the first integer field is the 64-bit payload, not value
  kSigned = 1u << 11,    // a third field: the payload as s64 (valmarker's value)
};

/// Encodes the hook's event into out; returns the frame length. fields:
/// the core's scratch for the compact encoder's field values.
__attribute__((always_inline)) inline std::size_t encode(std::uint8_t* out, std::uint64_t* fields,
                                                        std::uint32_t kind, std::uint64_t ts, std::uint32_t value,
                                                        std::uint64_t payload) noexcept {
  namespace layout = enc::layout;
  const auto id = static_cast<std::uint8_t>(kind);
  const char* str =
      (kind & kString) != 0 ? reinterpret_cast<const char*>(static_cast<std::uintptr_t>(payload)) : nullptr;
  if constexpr (rt::kOptimizeForSize) {
    using enc::FieldWidth;
    std::uint64_t* field = fields;
    std::uint32_t spec = 0;
    if ((kind & kMetadata) != 0) {
      *field++ = (kind & kWide) != 0 ? payload : value;
      spec = (kind & kWide) != 0 ? enc::field_spec(FieldWidth::kU64) : enc::field_spec(FieldWidth::kU32);
    } else {
      *field++ = ts;
      *field++ = value;
      spec = enc::field_spec(FieldWidth::kU64, FieldWidth::kU32);
      if ((kind & kSigned) != 0) {
        *field++ = enc::detail::sign_magnitude(static_cast<std::int64_t>(payload));
        spec = enc::field_spec(FieldWidth::kU64, FieldWidth::kU32, FieldWidth::kU64);
      }
    }
    return enc::encode_fields(out, spec | id, fields, str);
  } else {
    (void)fields;
    if ((kind & kMetadata) != 0) {
      return (kind & kWide) != 0 ? layout::encode_u64(out, id, payload) : layout::encode_u32_str(out, id, value, str);
    }
    if ((kind & kString) != 0) {
      return layout::encode_u64_u32_str(out, id, ts, value, str);
    }
    if ((kind & kSigned) != 0) {
      return layout::encode_u64_u32_s64(out, id, ts, value, static_cast<std::int64_t>(payload));
    }
    return layout::encode_u64_u32(out, id, ts, value);
  }
}

// kind: the event id and the flags above. payload: the string (as a pointer)
// or the 64-bit value. Three arguments that fit the registers keep each hook,
// built for size, down to a few instructions.
TBAND_SHARED void trace_hook(std::uint32_t kind, std::uint32_t value, std::uint64_t payload) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = rt::current_core();
  const std::uint64_t ts = tband_portTIMESTAMP();
  std::uint64_t* fields = rt::per_core(rt::g_frames, core).fields;
  rt::trace_event<enc::kMaxFramedLen>(core, ts, (kind & kMetadata) != 0,
                                      [&](std::uint8_t* out) __attribute__((always_inline)) {
                                        return encode(out, fields, kind, ts, value, payload);
                                      });
  tband_portEXIT_CRITICAL_FROM_ANY();
}

std::uint64_t as_payload(const char* str) noexcept { return reinterpret_cast<std::uintptr_t>(str); }

// Every hook's event fits the core's event buffer (core_frames.hpp).
static_assert(enc::Valmarker::kMaxFramedLen <= enc::kMaxFramedLen);

}  // namespace

extern "C" void tband_gather_system_metadata(void) {
  trace_hook(enc::TsResolutionNs::kId | kMetadata | kWide, 0, tband_portTIMESTAMP_RESOLUTION_NS);
}

#if tband_configISR_TRACE_ENABLE == 1
extern "C" void tband_isr_name(std::uint32_t isr_id, const char* name) {
  trace_hook(enc::IsrName::kId | kMetadata | kString, isr_id, as_payload(name));
}
extern "C" void tband_isr_enter(std::uint32_t isr_id) { trace_hook(enc::IsrEnter::kId, isr_id, 0); }
extern "C" void tband_isr_exit(std::uint32_t isr_id) { trace_hook(enc::IsrExit::kId, isr_id, 0); }
#endif

#if tband_configMARKER_TRACE_ENABLE == 1
extern "C" void tband_evtmarker_name(std::uint32_t id, const char* name) {
  trace_hook(enc::EvtmarkerName::kId | kMetadata | kString, id, as_payload(name));
}
extern "C" void tband_evtmarker(std::uint32_t id, const char* msg) {
  trace_hook(enc::Evtmarker::kId | kString, id, as_payload(msg));
}
extern "C" void tband_evtmarker_begin(std::uint32_t id, const char* msg) {
  trace_hook(enc::EvtmarkerBegin::kId | kString, id, as_payload(msg));
}
extern "C" void tband_evtmarker_end(std::uint32_t id) { trace_hook(enc::EvtmarkerEnd::kId, id, 0); }
extern "C" void tband_valmarker_name(std::uint32_t id, const char* name) {
  trace_hook(enc::ValmarkerName::kId | kMetadata | kString, id, as_payload(name));
}
extern "C" void tband_valmarker(std::uint32_t id, std::int64_t val) {
  trace_hook(enc::Valmarker::kId | kSigned, id, static_cast<std::uint64_t>(val));
}
#endif

#endif
