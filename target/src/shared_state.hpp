// The tracer's bookkeeping in one object: the on/off switch, the dropped
// count, and each core's report counters and metadata buffer. The slow path,
// the metadata appends and the start and stop functions each use several of
// these, and find them all from one address: built for Cortex-M, every
// separate object's address is a literal of its own in every function that
// uses it. The names the rest of the tracer uses are references into it.
//
// Built for size it is all zero at boot (report_counters.hpp keeps the
// countdown less one there), so it lives in .bss: no initial values in flash.
// Every member has an initializer: C++17 initializes the object at compile
// time only then (else at run time, by code a bare-metal startup may not run).
#pragma once

#include <atomic>
#include <cstdint>

#include "metadata_buffer.hpp"
#include "report_counters.hpp"
#include "runtime.hpp"

namespace tband::rt {

// The metadata buffers' storage is here unless the post-mortem block holds it.
#if tband_configUSE_METADATA_BUF == 1 && tband_configUSE_BACKEND_POST_MORTEM != 1
#define TBAND_METADATA_STORAGE_HERE 1
#else
#define TBAND_METADATA_STORAGE_HERE 0
#endif

struct SharedState {
  // In the order functions first touch them: GCC addresses the others from
  // the first, and forward offsets fit the short instructions.
  std::atomic<bool> tracing_enabled{false};    // tracing_state.hpp
  std::atomic<std::uint32_t> dropped_evts{0};  // one counter for all cores
  std::atomic<std::uint32_t> session{0};       // bumped by every start (several cores)
  CoreReports core_reports[kCores];
  MetadataBuffer metadata[kCores];
  std::uint8_t metadata_storage[kCores][TBAND_METADATA_STORAGE_HERE ? tband_configMETADATA_BUF_SIZE : 1] = {};
};

inline SharedState g_shared;

inline std::atomic<bool>& g_tracing_enabled = g_shared.tracing_enabled;
inline std::atomic<std::uint32_t>& g_dropped_evts = g_shared.dropped_evts;
inline std::atomic<std::uint32_t>& g_session = g_shared.session;
inline CoreReports (&g_core_reports)[kCores] = g_shared.core_reports;
inline MetadataBuffer (&g_metadata)[kCores] = g_shared.metadata;

#if TBAND_METADATA_STORAGE_HERE
inline std::uint8_t* metadata_storage(unsigned core) noexcept { return per_core(g_shared.metadata_storage, core); }
#endif

/// What a reader of a core's metadata buffer needs, taken under its lock.
inline MetadataView metadata_view(unsigned core) noexcept {
  MetadataBuffer& meta = per_core(g_metadata, core);
  LockGuard<Spinlock> guard(meta.lock);
  return {metadata_storage(core), meta.used, meta.lost_evts, meta.lost_bytes};
}

#if tband_configUSE_BACKEND_STREAMING == 1
/// A stream start sent the core's loss totals, as they were then.
inline void metadata_loss_sent_at_start(unsigned core, std::uint32_t lost_evts) noexcept {
  MetadataBuffer& meta = per_core(g_metadata, core);
  LockGuard<Spinlock> guard(meta.lock);
  meta.lost_evts_sent_at_start = lost_evts;
}

/// True if the trace has the core's loss totals already (a stream start
/// sent them and nothing was lost since).
inline bool metadata_loss_in_trace(unsigned core) noexcept {
  MetadataBuffer& meta = per_core(g_metadata, core);
  LockGuard<Spinlock> guard(meta.lock);
  return meta.lost_evts == meta.lost_evts_sent_at_start;
}
#else
inline bool metadata_loss_in_trace(unsigned) noexcept { return false; }
#endif

}  // namespace tband::rt
