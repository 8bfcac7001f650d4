// Snapshot backend (two cores, 512-byte buffers): trigger/stop/reset and their
// return codes, the buffers' contents, and the first full buffer stopping
// every core with the full-callback run once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tband.h"
#include "tband_encode.hpp"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::decode_stream;
using tband::test::texts;

class Snapshot : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
    tband_host_reset_snapshot_full_calls();
  }
  void TearDown() override { tband_host_set_core_id(0); }

  static std::vector<tband::test::DecodedEvent> snapshot_of(unsigned core) {
    return decode_stream(tband_get_core_snapshot_buf(core), tband_get_core_snapshot_buf_amnt(core));
  }
};

TEST_F(Snapshot, TriggerStopResetReturnCodes) {
  EXPECT_EQ(tband_stop_snapshot(), -1) << "not active";
  EXPECT_EQ(tband_reset_snapshot(), 0);
  EXPECT_EQ(tband_trigger_snapshot(), 0);
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_EQ(tband_trigger_snapshot(), -1) << "already active";
  EXPECT_EQ(tband_reset_snapshot(), -1) << "still tracing";
  tband_isr_enter(1);
  EXPECT_EQ(tband_get_core_snapshot_buf_amnt(0), 0u) << "no amount while the core may still write";
  EXPECT_EQ(tband_stop_snapshot(), 0);
  EXPECT_EQ(tband_stop_snapshot(), -1);
  EXPECT_TRUE(tband_tracing_finished());
  EXPECT_GT(tband_get_core_snapshot_buf_amnt(0), 0u);
  EXPECT_EQ(tband_reset_snapshot(), 0);
  EXPECT_EQ(tband_get_core_snapshot_buf_amnt(0), 0u);
  EXPECT_NE(tband_get_core_snapshot_buf(1), nullptr);
  EXPECT_EQ(tband_get_core_snapshot_buf(2), nullptr);
  EXPECT_EQ(tband_get_core_snapshot_buf_amnt(2), 0u);
  EXPECT_EQ(tband_host_snapshot_full_calls(), 0u);
}

TEST_F(Snapshot, BuffersHoldEachCoresEvents) {
  tband_isr_name(1, "uart");  // before the trigger: metadata buffer only
  ASSERT_EQ(tband_trigger_snapshot(), 0);
  tband_host_set_time(10);
  tband_isr_enter(1);
  tband_evtmarker_name(2, "work");
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_host_set_time(11);
    tband_valmarker(3, -4);
  });
  core1.join();
  tband_host_set_time(12);
  tband_isr_exit(1);
  ASSERT_EQ(tband_stop_snapshot(), 0);
  tband_isr_enter(1);  // after the stop: not recorded

  EXPECT_EQ(texts(snapshot_of(0)), (std::vector<std::string>{
                                       "dropped_evt_cnt ts=10 cnt=0",
                                       "isr_enter ts=10 isr_id=1",
                                       "evtmarker_name evtmarker_id=2 name=\"work\"",
                                       "isr_exit ts=12 isr_id=1",
                                   }));
  EXPECT_EQ(texts(snapshot_of(1)), (std::vector<std::string>{
                                       "dropped_evt_cnt ts=11 cnt=0",
                                       "valmarker ts=11 valmarker_id=3 val=-4",
                                   }));
  const auto metadata = decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(texts(metadata), (std::vector<std::string>{
                                 "isr_name isr_id=1 name=\"uart\"",
                                 "evtmarker_name evtmarker_id=2 name=\"work\"",
                             }));
}

TEST_F(Snapshot, FirstFullBufferStopsEveryCoreAndCallsBackOnce) {
  ASSERT_EQ(tband_trigger_snapshot(), 0);
  std::uint64_t ts = 0;
  std::size_t calls = 0;
  while (tband_tracing_enabled() && calls < 10000) {
    tband_host_set_time(++ts);
    tband_evtmarker(1, "fill");
    ++calls;
  }
  EXPECT_FALSE(tband_tracing_enabled()) << "a 512-byte buffer must fill";
  EXPECT_EQ(tband_host_snapshot_full_calls(), 1u);
  EXPECT_TRUE(tband_tracing_finished());

  // Core 1 records nothing any more, and the callback does not run again.
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_isr_enter(5);
  });
  core1.join();
  tband_evtmarker(1, "more");
  EXPECT_EQ(tband_get_core_snapshot_buf_amnt(1), 0u);
  EXPECT_EQ(tband_host_snapshot_full_calls(), 1u);

  // Core 0 holds whole frames only, as many as fitted, all but the one that did not.
  const std::size_t used = tband_get_core_snapshot_buf_amnt(0);
  EXPECT_LE(used, 512u);
  const auto frame_len = tband::test::frame_of([&](std::uint8_t* b) {
                           return tband::enc::encode_evtmarker(b, ts, 1, "fill");
                         }).size();
  EXPECT_GT(used + frame_len, 512u - 16u) << "stopped only when the next frame did not fit";
  const auto events = snapshot_of(0);
  std::size_t markers = 0;
  for (const auto& event : events) {
    markers += event.name == "evtmarker";
  }
  EXPECT_EQ(markers, calls - 1) << "every call but the last is in the snapshot";

  // Reset and trigger again: a new snapshot from empty buffers.
  EXPECT_EQ(tband_reset_snapshot(), 0);
  EXPECT_EQ(tband_trigger_snapshot(), 0);
  tband_host_set_time(1000);
  tband_isr_enter(2);
  EXPECT_EQ(tband_stop_snapshot(), 0);
  EXPECT_EQ(texts(snapshot_of(0)), (std::vector<std::string>{
                                       "dropped_evt_cnt ts=1000 cnt=0",
                                       "isr_enter ts=1000 isr_id=2",
                                   }));
}

TEST_F(Snapshot, BothCoresFillingAtOnceCallBackOnce) {
  tband_host_set_clock(TBAND_HOST_CLOCK_COUNTER);
  ASSERT_EQ(tband_trigger_snapshot(), 0);
  auto fill = [](unsigned core) {
    tband_host_set_core_id(core);
    for (int i = 0; i < 5000 && tband_tracing_enabled(); ++i) {
      tband_valmarker(core, i);
    }
  };
  std::thread core0(fill, 0u);
  std::thread core1(fill, 1u);
  core0.join();
  core1.join();
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_EQ(tband_host_snapshot_full_calls(), 1u);
  EXPECT_TRUE(tband_tracing_finished());
  for (unsigned core = 0; core < 2; ++core) {
    std::uint64_t last_ts = 0;
    for (const auto& event : snapshot_of(core)) {
      ASSERT_TRUE(event.ts.has_value());
      EXPECT_GE(*event.ts, last_ts) << "core " << core;
      last_ts = *event.ts;
    }
  }
}

}  // namespace
