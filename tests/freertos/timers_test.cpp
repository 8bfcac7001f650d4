// FreeRTOS software timers, on one core: the stand-in kernel (V10, V11, V11
// built for size) calls tband's trace macros where the real kernel does; the
// streamed trace is decoded, converted, and the .pftrace read back as
// Perfetto shows it.
#include <gtest/gtest.h>

#include "scenario.hpp"

namespace tband::test {
namespace {

int g_callbacks = 0;
void count_callback(TimerHandle_t) { ++g_callbacks; }

struct Timers : Scenario {
  // At 10 a timer, at 20 the task "worker" (priority 2), at 100 the
  // scheduler's start: the worker runs.
  static TimerHandle_t boot_with_timer(const char* name, TickType_t period, BaseType_t auto_reload) {
    at(10);
    TimerHandle_t timer = xTimerCreate(name, period, auto_reload, nullptr, &count_callback);
    EXPECT_NE(timer, nullptr);
    at(20);
    EXPECT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 2, nullptr), pdPASS);
    at(100);
    boot();
    EXPECT_EQ(running(), "worker");
    return timer;
  }
};

// worker (2) starts the auto-reload timer "blink" (5 ticks), which expires
// once, changes its period, and an interrupt stops it; then the one-shot
// "timeout" (3 ticks) runs out; last, both are deleted. The timer task (4)
// runs after each command and expiry.
TEST_F(Timers, CommandsAndExpiries) {
  g_callbacks = 0;
  tband_isr_name(1, "button");
  at(10);
  TimerHandle_t blink = xTimerCreate("blink", 5, pdTRUE, nullptr, &count_callback);
  TimerHandle_t timeout = xTimerCreate("timeout", 3, pdFALSE, nullptr, &count_callback);
  ASSERT_NE(blink, nullptr);
  ASSERT_NE(timeout, nullptr);
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "worker");
  // The timer task runs once a command is queued, and after the ticks due.
  const auto timer_task_runs = [](std::uint64_t t) {
    ASSERT_EQ(running(), "Tmr Svc");
    at(t);
    standin_timer_task_run();
    ASSERT_EQ(running(), "worker");
  };
  at(110);
  ASSERT_EQ(xTimerStart(blink, 0), pdPASS);  // at tick 0: expires at tick 5
  timer_task_runs(115);
  for (std::uint64_t t : {120, 130, 140, 150, 160}) {
    at(t);
    standin_tick();
  }
  timer_task_runs(170);
  EXPECT_EQ(g_callbacks, 1);
  at(180);
  ASSERT_EQ(xTimerChangePeriod(blink, 10, 0), pdPASS);
  timer_task_runs(185);
  at(190);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xTimerStopFromISR(blink, &woken), pdPASS);
    portYIELD_FROM_ISR(woken);
  });
  timer_task_runs(195);
  at(200);
  ASSERT_EQ(xTimerStart(timeout, 0), pdPASS);  // at tick 5: expires at tick 8
  timer_task_runs(205);
  for (std::uint64_t t : {210, 220, 230}) {
    at(t);
    standin_tick();
  }
  timer_task_runs(240);
  EXPECT_EQ(g_callbacks, 2);
  EXPECT_EQ(uxTimerGetTimerNumber(blink), 1u);
  EXPECT_EQ(uxTimerGetTimerNumber(timeout), 2u);
  at(250);
  ASSERT_EQ(xTimerDelete(blink, 0), pdPASS);
  timer_task_runs(255);
  at(260);
  ASSERT_EQ(xTimerDelete(timeout, 0), pdPASS);  // the stand-in frees timers; LeakSanitizer checks it
  timer_task_runs(265);

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "timer_created"),
            (std::vector<std::string>{"timer_created ts=10 timer_id=1 period=5 auto_reload=true",
                                      "timer_created ts=10 timer_id=2 period=3 auto_reload=false"}));
  EXPECT_EQ(texts_of(trace, "timer_name"), (std::vector<std::string>{R"(timer_name timer_id=1 name="blink")",
                                                                     R"(timer_name timer_id=2 name="timeout")"}));
  EXPECT_EQ(texts_of(trace, "timer_command_send"),
            (std::vector<std::string>{
                "timer_command_send ts=110 timer_id=1 command=FRTC_START value=0 sent=true",
                "timer_command_send ts=180 timer_id=1 command=FRTC_CHANGE_PERIOD value=10 sent=true",
                "timer_command_send ts=190 timer_id=1 command=FRTC_STOP_FROM_ISR value=0 sent=true",
                // A delete that went in is not traced where it is sent (the timer may be gone by then).
                "timer_command_send ts=200 timer_id=2 command=FRTC_START value=5 sent=true"}));
  EXPECT_EQ(texts_of(trace, "timer_command_received"),
            (std::vector<std::string>{
                "timer_command_received ts=115 timer_id=1 command=FRTC_START value=0",
                "timer_command_received ts=185 timer_id=1 command=FRTC_CHANGE_PERIOD value=10",
                "timer_command_received ts=195 timer_id=1 command=FRTC_STOP_FROM_ISR value=0",
                "timer_command_received ts=205 timer_id=2 command=FRTC_START value=5",
                "timer_command_received ts=255 timer_id=1 command=FRTC_DELETE value=0",
                "timer_command_received ts=265 timer_id=2 command=FRTC_DELETE value=0"}));
  EXPECT_EQ(texts_of(trace, "timer_expired"), (std::vector<std::string>{"timer_expired ts=170 timer_id=1",
                                                                        "timer_expired ts=240 timer_id=2"}));

  const Converted c = convert("timers");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& blink_track = c.view.track("blink (timer)", "");
  EXPECT_EQ(slice_names(blink_track),
            (std::vector<std::string>{"Active, period 5 ticks", "Active, period 10 ticks"}));
  EXPECT_EQ(instant_names(blink_track),
            (std::vector<std::string>{"start requested", "expired", "change period to 10 ticks requested",
                                      "stop requested", "deleted"}));
  const ViewTrack& timeout_track = c.view.track("timeout (timer)", "");
  EXPECT_EQ(slice_names(timeout_track), (std::vector<std::string>{"Active, period 3 ticks"}));
  EXPECT_EQ(instant_names(timeout_track),
            (std::vector<std::string>{"start requested", "expired", "deleted"}));
}

// An interrupt sends more commands than the timer queue holds
// (configTIMER_QUEUE_LENGTH 4): the fifth does not go in, and says so; the
// timer task then carries out the four that did.
TEST_F(Timers, CommandIntoFullTimerQueue) {
  g_callbacks = 0;
  tband_isr_name(1, "button");
  TimerHandle_t poll = boot_with_timer("poll", 5, pdTRUE);
  ASSERT_NE(poll, nullptr);
  at(110);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    for (int i = 0; i < configTIMER_QUEUE_LENGTH; ++i) {
      EXPECT_EQ(xTimerResetFromISR(poll, &woken), pdPASS);
    }
    EXPECT_EQ(xTimerStopFromISR(poll, &woken), pdFAIL);  // the queue is full
    portYIELD_FROM_ISR(woken);
  });
  ASSERT_EQ(running(), "Tmr Svc");
  at(115);
  standin_timer_task_run();
  ASSERT_EQ(running(), "worker");
  at(120);
  ASSERT_EQ(xTimerDelete(poll, 0), pdPASS);
  ASSERT_EQ(running(), "Tmr Svc");
  at(125);
  standin_timer_task_run();  // frees the timer (LeakSanitizer checks it)

  const std::vector<DecodedEvent> trace = events();
  const std::string reset = "timer_command_send ts=110 timer_id=1 command=FRTC_RESET_FROM_ISR value=0 sent=true";
  EXPECT_EQ(texts_of(trace, "timer_command_send"),
            (std::vector<std::string>{reset, reset, reset, reset,
                                      "timer_command_send ts=110 timer_id=1 command=FRTC_STOP_FROM_ISR value=0 sent=false"}));
  EXPECT_EQ(texts_of(trace, "timer_command_received").size(), 5u);  // the four resets and the delete

  const Converted c = convert("timer_queue_full");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(instant_names(c.view.track("poll (timer)", "")),
            (std::vector<std::string>{"reset requested", "reset requested", "reset requested", "reset requested",
                                      "stop requested (timer queue full)", "deleted"}));
  EXPECT_EQ(counter_values(c.view.track("TmrQ fill", "")), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 0}));
  EXPECT_EQ(g_callbacks, 0);
}

// The real kernel's timer task usually has the higher priority: it preempts a
// task that sends a delete and frees the timer before the kernel's trace
// macro runs, which must not read the timer then (under ASan, reading it
// fails this test). The delete shows where the timer task carries it out.
TEST_F(Timers, DeleteCarriedOutBeforeTheSenderTracesIt) {
  TimerHandle_t once = boot_with_timer("once", 4, pdFALSE);
  ASSERT_NE(once, nullptr);
  standin_timer_task_preempts = pdTRUE;
  at(110);
  ASSERT_EQ(xTimerStart(once, 0), pdPASS);  // carried out at once
  standin_timer_task_wait();
  at(120);
  ASSERT_EQ(xTimerDelete(once, 0), pdPASS);  // carried out, and the timer freed, at once
  standin_timer_task_preempts = pdFALSE;
  standin_timer_task_wait();

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "timer_command_send"),
            (std::vector<std::string>{"timer_command_send ts=110 timer_id=1 command=FRTC_START value=0 sent=true"}));
  EXPECT_EQ(texts_of(trace, "timer_command_received"),
            (std::vector<std::string>{"timer_command_received ts=110 timer_id=1 command=FRTC_START value=0",
                                      "timer_command_received ts=120 timer_id=1 command=FRTC_DELETE value=0"}));
  const Converted c = convert("timer_deleted_at_once");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& track = c.view.track("once (timer)", "");
  EXPECT_EQ(slice_names(track), (std::vector<std::string>{"Active, period 4 ticks"}));
  EXPECT_EQ(instant_names(track), (std::vector<std::string>{"start requested", "deleted"}));
}

}  // namespace
}  // namespace tband::test
