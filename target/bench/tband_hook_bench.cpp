// The tband side of target/bench/run_hook_bench.py, for the backend of the
// configuration it is built with: streaming into a sink in another
// translation unit (ring_sink.cpp: copies the bytes into a RAM ring;
// noop_sink.cpp: does nothing; record_sink.cpp: keeps every byte), or the
// snapshot backend (its own buffer).
//   tband_hook_bench measure [cycles]       every loop once, for callgrind
//   tband_hook_bench trace FILE [cycles]    the mix once; writes the trace to
//                                           FILE and checks it is the trace the
//                                           reference tracer writes for these calls
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tband.h"
#include "tband_encode.hpp"
#include "tband_port.h"

#define BENCH_ISR_ENTER(id) tband_isr_enter(id)
#define BENCH_ISR_EXIT(id) tband_isr_exit(id)
#define BENCH_EVTMARKER_BEGIN(id, msg) tband_evtmarker_begin(id, msg)
#define BENCH_EVTMARKER_END(id) tband_evtmarker_end(id)
#define BENCH_VALMARKER(id, val) tband_valmarker(id, val)
#include "hook_loops.hpp"
#include "filter_mode.hpp"

extern "C" {
std::uint64_t tband_bench_now = 0;
}
extern std::vector<std::uint8_t> g_bench_recorded;  // record_sink.cpp

namespace {

namespace enc = tband::enc;
using tband::bench::MixStep;

void append(std::vector<std::uint8_t>& out, const std::uint8_t* frame, std::size_t len) {
  out.insert(out.end(), frame, frame + len);
}

constexpr bool kStreaming = tband_configUSE_BACKEND_STREAMING == 1;

// What the reference tracer writes for these calls: core_id(0) when streaming
// starts (a snapshot has none), then every event, with a dropped_evt_cnt(0)
// before the first and then before every 51st
// (tband_configTRACE_DROP_CNT_EVERY 50 between). With a metadata buffer (the
// reference has none) tband's start sends ts_resolution_ns ahead of it, so
// that no core's events come before the resolution; the events are the same.
std::vector<std::uint8_t> reference_trace(const std::vector<MixStep>& steps) {
  std::vector<std::uint8_t> out;
  std::uint8_t frame[enc::kMaxFramedLen];
  if (kStreaming) {
    if (tband_configMETADATA_BUF_SIZE > 0) {
      append(out, frame, enc::encode_ts_resolution_ns(frame, tband_portTIMESTAMP_RESOLUTION_NS));
    }
    append(out, frame, enc::encode_core_id(frame, 0, 0));
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const MixStep& s = steps[i];
    if (i % (tband_configTRACE_DROP_CNT_EVERY + 1) == 0) {
      append(out, frame, enc::encode_dropped_evt_cnt(frame, s.ts, 0));
    }
    std::size_t len = 0;
    switch (s.kind) {
      case MixStep::Kind::kIsrEnter: len = enc::encode_isr_enter(frame, s.ts, tband::bench::kMixIsrId); break;
      case MixStep::Kind::kEvtmarkerBegin:
        len = enc::encode_evtmarker_begin(frame, s.ts, tband::bench::kMixEvtmarkerId, tband::bench::kMixMessage);
        break;
      case MixStep::Kind::kValmarker: len = enc::encode_valmarker(frame, s.ts, tband::bench::kMixValmarkerId, s.value); break;
      case MixStep::Kind::kEvtmarkerEnd: len = enc::encode_evtmarker_end(frame, s.ts, tband::bench::kMixEvtmarkerId); break;
      case MixStep::Kind::kIsrExit: len = enc::encode_isr_exit(frame, s.ts, tband::bench::kMixIsrId); break;
    }
    append(out, frame, len);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "measure";
  const int cycles_arg = mode == "trace" ? 3 : 2;
  const std::size_t cycles = argc > cycles_arg ? std::strtoul(argv[cycles_arg], nullptr, 10) : 100000;
  const auto steps = bench::make_mix(cycles);
#if tband_configUSE_BACKEND_STREAMING == 1
  const int started = tband_start_streaming();
#else
  const int started = tband_trigger_snapshot();
#endif
  if (started != 0) {
    std::fprintf(stderr, "starting the backend failed (%d)\n", started);
    return 1;
  }
  if (!bench::apply_filter_mode()) {
    std::fprintf(stderr, "setting the filter failed\n");
    return 1;
  }
  if (mode == "measure") {
    bench::run_all(steps);
    return 0;
  }
  if (mode == "trace" && argc > 2) {
    bench::run_mix(steps);
#if tband_configUSE_BACKEND_STREAMING == 1
    (void)tband_stop_streaming();
    const std::vector<std::uint8_t>& trace = g_bench_recorded;
#else
    (void)tband_stop_snapshot();
    const volatile std::uint8_t* snapshot = tband_get_core_snapshot_buf(0);
    const std::vector<std::uint8_t> trace(snapshot, snapshot + tband_get_core_snapshot_buf_amnt(0));
#endif
    std::ofstream(argv[2], std::ios::binary)
        .write(reinterpret_cast<const char*>(trace.data()), static_cast<std::streamsize>(trace.size()));
    const bool same = trace == reference_trace(steps);
    std::printf("events %zu bytes %zu reference_trace %s\n", steps.size(), trace.size(),
                same ? "same" : "DIFFERENT");
    return same ? 0 : 1;
  }
  std::fprintf(stderr, "usage: %s measure [cycles] | trace FILE [cycles]\n", argv[0]);
  return 2;
}
