// The stand-in's software timer scenario (../timers_test.cpp) on the real
// kernel, checked the same way as far as real speed allows: the commands and
// expiries, and the timer tracks Perfetto shows. The auto-reload timer's
// period is far longer than the scenario, so it never expires; the one-shot
// timer's expiry wakes the task that waits for it.
#include <gtest/gtest.h>

#include "real_kernel.hpp"
// After FreeRTOS.h (real_kernel.hpp), as in any FreeRTOS application.
#include "timers.h"

namespace tband::test {
namespace {

constexpr TickType_t kTimeout = 100;

using Timers = RealKernel;

TimerHandle_t g_blink = nullptr;
TimerHandle_t g_timeout = nullptr;
TaskHandle_t g_worker = nullptr;

// The command of each event of that name, in order (its value is a tick).
std::vector<std::string> commands(const std::vector<DecodedEvent>& trace, const std::string& name) {
  std::vector<std::string> out;
  for (const std::string& text : texts_without_ts(trace, name)) {
    const std::size_t at = text.find("command=");
    out.push_back(text.substr(at, text.find(' ', at) - at));
  }
  return out;
}

// worker (2) starts "blink" (auto-reload, 1000 ticks), changes its period to
// 500 and stops it; it starts the one-shot "timeout" (3 ticks) and waits for
// its callback's notification; last, it deletes both. The timer task (4)
// carries out each command at once.
TEST_F(Timers, CommandsAndExpiries) {
  g_blink = xTimerCreate("blink", 1000, pdTRUE, nullptr, [](TimerHandle_t) {});
  g_timeout = xTimerCreate("timeout", 3, pdFALSE, nullptr, [](TimerHandle_t) { (void)xTaskNotifyGive(g_worker); });
  ASSERT_NE(g_blink, nullptr);
  ASSERT_NE(g_timeout, nullptr);
  g_worker = spawn("worker", 2, [](void*) {
    TASK_CHECK(xTimerStart(g_blink, kTimeout) == pdPASS);
    TASK_CHECK(xTimerChangePeriod(g_blink, 500, kTimeout) == pdPASS);
    TASK_CHECK(xTimerStop(g_blink, kTimeout) == pdPASS);
    TASK_CHECK(xTimerStart(g_timeout, kTimeout) == pdPASS);
    TASK_CHECK(ulTaskNotifyTake(pdTRUE, kTimeout) == 1u);  // the one-shot timer's callback
    TASK_CHECK(xTimerDelete(g_blink, kTimeout) == pdPASS);
    TASK_CHECK(xTimerDelete(g_timeout, kTimeout) == pdPASS);
    vTaskDelay(1);  // the timer task deletes them
    finish();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_without_ts(trace, "timer_created"),
            (std::vector<std::string>{"timer_created timer_id=1 period=1000 auto_reload=true",
                                      "timer_created timer_id=2 period=3 auto_reload=false"}));
  const std::vector<std::string> sent{"command=FRTC_START", "command=FRTC_CHANGE_PERIOD", "command=FRTC_STOP",
                                      "command=FRTC_START"};
  // The deletes that went in are not traced where they were sent: the timer
  // task (the higher priority) has freed the timer when the macro runs.
  EXPECT_EQ(commands(trace, "timer_command_send"), sent);
  std::vector<std::string> received = sent;
  received.insert(received.end(), {"command=FRTC_DELETE", "command=FRTC_DELETE"});
  EXPECT_EQ(commands(trace, "timer_command_received"), received);
  EXPECT_EQ(texts_without_ts(trace, "timer_expired"), (std::vector<std::string>{"timer_expired timer_id=2"}));

  const Converted c = convert("timers");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& blink = c.view.track("blink (timer)", "");
  EXPECT_EQ(slice_names(blink), (std::vector<std::string>{"Active, period 1000 ticks", "Active, period 500 ticks"}));
  EXPECT_EQ(instant_names(blink), (std::vector<std::string>{"start requested", "change period to 500 ticks requested",
                                                            "stop requested", "deleted"}));
  const ViewTrack& timeout = c.view.track("timeout (timer)", "");
  EXPECT_EQ(slice_names(timeout), (std::vector<std::string>{"Active, period 3 ticks"}));
  EXPECT_EQ(instant_names(timeout), (std::vector<std::string>{"start requested", "expired", "deleted"}));
}

}  // namespace
}  // namespace tband::test
