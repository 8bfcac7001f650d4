// What the benchmarks set the run-time filter to before they measure, by
// BENCH_FILTER_MODE (config_filters/): 1 (or undefined) everything traced;
// 2 the five mix events' ids left out (global filter); 3 the mix's interrupt
// and markers left out as objects (local filter). Returns false if the
// filter refused.
#pragma once

#include "benchmark_mix.hpp"
#include "tband.h"
#include "tband_encode.hpp"
#include "tband_user_events.h"

namespace bench {

inline bool apply_filter_mode() {
#if defined(BENCH_FILTER_MODE) && BENCH_FILTER_MODE == 2
  namespace enc = tband::enc;
  const std::uint8_t ids[] = {enc::IsrEnter::kId, enc::IsrExit::kId, enc::EvtmarkerBegin::kId, enc::EvtmarkerEnd::kId,
                              enc::Valmarker::kId};
  for (const std::uint8_t id : ids) {
    if (tband_filter_set_event(id, false) != 0) {
      return false;
    }
  }
#elif defined(BENCH_FILTER_MODE) && BENCH_FILTER_MODE == 3
  if (tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, tband::bench::kMixIsrId, false) != 0 ||
      tband_filter_set_object(TBAND_FILTER_KEY_EVTMARKER_ID, tband::bench::kMixEvtmarkerId, false) != 0 ||
      tband_filter_set_object(TBAND_FILTER_KEY_VALMARKER_ID, tband::bench::kMixValmarkerId, false) != 0) {
    return false;
  }
#endif
  return true;
}

}  // namespace bench
