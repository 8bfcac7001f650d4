// Public tracing-state queries.
#include "tband.h"

#if tband_configENABLE == 1

#include "core_reports.hpp"
#include "tracing_state.hpp"

namespace rt = tband::rt;

#if tband_configUSE_BACKEND_EXTERNAL == 1

// The external backend has no switch: every event goes to the user's hook.
extern "C" bool tband_tracing_enabled(void) { return true; }
extern "C" bool tband_tracing_finished(void) { return false; }
extern "C" bool tband_tracing_backend_finished(unsigned int) { return false; }

#else

extern "C" bool tband_tracing_enabled(void) { return rt::tracing_enabled(); }

extern "C" bool tband_tracing_finished(void) {
  return rt::with_state_lock([] { return rt::all_backends_finished_locked(); });
}

extern "C" bool tband_tracing_backend_finished(unsigned int core_id) {
  return core_id < rt::kCores && rt::with_state_lock([&] { return rt::backend_finished_locked(core_id); });
}

#endif

extern "C" std::uint32_t tband_get_dropped_evt_cnt(void) {
  return rt::g_dropped_evts.load(std::memory_order_relaxed);
}

#endif
