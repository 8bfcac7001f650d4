// FreeRTOS scenarios on one core: the stand-in kernel (V10, V11, V11 with
// the _EXT hooks; see kernel/FreeRTOS.h) calls tband's trace macros as the
// real kernel would; the streamed trace is decoded and converted with the
// real converter, and checked as a user sees it in Perfetto.
#include <gtest/gtest.h>

#include <algorithm>

#include "scenario.hpp"

namespace tband::test {
namespace {

using Scheduling = Scenario;

// sender (2) sends two jobs and sleeps; receiver (1) drains the queue and
// blocks on it; the idle task runs until the sender wakes, sends again (which
// readies the receiver) and sleeps; the receiver gets the job.
TEST_F(Scheduling, TasksSwitchBlockAndWake) {
  at(10);
  QueueHandle_t jobs = xQueueCreate(4, sizeof(std::uint32_t));
  vQueueAddToRegistry(jobs, "jobs");
  at(20);
  TaskHandle_t sender = nullptr;
  TaskHandle_t receiver = nullptr;
  ASSERT_EQ(xTaskCreate(nullptr, "sender", 128, nullptr, 2, &sender), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "receiver", 128, nullptr, 1, &receiver), pdPASS);
  at(100);
  start_scheduler();
  ASSERT_EQ(running(), "sender");
#if STANDIN_KERNEL_VERSION == 10
  tband_freertos_scheduler_started();  // V10 has no traceSTARTING_SCHEDULER
#endif
  std::uint32_t item = 1;
  at(120);
  ASSERT_EQ(xQueueSend(jobs, &item, 0), pdPASS);
  at(130);
  ASSERT_EQ(xQueueSend(jobs, &item, 0), pdPASS);
  at(140);
  vTaskDelay(5);
  ASSERT_EQ(running(), "receiver");
  at(150);
  ASSERT_EQ(xQueueReceive(jobs, &item, 10), pdPASS);
  at(160);
  ASSERT_EQ(xQueueReceive(jobs, &item, 10), pdPASS);
  at(170);
  ASSERT_EQ(xQueueReceive(jobs, &item, 100), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(), "IDLE");
  for (std::uint64_t t : {200, 210, 220, 230, 240}) {
    at(t);
    standin_tick();
  }
  ASSERT_EQ(running(), "sender");
  at(250);
  ASSERT_EQ(xQueueSend(jobs, &item, 0), pdPASS);
  ASSERT_EQ(running(), "sender");  // the receiver is ready, but of lower priority
  at(260);
  vTaskDelay(10);
  ASSERT_EQ(running(), "receiver");
  at(270);
  ASSERT_EQ(xQueueReceive(jobs, &item, 100), pdPASS);  // the blocked call's retry

  // The ids are small integers handed out in creation order, kept in the TCB.
  EXPECT_EQ(uxTaskGetTaskNumber(sender), 1u);
  EXPECT_EQ(uxTaskGetTaskNumber(receiver), 2u);
  EXPECT_EQ(uxTaskGetTaskNumber(xTaskGetIdleTaskHandle()), 3u);
  EXPECT_EQ(uxTaskGetTaskNumber(xTimerGetTimerDaemonTaskHandle()), 4u);
  EXPECT_EQ(uxQueueGetQueueNumber(jobs), 1u);

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "task_name"),
            (std::vector<std::string>{R"(task_name task_id=1 name="sender")", R"(task_name task_id=2 name="receiver")",
                                      R"(task_name task_id=3 name="IDLE")", R"(task_name task_id=4 name="Tmr Svc")"}));
  EXPECT_EQ(texts_of(trace, "task_is_idle_task"), (std::vector<std::string>{"task_is_idle_task task_id=3 core_id=0"}));
  EXPECT_EQ(texts_of(trace, "task_is_timer_task"), (std::vector<std::string>{"task_is_timer_task task_id=4"}));
  EXPECT_EQ(texts_of(trace, "task_switched_in"),
            (std::vector<std::string>{"task_switched_in ts=100 task_id=4", "task_switched_in ts=100 task_id=1",
                                      "task_switched_in ts=140 task_id=2", "task_switched_in ts=170 task_id=3",
                                      "task_switched_in ts=240 task_id=1", "task_switched_in ts=260 task_id=2"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_queue_receive"),
            (std::vector<std::string>{"curtask_block_on_queue_receive ts=100 queue_id=2 ticks_to_wait=4294967295",
                                      "curtask_block_on_queue_receive ts=170 queue_id=1 ticks_to_wait=100"}));

  const Converted c = convert("scheduling");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const std::vector<std::string> processes = c.view.process_names();
  for (const char* task : {"sender", "receiver", "IDLE", "Tmr Svc"}) {
    EXPECT_NE(std::count(processes.begin(), processes.end(), task), 0) << task;
  }
  EXPECT_EQ(slice_names(c.view.track("State", "sender")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 5 ticks", "Ready",
                                      "Running on core 0", "Blocked: delay 10 ticks"}));
  EXPECT_EQ(slice_names(c.view.track("State", "receiver")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from jobs", "Ready",
                                      "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "Tmr Svc")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from TmrQ"}));
  const ViewTrack& sender_running = c.view.track("Running", "sender");
  ASSERT_EQ(sender_running.slices.size(), 2u);
  EXPECT_EQ(sender_running.slices[0].begin_ns, 100u);
  EXPECT_EQ(sender_running.slices[0].end_ns, 140u);
  EXPECT_EQ(sender_running.slices[1].begin_ns, 240u);
  EXPECT_EQ(sender_running.slices[1].end_ns, 260u);
  EXPECT_EQ(counter_values(c.view.track("Priority", "sender")), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "IDLE")), (std::vector<std::int64_t>{0}));
  // Per core, which task runs, the idle task included.
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "sender", "receiver", "IDLE (idle)", "sender", "receiver"}));
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0, 1, 0}));
}

}  // namespace
}  // namespace tband::test
