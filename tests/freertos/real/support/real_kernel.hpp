// What the real-kernel scenarios share: the real FreeRTOS kernel on its
// POSIX port (tasks as threads, the tick a signal), tband streaming into a
// capture from boot (ports/freertos_posix), the scheduler run until a task
// ends the scenario, then the captured stream decoded and converted with the
// real converter, as on the stand-in (../support/scenario.hpp).
//
// Tasks run real threads at real speed and ticks come when they come: a
// scenario orders its tasks by priority and blocking, never by timing, and
// its checks are on outcomes (states, fills, holders), not on timestamps.
// Inside a task nothing may allocate (a tick may switch threads anywhere):
// use TASK_CHECK, which records the failed condition for the test to report.
#pragma once

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "tband.h"
#include "tband_port.h"
#include "timers.h"
#include "trace_checks.hpp"

namespace tband::test {

#define REAL_KERNEL_STRINGIZE2(x) #x
#define REAL_KERNEL_STRINGIZE(x) REAL_KERNEL_STRINGIZE2(x)
/// A check inside a task: records the condition when it fails (no allocation).
#define TASK_CHECK(condition)                                                                         \
  do {                                                                                                \
    if (!(condition)) {                                                                               \
      ::tband::test::RealKernel::task_check_failed(__FILE__ ":" REAL_KERNEL_STRINGIZE(__LINE__) ": " #condition); \
    }                                                                                                 \
  } while (0)

class RealKernel : public ::testing::Test {
 protected:
  static constexpr UBaseType_t kStackWords = configMINIMAL_STACK_SIZE;
  static constexpr bool kV10 = tskKERNEL_VERSION_MAJOR == 10;

  void SetUp() override {
    tband_posix_set_sink(&capture, nullptr);
    tband_gather_system_metadata();
    ASSERT_EQ(tband_start_streaming(), 0);
  }

  /// Starts the scheduler on a thread of its own and returns once a task
  /// called finish(); then checks the tasks' own checks and that nothing was
  /// lost. The kernel stays frozen until the process ends: ending the
  /// scheduler is not reliable on the POSIX port (V10.6 can lose the signal
  /// that wakes the scheduler's thread, V11.1's vTaskEndScheduler() can
  /// deadlock deleting the idle task).
  void run_kernel() {
    // This thread takes no signal (the tick) from now on, nor does the
    // scheduler's thread, which inherits the mask.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    std::thread([] { vTaskStartScheduler(); }).detach();
    finished_.wait(false);
    for (std::size_t i = 0; i < failure_count_.load() && i < failures_.size(); ++i) {
      ADD_FAILURE() << failures_[i];
    }
    ASSERT_FALSE(overflow_.load()) << "the capture buffer is too small";
    EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
  }

  /// From the task that ends the scenario: streaming stops and the kernel
  /// freezes (no task runs again), so the test can read the capture.
  [[noreturn]] static void finish() {
    (void)tband_stop_streaming();
    vTaskSuspendAll();
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    finished_.store(true);
    finished_.notify_all();
    for (;;) {
      pause();
    }
  }

  static TaskHandle_t spawn(const char* name, UBaseType_t priority, TaskFunction_t body, void* argument = nullptr) {
    TaskHandle_t handle = nullptr;
    if (xTaskCreate(body, name, kStackWords, argument, priority, &handle) != pdPASS) {
      ADD_FAILURE() << "xTaskCreate(" << name << ") failed";
    }
    return handle;
  }

  /// A task that has nothing left to do ends itself.
  [[noreturn]] static void end_task() {
    vTaskDelete(nullptr);
    for (;;) {
    }
  }

  /// An interrupt, as a task on the POSIX port can have one: tband's ISR
  /// hooks around body, which calls the kernel's FromISR API with the tick
  /// held off (that port's FromISR mask masks nothing); body returns whether
  /// a task of higher priority was woken, and the switch comes at the end.
  template <class Body>
  static void interrupt(std::uint32_t isr_id, Body&& body) {
    tband_isr_enter(isr_id);
    taskENTER_CRITICAL();
    const BaseType_t woken = body();
    taskEXIT_CRITICAL();
    tband_isr_exit(isr_id);
    portYIELD_FROM_ISR(woken);
  }

  std::vector<std::uint8_t> stream() const { return {buffer_.begin(), buffer_.begin() + size_.load()}; }
  std::vector<DecodedEvent> events() const { return decode_stream(stream()); }
  Converted convert(const std::string& name) const { return convert_streams({stream()}, name + suffix()); }
  Analysis analyze_trace(const std::string& name) const { return analyze_streams({stream()}, name + suffix()); }

 public:
  static void task_check_failed(const char* what) {
    const std::size_t i = failure_count_.fetch_add(1);
    if (i < failures_.size()) {
      failures_[i] = what;
    }
  }

 private:
  static std::string suffix() { return std::string(".v") + tskKERNEL_VERSION_NUMBER; }

  // The sink: runs in the tracer's critical section, also from the tick's
  // signal handler, so it copies into a buffer fixed in size.
  static bool capture(void*, const std::uint8_t* buf, std::size_t len, bool) {
    const std::size_t at = size_.load(std::memory_order_relaxed);
    if (at + len > buffer_.size()) {
      overflow_.store(true);
      return true;
    }
    std::copy(buf, buf + len, buffer_.begin() + static_cast<std::ptrdiff_t>(at));
    size_.store(at + len, std::memory_order_relaxed);
    return false;
  }

  static inline std::array<std::uint8_t, 1 << 20> buffer_{};
  static inline std::atomic<std::size_t> size_{0};
  static inline std::atomic<bool> overflow_{false};
  static inline std::atomic<bool> finished_{false};
  static inline std::array<const char*, 16> failures_{};
  static inline std::atomic<std::size_t> failure_count_{0};
};

}  // namespace tband::test
