// External backend (one core, strings cut at 8 bytes): every framed event,
// metadata included and flagged, goes to the user's hook, always; drops the
// hook reports are counted like the streaming backend's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

class External : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  tband::test::TraceCapture capture;
};

TEST_F(External, EveryEventGoesToTheHookAlways) {
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_FALSE(tband_tracing_finished());
  EXPECT_FALSE(tband_tracing_backend_finished(0));
  tband_host_set_time(4);
  tband_gather_system_metadata();
  tband_isr_name(2, "a-long-interrupt-name");
  tband_isr_enter(2);
  tband_evtmarker_begin(1, "0123456789");
  tband_valmarker(7, 123456789);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "dropped_evt_cnt ts=4 cnt=0",
                                   "ts_resolution_ns ns_per_ts=1",
                                   "isr_name isr_id=2 name=\"a-long-i\"",
                                   "isr_enter ts=4 isr_id=2",
                                   "evtmarker_begin ts=4 evtmarker_id=1 msg=\"01234567\"",
                                   "valmarker ts=4 valmarker_id=7 val=123456789",
                               }));
  EXPECT_EQ(capture.metadata_flags(0), (std::vector<bool>{false, true, true, false, false, false}));
}

TEST_F(External, DropsTheHookReportsAreCounted) {
  capture.set_drop_policy([](unsigned, std::size_t call) { return call == 3 || call == 4; });
  for (int i = 0; i < 6; ++i) {
    tband_valmarker(1, i);
  }
  // Calls: 0 counter, 1 v0, 2 v1, 3 v2 (dropped), 4 counter (dropped: v3 given up),
  // 5 counter(2), 6 v4, 7 v5.
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "dropped_evt_cnt ts=0 cnt=0",
                                   "valmarker ts=0 valmarker_id=1 val=0",
                                   "valmarker ts=0 valmarker_id=1 val=1",
                                   "dropped_evt_cnt ts=0 cnt=2",
                                   "valmarker ts=0 valmarker_id=1 val=4",
                                   "valmarker ts=0 valmarker_id=1 val=5",
                               }));
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 2u);
}

}  // namespace
