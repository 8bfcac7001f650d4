// The one body every tracing hook goes through: the base hooks (hooks.cpp)
// and the FreeRTOS module's (freertos_hooks.cpp). A hook is one call of
// trace_hook(): one critical section that reads the timestamp, encodes the
// event with the generated encoder and delivers it (event_path.hpp).
//
// Built for speed, trace_hook() is inlined into each hook, where its kind is
// a constant: each hook becomes straight-line code with its own encoder.
// Built for size, trace_hook() is a tail call of the one body for the whole
// image, trace_hook_shared() (hooks.cpp), with the event path inlined into it
// and one call of the compact encode_fields() for every event; the hooks are
// a few instructions each.
#pragma once

#include "event_path.hpp"
#include "filter.hpp"
#include "hook_kind.hpp"

namespace tband::rt::hook {

// FreeRTOS task-local marker names carry the id of the task running on the
// core; the FreeRTOS module keeps it here (freertos_hooks.cpp). Without the
// module nothing reads or writes it, and the body has no code for it.
inline constexpr bool kTracksCurrentTask = tband_configFREERTOS_TRACE_ENABLE == 1 &&
                                           tband_configFREERTOS_TASK_TRACE_ENABLE == 1 &&
                                           tband_configMARKER_TRACE_ENABLE == 1;
inline std::uint32_t g_current_task[kCores] = {};

inline const char* as_string(std::uint64_t payload) noexcept {
  return reinterpret_cast<const char*>(static_cast<std::uintptr_t>(payload));
}
inline std::uint64_t as_payload(const char* str) noexcept { return reinterpret_cast<std::uintptr_t>(str); }

/// Encodes the hook's event into out; returns the frame length. fields: the
/// core's scratch, holding ts, value, payload (and for kCurrentTask the
/// task id before the string's address) when built for size.
__attribute__((always_inline)) inline std::size_t encode(std::uint8_t* out, std::uint64_t* fields,
                                                        std::uint32_t kind, unsigned core, std::uint64_t ts,
                                                        std::uint32_t value, std::uint64_t payload) noexcept {
  if constexpr (kOptimizeForSize) {
    // One call for every hook: kind is the spec (the encoder does not read
    // the flags) and says where the fields begin. The payload is read back
    // from the scratch: nothing is kept live across the timestamp call.
    (void)core;
    std::size_t string_at = kPayloadSlot;
    if constexpr (kTracksCurrentTask) {
      string_at = (kind & kCurrentTask) != 0 ? kTaskStringSlot : kPayloadSlot;
    }
    const char* str = (kind & kString) != 0 ? as_string(fields[string_at]) : nullptr;
    return enc::encode_fields(out, kind, fields + first_slot(kind), str);
  } else {
    const char* str = (kind & kString) != 0 ? as_string(payload) : nullptr;
    namespace layout = enc::layout;
    const auto id = static_cast<std::uint8_t>(kind);
    const std::uint32_t widths = kind & kWidths;
    const auto second = static_cast<std::uint32_t>(payload);
    if ((kind & kFieldsFrom) != 0) {
      if ((kind & kFromPayload) != 0) {
        return layout::encode_u64(out, id, payload);
      }
      if constexpr (kTracksCurrentTask) {
        if ((kind & kCurrentTask) != 0) {
          return layout::encode_u32_u32_str(out, id, value, per_core(g_current_task, core), str);
        }
      }
      if ((kind & kString) != 0) {
        return layout::encode_u32_str(out, id, value, str);
      }
      if (widths == (kMetaValueU32 & kWidths)) {
        return layout::encode_u32_u32(out, id, value, second);
      }
      if (widths == (kMetaValueU8 & kWidths)) {
        return layout::encode_u32_u8(out, id, value, static_cast<std::uint8_t>(payload));
      }
      return layout::encode_u32(out, id, value);
    }
    if ((kind & kString) != 0) {
      return layout::encode_u64_u32_str(out, id, ts, value, str);
    }
    if ((kind & kSigned) != 0) {
      return layout::encode_u64_u32_s64(out, id, ts, value, static_cast<std::int64_t>(payload));
    }
    if (widths == (kTsValueU32 & kWidths)) {
      return layout::encode_u64_u32_u32(out, id, ts, value, second);
    }
    return layout::encode_u64_u32(out, id, ts, value);
  }
}

/// Built for speed with one core and an in-place backend (snapshot, staged
/// stream), an event hook's usual case is a leaf: no report due and room in
/// the buffer, so it reads the timestamp and encodes straight into the
/// buffer, with no call that would make it save registers. Anything else (a
/// report due, tracing switched on or off, the buffer near its end, or a
/// metadata event) leaves the critical section and runs the general body,
/// trace_hook_general(), out of line, which looks at everything again.
inline constexpr bool kLeafFastPath = kEncodeInPlace && !kMultiCore;
static_assert(!kLeafFastPath || !compact_ts::kEnabled, "compact timestamps: streaming without staging only");
static_assert(!kLeafFastPath || CoreReports::kStoredLess == 0, "the fast path reads the countdown as it is");

/// The general body, out of line (hooks.cpp), for the leaf fast path's other
/// cases. value comes first: the hook's first argument stays in its register
/// (the fast path need not copy it aside for this tail call).
void trace_hook_general(std::uint32_t value, std::uint32_t kind, std::uint64_t payload) noexcept;

/// Built for size: puts the hook's fields and the timestamp into the core's
/// scratch (CoreFrames::fields: ts, value, payload, and for kCurrentTask the
/// task id before the string's address). Out of line (hooks.cpp), inside the
/// critical section: the body keeps only kind across it, and so needs three
/// registers in all and a 16-byte frame on Cortex-M. Its arguments are
/// trace_hook_shared()'s, in the same registers.
void stamp_fields(std::uint32_t value, std::uint32_t payload_low, std::uint32_t kind,
                  std::uint32_t payload_high) noexcept;

/// The payload in 32-bit halves, and back (trace_hook_shared()'s arguments).
constexpr std::uint32_t low_half(std::uint64_t payload) noexcept { return static_cast<std::uint32_t>(payload); }
constexpr std::uint32_t high_half(std::uint64_t payload) noexcept { return static_cast<std::uint32_t>(payload >> 32); }
constexpr std::uint64_t join_halves(std::uint32_t low, std::uint32_t high) noexcept {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

__attribute__((always_inline)) inline void stamp_fields_inline(std::uint32_t kind, std::uint32_t value,
                                                               std::uint64_t payload) noexcept {
  const unsigned core = current_core();
  std::uint64_t* fields = per_core(g_frames, core).fields;
  fields[kValueSlot] = value;
  fields[kPayloadSlot] =
      (kind & kSigned) != 0 ? enc::detail::sign_magnitude(static_cast<std::int64_t>(payload)) : payload;
  if constexpr (kTracksCurrentTask) {
    if ((kind & kCurrentTask) != 0) {
      fields[kTaskStringSlot] = payload;
      fields[kPayloadSlot] = per_core(g_current_task, core);
    }
  }
  fields[kTsSlot] = ts_field(core, (kind & kFieldsFrom) != 0, tband_portTIMESTAMP());
}

/// Built for size with one core and an in-place backend (snapshot, staged
/// stream), the usual case of an event with a timestamp (no report due, room
/// in the buffer) is encoded straight into the buffer, not into the core's
/// event buffer and then copied: the leaf fast path's checks (above), after
/// stamp_fields(). True if it was; else the body goes on as for any backend.
inline constexpr bool kSizeInPlace = kOptimizeForSize && backend::kEncodesInPlace && !kMultiCore;
static_assert(!kSizeInPlace || CoreReports::kStoredLess == 1, "the in-place path reads the countdown less one");

/// A template so that only in-place backends need the Writer's room_for() and append_in_place().
template <class Writer = backend::Writer>
__attribute__((always_inline)) inline bool encoded_in_place_inline(std::uint32_t kind) noexcept {
  if constexpr (kSizeInPlace) {
    CoreReports& reports = g_core_reports[0];
    const std::uint32_t countdown = reports.countdown;  // 0: a report is due (kept less one)
    if ((kind & kFieldsFrom) == 0 && countdown != 0 && Writer::room_for(enc::kMaxFramedLen)) {
      reports.countdown = countdown - 1;
      Writer::append_in_place([&](std::uint8_t* out) __attribute__((always_inline)) {
        return encode(out, g_frames[0].fields, kind, 0, 0, 0, 0);
      });
      return true;
    }
  }
  (void)kind;
  return false;
}

/// Out of line (hooks.cpp), inside the critical section: the body keeps only
/// kind across it (its own frame stays small), and its frame is not on the
/// slow path's chain.
bool encoded_in_place(std::uint32_t kind) noexcept;

/// The body: one critical section around the timestamp and the event path.
__attribute__((always_inline)) inline void trace_hook_body(std::uint32_t kind, std::uint32_t value,
                                                           std::uint64_t payload) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = current_core();
  if constexpr (kOptimizeForSize) {
    // The usual event straight into an in-place backend's buffer
    // (kSizeInPlace); else encoded first, into the core's event buffer, then
    // only the frame's length and whether it is metadata stay live across the
    // calls below.
    stamp_fields(value, low_half(payload), kind, high_half(payload));
    if (!kSizeInPlace || !encoded_in_place(kind)) {
      CoreFrames& frames = per_core(g_frames, core);
      const std::size_t len = encode(frames.event, frames.fields, kind, core, 0, value, payload);
      finish_frame(core, len, (kind & kFieldsFrom) != 0);
    }
  } else {
    const std::uint64_t ts = ts_field(core, (kind & kFieldsFrom) != 0, tband_portTIMESTAMP());
    std::uint64_t* fields = per_core(g_frames, core).fields;
    trace_event<enc::kMaxFramedLen>(core, ts, (kind & kFieldsFrom) != 0,
                                    [&](std::uint8_t* out) __attribute__((always_inline)) {
                                      return encode(out, fields, kind, core, ts, value, payload);
                                    });
  }
  tband_portEXIT_CRITICAL_FROM_ANY();
}

/// The leaf fast path (kLeafFastPath), else the body. A template so that only
/// in-place backends need the Writer's room_for() and append_in_place().
template <class Writer = backend::Writer>
__attribute__((always_inline)) inline void trace_hook_fast(std::uint32_t kind, std::uint32_t value,
                                                           std::uint64_t payload) noexcept {
  if constexpr (kLeafFastPath) {
    if ((kind & kFieldsFrom) != 0) {  // metadata: kept in the metadata buffer too
      trace_hook_general(value, kind, payload);
      return;
    }
    tband_portENTER_CRITICAL_FROM_ANY();
    CoreReports& reports = g_core_reports[0];
    const std::uint32_t countdown = reports.countdown;
    if (__builtin_expect(countdown == 1 || !Writer::room_for(enc::kMaxFramedLen), 0)) {
      tband_portEXIT_CRITICAL_FROM_ANY();
      trace_hook_general(value, kind, payload);  // counts the event itself
      return;
    }
    reports.countdown = countdown - 1;
    const std::uint64_t ts = tband_portTIMESTAMP();
    Writer::append_in_place([&](std::uint8_t* out) __attribute__((always_inline)) {
      return encode(out, nullptr, kind, 0, ts, value, payload);
    });
    tband_portEXIT_CRITICAL_FROM_ANY();
  } else {
    trace_hook_body(kind, value, payload);
  }
}

/// kind: the event (above). value: its first integer field. payload: the
/// second integer field, the string (as a pointer) or the 64-bit value.
/// Arguments that fit the registers keep each hook, built for size, down to
/// a few instructions.
///
/// Built for size each hook is a tail call of one ordinary function,
/// trace_hook_shared(), defined in hooks.cpp: not an inline one, whose weak
/// symbol GCC for ARM will not tail-call (each hook would then need a stack
/// frame of its own). Its arguments are where the hooks have theirs: value
/// first, then the payload's low half (a hook's second argument, the string,
/// stays where it is), the kind, and the payload's high half (a 64-bit value,
/// which the 32-bit ABI passes in the third and fourth registers, needs one move).
#if tband_configOPTIMIZE_FOR_SIZE == 1
void trace_hook_shared(std::uint32_t value, std::uint32_t payload_low, std::uint32_t kind,
                       std::uint32_t payload_high) noexcept;
__attribute__((always_inline)) inline void trace_hook(std::uint32_t kind, std::uint32_t value,
                                                      std::uint64_t payload) noexcept {
  trace_hook_shared(value, low_half(payload), kind, high_half(payload));
}
#else
__attribute__((always_inline)) inline void trace_hook(std::uint32_t kind, std::uint32_t value,
                                                      std::uint64_t payload) noexcept {
  if constexpr (filter::kUseFilters) {
    if ((kind & kFieldsFrom) == 0 && filter::left_out(kind & kIdBits, [&] { return value; })) {
      return;
    }
  }
  trace_hook_fast(kind, value, payload);
}
#endif

}  // namespace tband::rt::hook
