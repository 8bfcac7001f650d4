// How one event gets from a hook into the backend: one lock per event (none
// with one core), the reports the core owes (slow path, rarely taken), then
// the event, encoded once. Frames are built in the core's static buffers
// (core_frames.hpp), not on the stack.
//
// Two shapes, chosen at compile time:
//  - in place (snapshot, built for speed): reports first, then the event is
//    encoded straight into the backend's buffer;
//  - encode first (all other cases): the event is encoded into the core's
//    event buffer, then handed to trace_frame, which delivers it, or when
//    reports are owed, sends them first. Nothing is live across a call on the
//    fast path, which keeps it short. (Built for size with one core and an
//    in-place backend, the hook body first puts the usual event straight
//    into the buffer itself: hook_body.hpp's encoded_in_place().)
// All of it is inlined into the caller: built for size, that is the hooks'
// one shared body, and the stack below it is the slow path's one level
// (emit_reports, which calls the encoder and the backend itself) and the
// encoder or the backend.
#pragma once

#include "backend.hpp"
#include "compact_ts.hpp"
#include "core_frames.hpp"
#include "core_reports.hpp"
#include "metadata_buffer.hpp"

namespace tband::rt {

inline constexpr bool kEncodeInPlace = backend::kEncodesInPlace && !kOptimizeForSize;

enum class ReportsOutcome : std::uint8_t {
  kProceed,   // deliver the event
  kSkip,      // do not: tracing is off, or the counter could not be delivered (then counted)
  kStopFull,  // do not: the snapshot buffer ran out
};

/// Sends a report from the calling core (inside its critical section): puts
/// first and second into its scratch (CoreFrames::fields[0] and [1], after
/// which any further fields must be there already), encodes it (spec:
/// field_spec() | id) into its report buffer and delivers it. The streaming
/// start's reports: one call site per report, few instructions each.
Delivery send_report(std::uint32_t second, std::uint32_t spec, std::uint64_t first) noexcept;

inline constexpr std::uint32_t kMetadataOverflowSpec =
    enc::field_spec(enc::FieldWidth::kU64, enc::FieldWidth::kU32, enc::FieldWidth::kU32, enc::FieldWidth::kU32) |
    enc::MetadataOverflow::kId;

/// Puts, into `core`'s scratch, the fields of a metadata_overflow report on
/// core `about`'s losses (after the timestamp already there); send it with
/// send_report(about, kMetadataOverflowSpec, ts). Apart, so that emit_reports()
/// can send it with its own call of the encoder (one level of stack less).
void set_metadata_overflow_fields(unsigned core, unsigned about, std::uint32_t lost_evts,
                                  std::uint32_t lost_bytes) noexcept;

/// Slow path: puts the reports this core owes (dropped_evt_cnt,
/// metadata_overflow) into the trace before the caller's event, stamped with
/// the hook's timestamp (CoreFrames::fields[0]).
ReportsOutcome emit_reports(unsigned core) noexcept;

/// Slow path of the encode-first shape: the reports, then the core's event frame.
TBAND_SLOW_PATH void deliver_after_reports(unsigned core, std::size_t len, bool is_metadata) noexcept {
  if (emit_reports(core) != ReportsOutcome::kProceed) {
    return;  // encode-first backends never run full
  }
  backend::Writer writer(core);
  const Delivery delivery = writer.deliver(per_core(g_frames, core).event, len, is_metadata);
  if (backend::kCanDrop && delivery == Delivery::kDropped) {
    record_drop(core);
  }
}

/// In-place shape: deliver(writer) writes the event after any owed reports.
template <class Deliver>
__attribute__((always_inline)) inline void trace_in_place(unsigned core, Deliver&& deliver) noexcept {
  bool full = false;
  {
    const backend::CoreLock lock(core);
    if (!lock.active()) {
      return;
    }
    ReportsOutcome outcome = ReportsOutcome::kProceed;
    if (per_core(g_core_reports, core).take_slow_path()) {
      outcome = emit_reports(core);
    }
    if (outcome == ReportsOutcome::kProceed) {
      backend::Writer writer(core);
      const Delivery delivery = deliver(writer);
      if (backend::kCanDrop && delivery == Delivery::kDropped) {
        record_drop(core);
      }
      full = delivery == Delivery::kFull;
    } else {
      full = outcome == ReportsOutcome::kStopFull;
    }
  }
  if (full) {
    backend::stop_because_full();
  }
}

/// Delivers the core's event frame (len bytes). Inside the hook's critical section.
__attribute__((always_inline)) inline void trace_frame(unsigned core, std::size_t len, bool is_metadata) noexcept {
  const std::uint8_t* frame = per_core(g_frames, core).event;
  if constexpr (backend::kEncodesInPlace) {  // reports must go into the buffer first
    trace_in_place(core, [&](backend::Writer& writer) __attribute__((always_inline)) {
      return writer.deliver(frame, len, is_metadata);
    });
  } else {
    const backend::CoreLock lock(core);
    if (!lock.active()) {
      compact_ts::not_sent(core);
      return;
    }
    if (per_core(g_core_reports, core).take_slow_path()) {
      deliver_after_reports(core, len, is_metadata);
      return;
    }
    backend::Writer writer(core);
    const Delivery delivery = writer.deliver(frame, len, is_metadata);
    if (backend::kCanDrop && delivery == Delivery::kDropped) {
      record_drop(core);
    }
  }
}

/// Delivers the core's event frame (len bytes) after keeping it in the
/// metadata buffer if it is metadata (whether tracing runs or not; a full
/// buffer makes the core owe a metadata_overflow report, sent right before
/// this event). Inside the hook's critical section.
__attribute__((always_inline)) inline void finish_frame(unsigned core, std::size_t len,
                                                        bool is_metadata) noexcept {
  if constexpr (kUseMetadataBuf) {
    if (is_metadata) {
      metadata_append(core, per_core(g_frames, core).event, len);
    }
  }
  trace_frame(core, len, is_metadata);
}

/// An event of at most kMaxFramedLen framed bytes, encoded by encode(out) at
/// time ts. Inside the hook's critical section.
template <std::size_t kMaxFramedLen, class Encode>
__attribute__((always_inline)) inline void trace_event(unsigned core, std::uint64_t ts, bool is_metadata,
                                                       Encode&& encode) noexcept {
  CoreFrames& frames = per_core(g_frames, core);
  frames.fields[0] = ts;
  if constexpr (kEncodeInPlace) {
    if (!is_metadata) {
      trace_in_place(core, [&](auto& writer) __attribute__((always_inline)) {
        return writer.template write<kMaxFramedLen>(encode);
      });
      return;
    }
  }
  if (kMultiCore && !is_metadata && !backend::accepting()) {
    compact_ts::not_sent(core);
    return;  // tracing is off: do not encode for nothing (trace_frame checks again under the lock)
  }
  finish_frame(core, encode(frames.event), is_metadata);
}

}  // namespace tband::rt
