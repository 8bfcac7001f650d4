// The slow path of the event path: dropped-event counter and metadata overflow.
#include "tband.h"

#if tband_configENABLE == 1

#include <cstdint>
#include <limits>

#include "event_path.hpp"
#include "tracing_state.hpp"

namespace tband::rt {

// The reports go through the compact encoder in every build: one copy of the
// code, and the slow path is rare. Inlined into emit_reports(), which then
// calls the encoder itself: one level less of stack under the hooks.
__attribute__((always_inline)) inline Delivery send_report_inline(unsigned core, std::uint32_t spec) noexcept {
  core = known_core(core);
  CoreFrames& frames = per_core(g_frames, core);
  const std::size_t len = enc::encode_fields(frames.report, spec, frames.fields, nullptr);
  return backend::Writer(core).deliver_report(frames.report, len);
}

Delivery send_report(std::uint32_t second, std::uint32_t spec, std::uint64_t first) noexcept {
  const unsigned core = current_core();
  std::uint64_t* fields = per_core(g_frames, core).fields;
  fields[0] = first;
  fields[1] = second;
  return send_report_inline(core, spec);
}

void set_metadata_overflow_fields(unsigned core, unsigned about, std::uint32_t lost_evts,
                                  std::uint32_t lost_bytes) noexcept {
  std::uint64_t* fields = per_core(g_frames, core).fields;
  fields[1] = about;
  fields[2] = lost_evts;
  fields[3] = lost_bytes;
}

// The periodic counter goes out every 51 events: built for speed, it has its
// own straight-line encoder, writing in place where the backend allows.
// A template so that only in-place backends need the Writer's write().
inline constexpr std::uint32_t kDroppedEvtCntSpec =
    enc::field_spec(enc::FieldWidth::kU64, enc::FieldWidth::kU32) | enc::DroppedEvtCnt::kId;

template <class Writer = backend::Writer>
Delivery send_dropped_evt_cnt(unsigned core, std::uint32_t drops) noexcept {
  CoreFrames& frames = per_core(g_frames, known_core(core));
  if constexpr (kOptimizeForSize) {
    frames.fields[1] = drops;
    return send_report_inline(core, kDroppedEvtCntSpec);
  } else {
    const std::uint64_t ts = frames.fields[0];
    Writer writer(known_core(core));
    if constexpr (backend::kEncodesInPlace) {
      return writer.template write<enc::DroppedEvtCnt::kMaxFramedLen, false>(
          [&](std::uint8_t* out) { return enc::encode_dropped_evt_cnt(out, ts, drops); });
    } else {
      return writer.deliver_report(frames.report, enc::encode_dropped_evt_cnt(frames.report, ts, drops));
    }
  }
}

void record_drop(unsigned core) noexcept {
  core = known_core(core);
  count_drop(core);
  per_core(g_core_reports, core).force();
  if constexpr (compact_ts::kEnabled) {
    compact_ts::invalidate(core);  // the dropped frame may have carried the anchor
  }
}

static_assert(enc::DroppedEvtCnt::kMaxFramedLen <= kMaxReportFramedLen &&
              enc::MetadataOverflow::kMaxFramedLen <= kMaxReportFramedLen &&
              enc::CoreId::kMaxFramedLen <= kMaxReportFramedLen);

ReportsOutcome emit_reports(unsigned core) noexcept {
  core = known_core(core);
  CoreReports& reports = per_core(g_core_reports, core);
  if (backend::kReportsCheckEnabled && !tracing_enabled()) {
    reports.set_countdown(1);  // stays forced: the next event looks again
    return ReportsOutcome::kSkip;
  }
  reports.attention.clear();  // before reading what the others changed
  const std::uint32_t drops = load_shared(g_dropped_evts);

  // Events left until the periodic counter; a new session starts it afresh
  // (with one core, begin_session() has already set it to 0).
  std::uint32_t periodic = reports.periodic_left + reports.countdown;
  if constexpr (kMultiCore) {
    const std::uint32_t session = load_shared(g_session);
    if (session != reports.session) {
      periodic = 0;
      reports.session = session;
    }
  }
  // Up to two reports, in this order, from one send (one copy of the code):
  // the counter when it is due or the count changed, then metadata_overflow.
  bool counter = (kDropCntEvery > 0 && periodic == 0) || drops != reports.reported_drops;
  if (counter) {
    // Until the counter is out, the next event comes here again. All set
    // before the send, so that nothing stays live across it (a small frame):
    // a counter that does not go out ends tracing (full) or is counted as a
    // drop itself, which changes the count, so it is sent again either way.
    reports.periodic_left = periodic;
    reports.set_countdown(1);
    reports.reported_drops = drops;
  }
  for (;;) {
    if (!counter) {
      reports.periodic_left = 0;
      reports.set_countdown(kDropCntEvery > 0 ? periodic : std::numeric_limits<std::uint32_t>::max());
      if (!kUseMetadataBuf || !reports.overflow_pending) {
        return ReportsOutcome::kProceed;
      }
      if constexpr (kUseMetadataBuf && kStartReportsMetadataLoss) {
        if (metadata_loss_in_trace(core)) {
          reports.overflow_pending = false;  // the stream's start said it
          return ReportsOutcome::kProceed;
        }
      }
    }
    Delivery delivery;
    std::uint32_t spec = kMetadataOverflowSpec;
    if (!counter) {
      // This core's own counts: only this core changes them, and it is here.
      const MetadataBuffer& meta = per_core(g_metadata, core);
      set_metadata_overflow_fields(core, core, meta.lost_evts, meta.lost_bytes);
    } else if constexpr (kOptimizeForSize) {
      per_core(g_frames, core).fields[1] = drops;
      spec = kDroppedEvtCntSpec;
    }
    if (kOptimizeForSize || !counter) {
      delivery = send_report_inline(core, spec);  // one call of the encoder for both
    } else {
      delivery = send_dropped_evt_cnt(core, drops);
    }
    if (delivery == Delivery::kFull || (!backend::kCanDrop && delivery != Delivery::kDelivered)) {
      return ReportsOutcome::kStopFull;
    }
    if (!counter) {
      if (delivery == Delivery::kDelivered) {
        reports.overflow_pending = false;
      } else {
        reports.force();  // try again with the next event; a report is no hook call, so not counted
      }
      return ReportsOutcome::kProceed;
    }
    if (delivery != Delivery::kDelivered) {
      // The caller's event is given up, and counted (out of line, so that no
      // counter's address stays live across the send; forced already).
      record_drop(core);
      return ReportsOutcome::kSkip;
    }
    counter = false;
    periodic = kDropCntEvery + 1;  // this event counts towards the next one
  }
}

}  // namespace tband::rt

#endif
