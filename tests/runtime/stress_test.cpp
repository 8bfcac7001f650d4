// Four simulated cores (threads) stream about a million hook calls at once,
// through a sink that drops frames now and then, while another thread keeps
// querying the tracer. Run under ThreadSanitizer in CI (scripts/test.sh).
// Checks: every stream decodes, timestamps never go back on a core, every hook
// call is either in its core's trace or counted by dropped_evt_cnt, and the
// full metadata buffers are reported.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

constexpr unsigned kCores = tband_portNUMBER_OF_CORES;
constexpr std::uint32_t kCallsPerCore = 262144;  // 4 cores: 1,048,576 calls
constexpr std::uint32_t kFinalCall = kCallsPerCore;

// Every call carries its sequence number in its first id field (valmarker: its value).
void call(std::uint32_t seq) {
  if (seq % 4096 == 0) {
    tband_evtmarker_name(seq, "a-name");  // metadata: the 96-byte buffers overflow
    return;
  }
  switch (seq % 5) {
    case 0: tband_isr_enter(seq); break;
    case 1: tband_evtmarker_begin(seq, "acq"); break;
    case 2: tband_valmarker(1000, seq); break;
    case 3: tband_evtmarker_end(seq); break;
    default: tband_isr_exit(seq); break;
  }
}

// About one frame in 50 dropped, in runs of up to three.
bool drop(unsigned core, std::size_t frame) {
  std::uint64_t x = (frame / 3) * 0x9E3779B97F4A7C15ull + core * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return x % 17 == 0;
}

TEST(Stress, FourCoresStreamingWithDrops) {
  static_assert(kCores == 4);
  tband::test::TraceCapture capture;
  tband_host_set_clock(TBAND_HOST_CLOCK_REAL);
  ASSERT_EQ(tband_start_streaming(), 0);
  capture.set_drop_policy(drop);

  std::atomic<bool> running{true};
  std::thread observer([&] {  // acts as a task on core 0 that keeps asking
    for (unsigned i = 0; running.load(std::memory_order_relaxed); ++i) {
      (void)tband_tracing_finished();
      (void)tband_tracing_backend_finished(i % kCores);
      (void)tband_get_metadata_buf_amnt(i % kCores);
      (void)tband_get_dropped_evt_cnt();
    }
  });
  std::vector<std::thread> cores;
  for (unsigned core = 0; core < kCores; ++core) {
    cores.emplace_back([core] {
      tband_host_set_core_id(core);
      for (std::uint32_t seq = 0; seq < kCallsPerCore; ++seq) {
        call(seq);
      }
    });
  }
  for (std::thread& thread : cores) {
    thread.join();
  }
  running = false;
  observer.join();

  // One last call per core through a reliable sink delivers the final count.
  capture.set_drop_policy(nullptr);
  for (unsigned core = 0; core < kCores; ++core) {
    std::thread([core] {
      tband_host_set_core_id(core);
      tband_isr_enter(kFinalCall);
    }).join();
  }
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_TRUE(tband_tracing_finished());

  std::size_t missing = 0;
  std::size_t dropped_frames = 0;
  bool overflow_reported = false;
  std::vector<std::uint32_t> last_counts;
  for (unsigned core = 0; core < kCores; ++core) {
    std::vector<bool> delivered(kCallsPerCore + 1, false);
    std::uint64_t last_ts = 0;
    std::uint32_t last_count = 0;
    std::int64_t last_seq = -1;
    const auto events = capture.decoded(core);  // reports any frame that does not decode
    for (const auto& event : events) {
      if (event.ts) {
        ASSERT_GE(*event.ts, last_ts) << "core " << core << ": time went back";
        last_ts = *event.ts;
      }
      if (event.dropped_cnt) {
        ASSERT_GE(*event.dropped_cnt, last_count) << "core " << core;
        last_count = *event.dropped_cnt;
        continue;
      }
      if (event.name == "metadata_overflow") {
        overflow_reported = true;
        continue;
      }
      if (event.name == "core_id" || event.name == "ts_resolution_ns") {
        continue;
      }
      const std::int64_t seq = event.value ? *event.value : static_cast<std::int64_t>(*event.first_id);
      ASSERT_GT(seq, last_seq) << "core " << core << ": calls out of order";
      last_seq = seq;
      delivered[static_cast<std::size_t>(seq)] = true;
    }
    ASSERT_TRUE(delivered[kFinalCall]) << "core " << core;
    for (std::uint32_t seq = 0; seq < kCallsPerCore; ++seq) {
      missing += delivered[seq] ? 0 : 1;
    }
    dropped_frames += capture.dropped(core);
    last_counts.push_back(last_count);
  }
  EXPECT_GT(dropped_frames, 10000u) << "the sink must really drop";
  EXPECT_EQ(tband_get_dropped_evt_cnt(), missing) << "every call is in a trace or counted";
  for (unsigned core = 0; core < kCores; ++core) {
    EXPECT_EQ(last_counts[core], missing) << "core " << core << " reports the final count";
  }
  EXPECT_TRUE(overflow_reported);
  std::printf("%u cores x %u calls: %zu frames dropped by the sink, %zu calls missing and counted\n", kCores,
              kCallsPerCore + 1, dropped_frames, missing);
}

}  // namespace
