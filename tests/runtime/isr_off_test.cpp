// Interrupts switched off (tband_configISR_TRACE_ENABLE 0): their hooks compile
// to nothing and evaluate no argument; markers are still traced.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

int g_evaluated = 0;
[[maybe_unused]] int side_effect() { return ++g_evaluated; }  // never called: the point

TEST(IsrOff, InterruptHooksAreNothingMarkersAreTraced) {
  static_assert(tband_configISR_TRACE_ENABLE == 0 && tband_configMARKER_TRACE_ENABLE == 1);
  tband::test::TraceCapture capture;
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(3);
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_isr_name(side_effect(), "x");
  tband_isr_enter(side_effect());
  tband_isr_exit(side_effect());
  EXPECT_EQ(g_evaluated, 0);
  tband_evtmarker(1, "on");
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                                         "evtmarker ts=3 evtmarker_id=1 msg=\"on\""}));
}

}  // namespace
