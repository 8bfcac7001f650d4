// Snapshot backend: trigger, stop, reset, buffer access, and the stop when the
// first buffer fills.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_BACKEND_SNAPSHOT == 1

#include "backend.hpp"
#include "tracing_state.hpp"

namespace rt = tband::rt;

namespace tband::rt::backend {

Delivery snapshot_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept {
  SnapshotBuffer& snap = per_core(g_snapshots, core);
  const std::size_t used = snap.used;
  if (len > kSnapshotSize - used) {
    return Delivery::kFull;
  }
  snap.used = used + len;  // first: nothing stays live across the copy (inside the critical section)
  copy_bytes(snap.data + used, frame, len);
  return Delivery::kDelivered;
}

// Runs inside the hook's critical section, after the core released its backend
// lock (the finished checks take the state lock first, then backend locks).
void stop_because_full() noexcept {
  LockGuard<Spinlock> guard(g_state_lock);
  if (disable_tracing()) {
    tband_portBACKEND_SNAPSHOT_BUF_FULL_CALLBACK();
  }
}

}  // namespace tband::rt::backend

extern "C" int tband_trigger_snapshot(void) {
  return rt::start_tracing([] { return 0; });
}

extern "C" int tband_stop_snapshot(void) { return rt::stop_tracing(); }

extern "C" int tband_reset_snapshot(void) {
  return rt::with_state_lock([] {
    if (!rt::all_backends_finished_locked()) {
      return -1;
    }
    for (rt::backend::SnapshotBuffer& snapshot : rt::backend::g_snapshots) {
      snapshot.used = 0;  // no core writes: all finished, and the state lock keeps tracing off
    }
    return 0;
  });
}

extern "C" const volatile std::uint8_t* tband_get_core_snapshot_buf(unsigned int core_id) {
  return core_id < rt::kCores ? rt::backend::g_snapshots[core_id].data : nullptr;
}

extern "C" std::size_t tband_get_core_snapshot_buf_amnt(unsigned int core_id) {
  if (core_id >= rt::kCores) {
    return 0;
  }
  return rt::with_state_lock([&]() -> std::size_t {
    return rt::backend_finished_locked(core_id) ? rt::backend::g_snapshots[core_id].used : 0;
  });
}

#endif
