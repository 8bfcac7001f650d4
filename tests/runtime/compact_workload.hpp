// The calls that compact_ts_test.cpp makes with compact timestamps and
// compact_reference_main.cpp makes in the default mode: the same calls at
// the same times, so that both traces decode to the same events. Times step
// by 0 to 996 ticks, now and then across the short delta's range (4,096
// ticks), or by 5,000 to 25,000 ticks, or by 2^33, once backwards; names come mid-stream; a phase of the run has
// every third frame dropped by the stream hook; tracing stops, restarts and
// starts again.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace tband::test {

inline constexpr int kCompactWorkloadCalls = 2000;

/// The next of a run of pseudo-random 16-bit numbers (an LCG's high bits).
inline std::uint32_t next_random(std::uint32_t& x) {
  x = x * 1103515245u + 12345u;
  return x >> 16;
}

/// The time step before call i (r: the call's random number): dense (0 to
/// 996 ticks, now and then across the short delta's 4,096) and sparse (5,000
/// to 25,000) in turns of 500 calls, and now and then 2^33.
inline std::uint64_t compact_workload_step(int i, std::uint32_t r) {
  if (r % 509 == 0) {
    return std::uint64_t{1} << 33;
  }
  return (i / 500) % 2 == 1 ? 5000 + r % 20000 : r % 16 == 0 ? 3900 + r % 400 : r % 997;
}

inline void run_compact_workload(TraceCapture& capture) {
  tband_host_set_core_id(0);
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(5);
  tband_isr_name(7, "uart");
  tband_evtmarker_name(1, "acq");
  tband_valmarker_name(2, "level");
  tband_isr_enter(7);  // before the start: not traced
  bool dropping = false;
  std::size_t phase_calls = 0;
  capture.set_drop_policy([&](unsigned, std::size_t) { return dropping && ++phase_calls % 3 == 0; });
  (void)tband_start_streaming();
  std::uint64_t t = 1000;
  std::uint32_t x = 1;
  for (int i = 0; i < kCompactWorkloadCalls; ++i) {
    const std::uint32_t r = next_random(x);
    t += compact_workload_step(i, r);
    if (i == 600) {
      t -= 2000;  // a clock that went back: sent absolute
    }
    tband_host_set_time(t);
    dropping = i >= 800 && i < 1000;
    if (i == 1300) {
      (void)tband_stop_streaming();
    }
    if (i == 1350) {
      (void)tband_restart_streaming();
    }
    if (i == 1700) {
      (void)tband_stop_streaming();
      (void)tband_start_streaming();
    }
    if (i % 450 == 449) {
      tband_evtmarker_name(3 + static_cast<std::uint32_t>(i), "later");
    }
    switch (r % 5) {
      case 0: tband_isr_enter(7); break;
      case 1: tband_isr_exit(7); break;
      case 2: tband_evtmarker_begin(1, "acq"); break;
      case 3: tband_evtmarker_end(1); break;
      default: tband_valmarker(2, static_cast<std::int64_t>(r % 2001) - 1000); break;
    }
  }
  (void)tband_stop_streaming();
  capture.set_drop_policy(nullptr);
}

}  // namespace tband::test
