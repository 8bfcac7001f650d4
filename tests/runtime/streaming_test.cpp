// Streaming backend (two cores, default options): start/restart/stop and their
// return codes, metadata sent on start, every hook, string truncation, the
// periodic and the after-drop dropped_evt_cnt protocol with exact accounting,
// and metadata overflow reported in the decoded trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "c_api_calls.h"
#include "tband.h"
#include "tband_encode.hpp"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;
namespace enc = tband::enc;

class Streaming : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  void TearDown() override {
    (void)tband_stop_streaming();
    tband_host_set_core_id(0);
  }

  TraceCapture capture;
};

// Every start sends the resolution first, whether a core gathered it or not.
const std::vector<std::string> kStartWithoutMetadata = {"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0"};

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST_F(Streaming, StartRestartStopReturnCodes) {
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_TRUE(tband_tracing_finished());
  EXPECT_EQ(tband_stop_streaming(), -1) << "not active";

  EXPECT_EQ(tband_start_streaming(), 0);
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_FALSE(tband_tracing_finished());
  EXPECT_FALSE(tband_tracing_backend_finished(0));
  EXPECT_FALSE(tband_tracing_backend_finished(1));
  EXPECT_EQ(tband_start_streaming(), -1) << "already active";
  EXPECT_EQ(tband_restart_streaming(), -1) << "already active";

  EXPECT_EQ(tband_stop_streaming(), 0);
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_TRUE(tband_tracing_finished());
  EXPECT_TRUE(tband_tracing_backend_finished(0));
  EXPECT_TRUE(tband_tracing_backend_finished(1));
  EXPECT_FALSE(tband_tracing_backend_finished(2)) << "no such core";
  EXPECT_EQ(tband_stop_streaming(), -1);

  EXPECT_EQ(tband_restart_streaming(), 0);
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(capture.events(0), kStartWithoutMetadata) << "restart sends no metadata";
}

TEST_F(Streaming, StartSendsEveryCoresMetadataFirst) {
  tband_host_set_time(5);
  tband_gather_system_metadata();
  tband_isr_name(1, "uart");
  tband_host_set_core_id(1);
  tband_evtmarker_name(2, "dsp");
  tband_host_set_core_id(0);
  EXPECT_TRUE(capture.bytes(0).empty()) << "nothing is streamed before start";
  EXPECT_TRUE(capture.bytes(1).empty());

  // The metadata buffers hold exactly the framed metadata events.
  const auto ts_res = tband::test::frame_of([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  const auto uart = tband::test::frame_of([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "uart"); });
  std::vector<std::uint8_t> core0 = ts_res;
  core0.insert(core0.end(), uart.begin(), uart.end());
  ASSERT_EQ(tband_get_metadata_buf_amnt(0), core0.size());
  EXPECT_EQ(std::vector<std::uint8_t>(tband_get_metadata_buf(0), tband_get_metadata_buf(0) + core0.size()), core0);
  EXPECT_GT(tband_get_metadata_buf_amnt(1), 0u);
  EXPECT_EQ(tband_get_metadata_buf(2), nullptr);
  EXPECT_EQ(tband_get_metadata_buf_amnt(2), 0u);

  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(10);
  tband_isr_enter(1);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "ts_resolution_ns ns_per_ts=1",
                                   "core_id ts=0 core_id=0",
                                   "ts_resolution_ns ns_per_ts=1",
                                   "isr_name isr_id=1 name=\"uart\"",
                                   "core_id ts=0 core_id=1",
                                   "evtmarker_name evtmarker_id=2 name=\"dsp\"",
                                   "core_id ts=0 core_id=0",
                                   "dropped_evt_cnt ts=10 cnt=0",
                                   "isr_enter ts=10 isr_id=1",
                               }));
}

TEST_F(Streaming, StartReturnsMinus2WhenTheMetadataIsDropped) {
  tband_isr_name(1, "uart");
  capture.set_drop_policy([](unsigned, std::size_t) { return true; });
  EXPECT_EQ(tband_start_streaming(), -2);
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u) << "metadata sent on start is no hook call";
  capture.set_drop_policy(nullptr);
  EXPECT_EQ(tband_start_streaming(), 0);
}

// Without tband_configBACKEND_STREAM_START_RETRIES (the default) start gives up at
// the first piece the hook drops, and never hands it over again; with retries:
// streaming_start_retry_test.cpp.
static_assert(tband_configBACKEND_STREAM_START_RETRIES == 0);

TEST_F(Streaming, StartGivesUpWhenEverySecondFrameIsDropped) {
  tband_isr_name(1, "uart");
  capture.set_drop_policy([](unsigned, std::size_t call) { return call % 2 == 1; });
  EXPECT_EQ(tband_start_streaming(), -2);
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_EQ(capture.calls(0), 2u) << "ts_resolution_ns taken, core_id dropped, nothing after it";
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1"}));
  EXPECT_EQ(tband_host_stream_retry_waits(), 0u);
}

TEST_F(Streaming, StartFailsOverALinkSmallerThanTheMetadataBuffer) {
  tband_host_set_core_id(1);
  tband_valmarker_name(10, "twenty bytes exactly");
  tband_valmarker_name(11, "twenty bytes exactly");
  tband_host_set_core_id(0);
  ASSERT_GT(tband_get_metadata_buf_amnt(1), 32u);
  capture.set_max_call_len(32);
  EXPECT_EQ(tband_start_streaming(), -2) << "core 1's metadata buffer goes in one call";
  EXPECT_FALSE(tband_tracing_enabled());
}

TEST_F(Streaming, EveryHookFromC11) {
  EXPECT_EQ(tband_c_api_calls(), 0);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "ts_resolution_ns ns_per_ts=1",
                                   "core_id ts=0 core_id=0",
                                   "ts_resolution_ns ns_per_ts=1",
                                   "isr_name isr_id=3 name=\"timer\"",
                                   "evtmarker_name evtmarker_id=1 name=\"work\"",
                                   "valmarker_name valmarker_id=2 name=\"level\"",
                                   "core_id ts=0 core_id=0",
                                   "dropped_evt_cnt ts=110 cnt=0",
                                   "isr_enter ts=110 isr_id=3",
                                   "evtmarker ts=120 evtmarker_id=1 msg=\"go\"",
                                   "evtmarker_begin ts=120 evtmarker_id=1 msg=\"span\"",
                                   "valmarker ts=130 valmarker_id=2 val=-7",
                                   "evtmarker_end ts=130 evtmarker_id=1",
                                   "isr_exit ts=140 isr_id=3",
                               }));
}

TEST_F(Streaming, MetadataWhileTracingIsStreamedAndKept) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(7);
  tband_valmarker_name(4, "spi");
  tband_valmarker(4, 1);
  EXPECT_EQ(capture.events(0), concat(kStartWithoutMetadata, {
                                                                 "dropped_evt_cnt ts=7 cnt=0",
                                                                 "valmarker_name valmarker_id=4 name=\"spi\"",
                                                                 "valmarker ts=7 valmarker_id=4 val=1",
                                                             }));
  const auto kept = tband::test::decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(tband::test::texts(kept), std::vector<std::string>{"valmarker_name valmarker_id=4 name=\"spi\""});
}

// The reference leaves a name out of its metadata buffer when the link drops
// its frame; tband keeps it (target/README.md, differences), so the next
// start names the thing.
TEST_F(Streaming, NameDroppedByTheLinkIsKeptForTheNextStart) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(7);
  capture.set_drop_policy([](unsigned, std::size_t) { return true; });
  tband_isr_name(6, "adc");
  capture.set_drop_policy(nullptr);
  const auto streamed = capture.events(0);
  EXPECT_EQ(std::count(streamed.begin(), streamed.end(), "isr_name isr_id=6 name=\"adc\""), 0) << "the link dropped it";
  const auto kept = tband::test::decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(tband::test::texts(kept), std::vector<std::string>{"isr_name isr_id=6 name=\"adc\""});

  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::size_t before = capture.events(0).size();
  ASSERT_EQ(tband_start_streaming(), 0);
  const auto events = capture.events(0);
  const std::vector<std::string> restart(events.begin() + static_cast<std::ptrdiff_t>(before), events.end());
  EXPECT_EQ(restart, (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                               "isr_name isr_id=6 name=\"adc\"", "core_id ts=0 core_id=0"}));
}

TEST_F(Streaming, StringsAreCutAtMaxStrLen) {
  static_assert(tband_configMAX_STR_LEN == 20);
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_evtmarker(1, "abcdefghijklmnopqrstuvwxyz0123");
  tband_evtmarker_begin(1, "exactly-twenty-chars");
  tband_evtmarker_begin(1, nullptr);
  tband_isr_name(9, "0123456789012345678901234");
  tband_evtmarker_name(9, "");
  EXPECT_EQ(capture.events(0, false), concat(kStartWithoutMetadata, {
                                                                        "evtmarker ts=0 evtmarker_id=1 msg=\"abcdefghijklmnopqrst\"",
                                                                        "evtmarker_begin ts=0 evtmarker_id=1 msg=\"exactly-twenty-chars\"",
                                                                        "evtmarker_begin ts=0 evtmarker_id=1 msg=\"\"",
                                                                        "isr_name isr_id=9 name=\"01234567890123456789\"",
                                                                        "evtmarker_name evtmarker_id=9 name=\"\"",
                                                                    }));
}

TEST_F(Streaming, PeriodicDroppedCounterWith50EventsBetween) {
  static_assert(tband_configTRACE_DROP_CNT_EVERY == 50);
  ASSERT_EQ(tband_start_streaming(), 0);
  for (std::int64_t i = 0; i < 120; ++i) {
    tband_host_set_time(static_cast<std::uint64_t>(i));
    tband_valmarker(1, i);
  }
  // As the reference tracer: a counter before the first event, then after every 50 more.
  std::vector<std::int64_t> counted_before;
  std::int64_t last_value = -1;
  for (const auto& event : capture.decoded(0)) {
    if (event.value) {
      last_value = *event.value;
    } else if (event.dropped_cnt) {
      EXPECT_EQ(*event.dropped_cnt, 0u);
      counted_before.push_back(last_value + 1);
    }
  }
  EXPECT_EQ(counted_before, (std::vector<std::int64_t>{0, 51, 102}));
}

TEST_F(Streaming, RestartBeginsTheCounterRhythmAgain) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_isr_enter(1);
  tband_isr_enter(1);
  ASSERT_EQ(tband_stop_streaming(), 0);
  tband_isr_enter(1);  // not traced
  ASSERT_EQ(tband_restart_streaming(), 0);
  tband_isr_enter(1);
  EXPECT_EQ(capture.events(0), concat(kStartWithoutMetadata, {
                                                                 "dropped_evt_cnt ts=0 cnt=0",
                                                                 "isr_enter ts=0 isr_id=1",
                                                                 "isr_enter ts=0 isr_id=1",
                                                                 "dropped_evt_cnt ts=0 cnt=0",
                                                                 "isr_enter ts=0 isr_id=1",
                                                             }));
}

// Every hook call is either in the decoded trace or counted by dropped_evt_cnt,
// and after a drop the next frame that goes through is the counter.
TEST_F(Streaming, DroppedEventsAreCountedExactly) {
  ASSERT_EQ(tband_start_streaming(), 0);
  // Single drops, and runs of three so that counters themselves get dropped.
  capture.set_drop_policy([](unsigned, std::size_t call) {
    return call % 13 == 5 || (call % 29 >= 10 && call % 29 <= 12) || (call > 400 && call < 420);
  });
  constexpr std::int64_t kCalls = 1000;
  for (std::int64_t i = 0; i < kCalls; ++i) {
    tband_host_set_time(static_cast<std::uint64_t>(i));
    tband_valmarker(1, i);
  }
  capture.set_drop_policy(nullptr);
  tband_valmarker(1, kCalls);  // delivers the final count

  std::vector<bool> delivered(kCalls + 1, false);
  std::uint32_t last_count = 0;
  std::size_t missing_so_far = 0;
  std::int64_t previous = -1;
  bool counter_just_before = false;
  for (const auto& event : capture.decoded(0)) {
    if (event.dropped_cnt) {
      last_count = *event.dropped_cnt;
      counter_just_before = true;
      continue;
    }
    if (!event.value) {
      counter_just_before = false;
      continue;
    }
    const std::int64_t value = *event.value;
    ASSERT_GT(value, previous) << "events arrive in call order";
    const std::size_t gap = static_cast<std::size_t>(value - previous - 1);
    missing_so_far += gap;
    if (gap > 0) {
      EXPECT_TRUE(counter_just_before) << "after a drop the counter goes first (before value " << value << ")";
      EXPECT_EQ(last_count, missing_so_far) << "before value " << value;
    }
    delivered[static_cast<std::size_t>(value)] = true;
    previous = value;
    counter_just_before = false;
  }
  EXPECT_TRUE(delivered[kCalls]);
  EXPECT_GT(missing_so_far, 50u) << "the policy must really drop events";
  EXPECT_EQ(last_count, missing_so_far) << "every call is in the trace or counted";
  EXPECT_EQ(tband_get_dropped_evt_cnt(), missing_so_far);
  EXPECT_EQ(capture.dropped(0), capture.calls(0) - tband::test::decode_stream(capture.bytes(0)).size());
}

TEST_F(Streaming, MetadataOverflowIsReportedInTheTrace) {
  static_assert(tband_configMETADATA_BUF_SIZE == 256);
  // 20 names of 16 framed bytes each: 16 fit into 256 bytes, 4 are lost.
  std::size_t frame_len = 0;
  for (std::uint32_t i = 0; i < 20; ++i) {
    const std::string name = "interrupt-" + std::to_string(10 + i);
    frame_len = tband::test::frame_of([&](std::uint8_t* b) { return enc::encode_isr_name(b, i, name.c_str()); }).size();
    tband_isr_name(i, name.c_str());
  }
  ASSERT_EQ(frame_len, 16u);
  EXPECT_EQ(tband_get_metadata_buf_amnt(0), 256u);

  tband_host_set_time(50);
  ASSERT_EQ(tband_start_streaming(), 0);
  auto events = capture.events(0);
  ASSERT_EQ(events.size(), 1 + 1 + 16 + 1 + 1u);  // no core has gathered the resolution: it goes first
  EXPECT_EQ(events[0], "ts_resolution_ns ns_per_ts=1");
  EXPECT_EQ(events[17], "isr_name isr_id=15 name=\"interrupt-25\"");
  EXPECT_EQ(events[18], "metadata_overflow ts=50 core_id=0 lost_evts=4 lost_bytes=64") << "right after the metadata";

  // While tracing: the start has said it, so the first event does not say
  // it again (as the reference); a new loss is reported right before the
  // name that did not fit (which itself is still streamed).
  tband_host_set_time(60);
  tband_isr_enter(1);
  tband_host_set_time(70);
  tband_isr_name(99, "late-name");
  events = capture.events(0);
  const std::vector<std::string> tail(events.begin() + 20, events.end());
  EXPECT_EQ(tail, (std::vector<std::string>{
                      "dropped_evt_cnt ts=60 cnt=0",
                      "isr_enter ts=60 isr_id=1",
                      "metadata_overflow ts=70 core_id=0 lost_evts=5 lost_bytes=77",
                      "isr_name isr_id=99 name=\"late-name\"",
                  }));
}

// A core that gathers the system metadata only after the start (one that
// boots late, or a thread a busy machine runs late) sends it behind its first
// report, which is timestamped: other cores' events can come before it. The
// start has sent it already, before any core's first event.
TEST_F(Streaming, StartSendsTheResolutionWhenNoCoreGatheredIt) {
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(capture.events(0), kStartWithoutMetadata);
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_host_set_time(3);
    tband_gather_system_metadata();
    tband_isr_enter(5);
  });
  core1.join();
  EXPECT_EQ(capture.events(1), (std::vector<std::string>{
                                   "dropped_evt_cnt ts=3 cnt=0",
                                   "ts_resolution_ns ns_per_ts=1",
                                   "isr_enter ts=3 isr_id=5",
                               }))
      << "gathered late: behind a timed report";
  ASSERT_EQ(tband_stop_streaming(), 0);
  capture.clear();
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "ts_resolution_ns ns_per_ts=1",
                                   "core_id ts=0 core_id=1",
                                   "ts_resolution_ns ns_per_ts=1",
                                   "core_id ts=0 core_id=0",
                               }))
      << "and core 1's metadata buffer";
}

TEST_F(Streaming, StartSendsTheResolutionWhenTheMetadataBufferLostIt) {
  for (std::uint32_t i = 0; i < 16; ++i) {  // 16 framed bytes each, as below
    tband_isr_name(i, ("interrupt-" + std::to_string(10 + i)).c_str());
  }
  ASSERT_EQ(tband_get_metadata_buf_amnt(0), std::size_t{tband_configMETADATA_BUF_SIZE});
  tband_gather_system_metadata();  // does not fit
  ASSERT_EQ(tband_start_streaming(), 0);
  const auto events = capture.events(0);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front(), "ts_resolution_ns ns_per_ts=1");
}

TEST_F(Streaming, EachCoreStreamsItsOwnEvents) {
  ASSERT_EQ(tband_start_streaming(), 0);
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_host_set_time(3);
    tband_isr_enter(5);
    tband_isr_exit(5);
  });
  core1.join();
  tband_isr_enter(6);
  EXPECT_EQ(capture.events(1), (std::vector<std::string>{
                                   "dropped_evt_cnt ts=3 cnt=0",
                                   "isr_enter ts=3 isr_id=5",
                                   "isr_exit ts=3 isr_id=5",
                               }));
  EXPECT_EQ(capture.events(0), concat(kStartWithoutMetadata, {
                                                                 "dropped_evt_cnt ts=3 cnt=0",
                                                                 "isr_enter ts=3 isr_id=6",
                                                             }));
}

}  // namespace
