// The runtime writes the reference tracer's bytes: the calls of its bare-metal
// integration test, in its configuration (streaming, no metadata buffer, no
// periodic counter), give tests/vectors/reference_baremetal.bin byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

std::vector<std::uint8_t> read_vector(const std::string& name) {
  std::ifstream file(std::string{TBAND_TEST_VECTORS_DIR} + "/" + name, std::ios::binary);
  EXPECT_TRUE(file) << name;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void at(std::uint64_t ts) { tband_host_set_time(ts); }

TEST(ReferenceVector, SameCallsGiveTheSameBytes) {
  tband::test::TraceCapture capture;
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_gather_system_metadata();
  tband_isr_name(0, "ISR0");
  tband_isr_name(1, "ISR1");
  tband_evtmarker_name(0, "EVTM0");
  tband_valmarker_name(0, "VALM0");
  tband_evtmarker_name(100, "my_fn1");
  tband_evtmarker_name(101, "my_fn2");
  at(10), tband_isr_enter(0);
  at(12), tband_isr_enter(1);
  at(14), tband_isr_exit(1);
  at(16), tband_isr_exit(0);
  at(20), tband_evtmarker(0, "EVENT@20");
  at(30), tband_evtmarker_begin(0, "EVENT@30");
  at(40), tband_evtmarker_end(0);
  tband_evtmarker_name(100, "my_fn1");
  tband_evtmarker_begin(100, "");
  at(50), tband_evtmarker_end(100);
  tband_evtmarker_name(101, "my_fn2");
  tband_evtmarker(101, "");
  EXPECT_EQ(capture.bytes(0), read_vector("reference_baremetal.bin"));
}

}  // namespace
