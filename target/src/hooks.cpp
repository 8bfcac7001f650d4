// The tracing hooks of the C API. Every hook is one call of trace_hook(): one
// critical section that reads the timestamp, encodes the event with the
// generated encoder and delivers it (event_path.hpp).
//
// Built for speed, trace_hook() is inlined into each hook, where its shape and
// id are constants: each hook becomes straight-line code with its own
// encoder. Built for size, there is one trace_hook(), with the event path
// inlined into it and one call of the compact encode_fields() for every event;
// the hooks are a few instructions each.
#include "tband.h"

#if tband_configENABLE == 1

#include "event_path.hpp"

namespace rt = tband::rt;
namespace enc = tband::enc;

namespace {

using Width = enc::FieldWidth;

// A hook's event, as a constant per hook: the compact encoder's spec
// (field_spec() | id) and, in the bits above those the encoder reads, what the
// hook's arguments hold.
enum : std::uint32_t {
  kString = 1u << 25,       // a C string follows the integer fields (payload is the pointer)
  kFromValue = 1u << 26,    // metadata (no timestamp): the fields begin at value
  kFromPayload = 2u << 26,  // metadata (no timestamp): the one field is the 64-bit payload
  kSigned = 1u << 28,       // a third field: the payload as s64 (valmarker's value)
};
constexpr std::uint32_t kFieldsFrom = 3u << 26;  // 0: ts, value, payload; else kFromValue or kFromPayload
static_assert(((kString | kFieldsFrom | kSigned) & ((enc::kStrLenGiven << 1) - 1)) == 0,
              "hook flags must lie above the spec bits encode_fields() reads");

constexpr std::uint32_t kTsValue = enc::field_spec(Width::kU64, Width::kU32);
constexpr std::uint32_t kTsValueStr = kTsValue | kString;
constexpr std::uint32_t kTsValueS64 = enc::field_spec(Width::kU64, Width::kU32, Width::kU64) | kSigned;
constexpr std::uint32_t kMetaValueStr = enc::field_spec(Width::kU32) | kFromValue | kString;
constexpr std::uint32_t kMetaU64 = enc::field_spec(Width::kU64) | kFromPayload;

const char* as_string(std::uint64_t payload) noexcept {
  return reinterpret_cast<const char*>(static_cast<std::uintptr_t>(payload));
}

/// Encodes the hook's event into out; returns the frame length. fields: the
/// core's scratch, holding ts, value and payload when built for size.
__attribute__((always_inline)) inline std::size_t encode(std::uint8_t* out, std::uint64_t* fields,
                                                        std::uint32_t kind, std::uint64_t ts, std::uint32_t value,
                                                        std::uint64_t payload) noexcept {
  if constexpr (rt::kOptimizeForSize) {
    // One call for every hook: kind is the spec (the encoder does not read
    // the flags) and says where the fields begin. The payload is read back
    // from the scratch: nothing is kept live across the timestamp call.
    const char* str = (kind & kString) != 0 ? as_string(fields[2]) : nullptr;
    return enc::encode_fields(out, kind, fields + ((kind & kFieldsFrom) >> 26), str);
  } else {
    const char* str = (kind & kString) != 0 ? as_string(payload) : nullptr;
    namespace layout = enc::layout;
    const auto id = static_cast<std::uint8_t>(kind);
    if ((kind & kFieldsFrom) != 0) {
      return (kind & kFromPayload) != 0 ? layout::encode_u64(out, id, payload)
                                        : layout::encode_u32_str(out, id, value, str);
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

// kind: the event (above). payload: the string (as a pointer) or the 64-bit
// value. Three arguments that fit the registers keep each hook, built for
// size, down to a few instructions.
TBAND_SHARED void trace_hook(std::uint32_t kind, std::uint32_t value, std::uint64_t payload) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = rt::current_core();
  std::uint64_t* fields = rt::per_core(rt::g_frames, core).fields;
  if constexpr (rt::kOptimizeForSize) {
    fields[1] = value;  // before the timestamp call: nothing but kind stays live across it
    fields[2] = (kind & kSigned) != 0 ? enc::detail::sign_magnitude(static_cast<std::int64_t>(payload)) : payload;
  }
  const std::uint64_t ts = tband_portTIMESTAMP();
  rt::trace_event<enc::kMaxFramedLen>(core, ts, (kind & kFieldsFrom) != 0,
                                      [&](std::uint8_t* out) __attribute__((always_inline)) {
                                        return encode(out, fields, kind, ts, value, payload);
                                      });
  tband_portEXIT_CRITICAL_FROM_ANY();
}

[[maybe_unused]] std::uint64_t as_payload(const char* str) noexcept { return reinterpret_cast<std::uintptr_t>(str); }

// Every hook's event fits the core's event buffer (core_frames.hpp).
static_assert(enc::Valmarker::kMaxFramedLen <= enc::kMaxFramedLen);

}  // namespace

extern "C" void tband_gather_system_metadata(void) {
  trace_hook(kMetaU64 | enc::TsResolutionNs::kId, 0, tband_portTIMESTAMP_RESOLUTION_NS);
}

#if tband_configISR_TRACE_ENABLE == 1
extern "C" void tband_isr_name(std::uint32_t isr_id, const char* name) {
  trace_hook(kMetaValueStr | enc::IsrName::kId, isr_id, as_payload(name));
}
extern "C" void tband_isr_enter(std::uint32_t isr_id) { trace_hook(kTsValue | enc::IsrEnter::kId, isr_id, 0); }
extern "C" void tband_isr_exit(std::uint32_t isr_id) { trace_hook(kTsValue | enc::IsrExit::kId, isr_id, 0); }
#endif

#if tband_configMARKER_TRACE_ENABLE == 1
extern "C" void tband_evtmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kMetaValueStr | enc::EvtmarkerName::kId, id, as_payload(name));
}
extern "C" void tband_evtmarker(std::uint32_t id, const char* msg) {
  trace_hook(kTsValueStr | enc::Evtmarker::kId, id, as_payload(msg));
}
extern "C" void tband_evtmarker_begin(std::uint32_t id, const char* msg) {
  trace_hook(kTsValueStr | enc::EvtmarkerBegin::kId, id, as_payload(msg));
}
extern "C" void tband_evtmarker_end(std::uint32_t id) { trace_hook(kTsValue | enc::EvtmarkerEnd::kId, id, 0); }
extern "C" void tband_valmarker_name(std::uint32_t id, const char* name) {
  trace_hook(kMetaValueStr | enc::ValmarkerName::kId, id, as_payload(name));
}
extern "C" void tband_valmarker(std::uint32_t id, std::int64_t val) {
  trace_hook(kTsValueS64 | enc::Valmarker::kId, id, static_cast<std::uint64_t>(val));
}
#endif

#endif
