// What the FreeRTOS scenarios share: the tracer streaming into a capture
// from boot, a manual clock, the stand-in kernel's cores kept in step with
// the host port's, and the conversion of the captured streams with the real
// converter (read back as a user sees it in Perfetto).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "FreeRTOS.h"
#include "convert_helper.hpp"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "tband.h"
#include "tband_port.h"
#include "timers.h"
#include "trace_capture.hpp"
#include "trace_checks.hpp"

extern "C" void standin_set_core_observer(void (*observer)(BaseType_t));

namespace tband::test {

inline void follow_core(BaseType_t core) { tband_host_set_core_id(static_cast<unsigned>(core)); }

class Scenario : public ::testing::Test {
 protected:
  /// Streaming starts at boot unless the scenario asks otherwise.
  void SetUp() override {
    standin_set_core_observer(&follow_core);
    standin_set_core(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    at(1);
    tband_gather_system_metadata();
    if (start_streaming_at_boot_) {
      ASSERT_EQ(tband_start_streaming(), 0);
    }
  }
  void TearDown() override { (void)tband_stop_streaming(); }

  /// The clock reads t (ns) from now on.
  static void at(std::uint64_t t) { tband_host_set_time(t); }

  /// vTaskStartScheduler(); on one core the timer task runs first (it has
  /// the highest priority) and waits for a command, as it does with no timer
  /// set. (SMP cores start on their idle tasks: the scenario goes on.)
  static void start_scheduler() {
    vTaskStartScheduler();
#if configNUMBER_OF_CORES == 1
    ASSERT_STREQ(standin_task_name(standin_running(0)), "Tmr Svc");
    standin_timer_task_wait();
#endif
  }

  /// start_scheduler(): every version marks the idle and timer tasks by
  /// itself (V10 at its first switch), so nothing more is needed.
  static void boot() { start_scheduler(); }

  /// An interrupt on the current core: tband's ISR hooks and the kernel's
  /// interrupt context around body.
  template <class Body>
  static void interrupt(std::uint32_t isr_id, Body&& body) {
    standin_isr_enter();
    tband_isr_enter(isr_id);
    body();
    tband_isr_exit(isr_id);
    standin_isr_exit();
  }

  static std::string running(BaseType_t core = 0) { return standin_task_name(standin_running(core)); }

  std::vector<DecodedEvent> events(unsigned core = 0) const { return capture_.decoded(core); }

  /// Converts what each core streamed, as `tband conv core0.bin@0 core1.bin@1 ...` would.
  Converted convert(const std::string& name, unsigned cores = 1) const { return convert_streams(streams(cores), name); }

  /// The statistics of what each core streamed, as `tband stats` gives them.
  Analysis analyze_trace(const std::string& name, unsigned cores = 1) const {
    return analyze_streams(streams(cores), name);
  }

  std::vector<std::vector<std::uint8_t>> streams(unsigned cores) const {
    std::vector<std::vector<std::uint8_t>> out;
    for (unsigned core = 0; core < cores; ++core) {
      out.push_back(capture_.bytes(core));
    }
    return out;
  }

  bool start_streaming_at_boot_ = true;
  TraceCapture capture_;
};

}  // namespace tband::test
