// FreeRTOS V11 SMP on two cores: each core streams its own trace (as a
// channel per core would), and the two are converted together, as
// `tband conv core0.bin@0 core1.bin@1` does.
#include <gtest/gtest.h>

#include "scenario.hpp"

namespace tband::test {
namespace {

static_assert(configNUMBER_OF_CORES == 2 && tband_portNUMBER_OF_CORES == 2);

using Smp = Scenario;

// a and b (2) and c (1) on two cores; a sleeps on core 1, c takes core 1, b
// blocks on core 0 and the idle task takes over (at the next tick the other
// idle task, time slicing); a wakes and, the lowest priority running being
// core 0's idle task, a runs on core 0.
TEST_F(Smp, TasksRunOnBothCoresAndMigrate) {
  at(10);
  QueueHandle_t jobs = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(jobs, "jobs");
  ASSERT_EQ(xTaskCreate(nullptr, "a", 128, nullptr, 2, nullptr), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "b", 128, nullptr, 2, nullptr), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "c", 128, nullptr, 1, nullptr), pdPASS);
  at(100);
  start_scheduler();
  ASSERT_EQ(running(0), "IDLE0");
  at(110);
  standin_start_core(1);  // core 1's first switch: the timer task, the highest priority
  ASSERT_EQ(running(1), "Tmr Svc");
  at(120);
  standin_timer_task_wait();
  ASSERT_EQ(running(1), "a");
  at(130);
  standin_set_core(0);
  taskYIELD();
  ASSERT_EQ(running(0), "b");
  at(140);
  standin_set_core(1);
  vTaskDelay(2);
  ASSERT_EQ(running(1), "c");
  at(150);
  standin_set_core(0);
  std::uint32_t item = 3;
  ASSERT_EQ(xQueueReceive(jobs, &item, 10), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(0), "IDLE0");
  at(200);
  standin_tick();
  at(210);
  standin_tick();
  ASSERT_EQ(running(0), "a");
  ASSERT_EQ(running(1), "c");

  const std::vector<DecodedEvent> core0 = events(0);
  const std::vector<DecodedEvent> core1 = events(1);
  EXPECT_EQ(texts_of(core0, "task_is_idle_task"),
            (std::vector<std::string>{"task_is_idle_task task_id=4 core_id=0", "task_is_idle_task task_id=5 core_id=1"}));
  EXPECT_EQ(texts_of(core0, "task_switched_in"),
            (std::vector<std::string>{"task_switched_in ts=100 task_id=4", "task_switched_in ts=130 task_id=2",
                                      "task_switched_in ts=150 task_id=4", "task_switched_in ts=200 task_id=5",
                                      "task_switched_in ts=210 task_id=1"}));
  EXPECT_EQ(texts_of(core1, "task_switched_in"),
            (std::vector<std::string>{"task_switched_in ts=110 task_id=6", "task_switched_in ts=120 task_id=1",
                                      "task_switched_in ts=140 task_id=3"}));

  const Converted c = convert("smp", 2);
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"IDLE0", "b", "IDLE0", "IDLE1", "a"}));  // idle tasks take turns
  EXPECT_TRUE(c.view.has_track("Running", "IDLE0 (idle task, core 0)"));
  EXPECT_TRUE(c.view.has_track("Running", "IDLE1 (idle task, core 1)"));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 1")), (std::vector<std::string>{"Tmr Svc", "a", "c"}));
  EXPECT_EQ(slice_names(c.view.track("State", "a")),
            (std::vector<std::string>{"Ready", "Running on core 1", "Blocked: delay 2 ticks", "Ready",
                                      "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "b")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from jobs"}));
  const ViewTrack& a_running = c.view.track("Running", "a");
  ASSERT_EQ(a_running.slices.size(), 2u);
  EXPECT_EQ(a_running.slices[0].begin_ns, 120u);
  EXPECT_EQ(a_running.slices[0].end_ns, 140u);
  EXPECT_EQ(a_running.slices[1].begin_ns, 210u);

  // Each core's time adds up over its tasks; a ran on both cores.
  const TraceStats stats = analyze_trace("smp", 2).stats;
  expect_cpu_shares_add_up(stats, 2);
  EXPECT_EQ(stats.end_ns, 210u);
  EXPECT_DOUBLE_EQ(figure(stats, "task.a.core1.cpu"), 100.0 * 20 / 100);  // 120-140 of core 1's 110-210
  EXPECT_EQ(figure(stats, "task.a.core0.cpu"), 0.0);                       // from 210, the end
  EXPECT_DOUBLE_EQ(figure(stats, "task.b.core0.cpu"), 100.0 * 20 / 110);  // 130-150 of core 0's 100-210
  EXPECT_DOUBLE_EQ(figure(stats, "task.a.cpu"), 100.0 * 20 / 210);        // of both cores' 110 + 100 ns
  EXPECT_DOUBLE_EQ(figure(stats, "core.1.load"), 100.0);                   // never idle
}

}  // namespace
}  // namespace tband::test
