// Configuration switches: markers off (their hooks compile to nothing and do
// not evaluate their arguments), interrupts on, strings cut at 4 bytes, a
// dropped-event counter with 3 events between.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "marker_calls.hpp"
#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

int g_evaluated = 0;
[[maybe_unused]] int side_effect() { return ++g_evaluated; }  // never called: the point

TEST(Switches, MarkersOffInterruptsOnShortStrings) {
  static_assert(tband_configMARKER_TRACE_ENABLE == 0 && tband_configISR_TRACE_ENABLE == 1);
  tband::test::TraceCapture capture;
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(9);
  ASSERT_EQ(tband_start_streaming(), 0);
  tband::test::call_every_marker_hook(side_effect);
  EXPECT_EQ(g_evaluated, 0) << "switched-off hooks evaluate nothing";
  tband_isr_name(1, "timer");
  for (int i = 0; i < 5; ++i) {
    tband_isr_enter(1);
  }
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "ts_resolution_ns ns_per_ts=1",
                                   "core_id ts=0 core_id=0",
                                   "dropped_evt_cnt ts=9 cnt=0",
                                   "isr_name isr_id=1 name=\"time\"",
                                   "isr_enter ts=9 isr_id=1",
                                   "isr_enter ts=9 isr_id=1",
                                   "isr_enter ts=9 isr_id=1",
                                   "dropped_evt_cnt ts=9 cnt=0",
                                   "isr_enter ts=9 isr_id=1",
                                   "isr_enter ts=9 isr_id=1",
                               }));
}

}  // namespace
