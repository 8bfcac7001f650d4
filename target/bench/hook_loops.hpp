// The measured loops, shared by the tband and barectf benchmark programs.
//
// Before including this file, define the five calls of the benchmark mix:
//   BENCH_ISR_ENTER(id) BENCH_ISR_EXIT(id) BENCH_EVTMARKER_BEGIN(id, msg)
//   BENCH_EVTMARKER_END(id) BENCH_VALMARKER(id, val)
// Both tracers read the time from tband_bench_now, which each loop sets
// before every call, as a timer would have moved on.
//
// Every kind has a loop that makes the calls and a baseline loop that does
// exactly the same except the call; callgrind's inclusive instruction counts of
// the two, divided by the number of calls, give the instructions per call with
// the loop overhead subtracted. The mix loop makes all five in mix order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmark_mix.hpp"

extern "C" std::uint64_t tband_bench_now;

namespace bench {

using tband::bench::MixStep;
using Kind = MixStep::Kind;

inline std::vector<MixStep> make_mix(std::size_t cycles) {
  tband::bench::BenchmarkMix mix;
  std::vector<MixStep> steps(cycles * tband::bench::kMixEventsPerCycle);
  for (MixStep& step : steps) {
    step = mix.next();
  }
  return steps;
}

// Stops the compiler from merging or dropping the baseline's stores.
#define BENCH_BARRIER() asm volatile("" ::: "memory")

#define BENCH_KIND_LOOPS(name, step_kind, call)                                    \
  __attribute__((noinline)) void run_##name(const std::vector<MixStep>& steps) { \
    for (const MixStep& step : steps) {                                       \
      if (step.kind == (step_kind)) {                                              \
        tband_bench_now = step.ts;                                            \
        call;                                                                 \
        BENCH_BARRIER();                                                      \
      }                                                                       \
    }                                                                         \
  }                                                                           \
  __attribute__((noinline)) void baseline_##name(const std::vector<MixStep>& steps) { \
    for (const MixStep& step : steps) {                                       \
      if (step.kind == (step_kind)) {                                              \
        tband_bench_now = step.ts;                                            \
        BENCH_BARRIER();                                                      \
        (void)step.value;                                                     \
      }                                                                       \
    }                                                                         \
  }

BENCH_KIND_LOOPS(isr_enter, Kind::kIsrEnter, BENCH_ISR_ENTER(tband::bench::kMixIsrId))
BENCH_KIND_LOOPS(isr_exit, Kind::kIsrExit, BENCH_ISR_EXIT(tband::bench::kMixIsrId))
BENCH_KIND_LOOPS(evtmarker_begin, Kind::kEvtmarkerBegin,
                 BENCH_EVTMARKER_BEGIN(tband::bench::kMixEvtmarkerId, tband::bench::kMixMessage))
BENCH_KIND_LOOPS(evtmarker_end, Kind::kEvtmarkerEnd, BENCH_EVTMARKER_END(tband::bench::kMixEvtmarkerId))
BENCH_KIND_LOOPS(valmarker, Kind::kValmarker, BENCH_VALMARKER(tband::bench::kMixValmarkerId, step.value))

inline void call_step(const MixStep& step) {
  switch (step.kind) {
    case Kind::kIsrEnter:
      BENCH_ISR_ENTER(tband::bench::kMixIsrId);
      break;
    case Kind::kEvtmarkerBegin:
      BENCH_EVTMARKER_BEGIN(tband::bench::kMixEvtmarkerId, tband::bench::kMixMessage);
      break;
    case Kind::kValmarker:
      BENCH_VALMARKER(tband::bench::kMixValmarkerId, step.value);
      break;
    case Kind::kEvtmarkerEnd:
      BENCH_EVTMARKER_END(tband::bench::kMixEvtmarkerId);
      break;
    case Kind::kIsrExit:
      BENCH_ISR_EXIT(tband::bench::kMixIsrId);
      break;
  }
}

__attribute__((noinline)) void run_mix(const std::vector<MixStep>& steps) {
  for (const MixStep& step : steps) {
    tband_bench_now = step.ts;
    call_step(step);
    BENCH_BARRIER();
  }
}

__attribute__((noinline)) void baseline_mix(const std::vector<MixStep>& steps) {
  for (const MixStep& step : steps) {
    tband_bench_now = step.ts;
    switch (step.kind) {  // same dispatch as run_mix, without the calls
      case Kind::kIsrEnter:
      case Kind::kEvtmarkerBegin:
      case Kind::kValmarker:
      case Kind::kEvtmarkerEnd:
      case Kind::kIsrExit:
        BENCH_BARRIER();
        break;
    }
    (void)step.value;
  }
}

/// Runs every loop once, in a fixed order (the per-kind loops first, so the
/// periodic dropped-event counter falls on the same calls for both tracers).
inline void run_all(const std::vector<MixStep>& steps) {
  run_isr_enter(steps);
  baseline_isr_enter(steps);
  run_evtmarker_begin(steps);
  baseline_evtmarker_begin(steps);
  run_valmarker(steps);
  baseline_valmarker(steps);
  run_evtmarker_end(steps);
  baseline_evtmarker_end(steps);
  run_isr_exit(steps);
  baseline_isr_exit(steps);
  run_mix(steps);
  baseline_mix(steps);
}

}  // namespace bench
