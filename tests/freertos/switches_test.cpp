// The FreeRTOS switches: module, task and queue tracing, and the tracer
// itself off. Built once per tband_configs/ folder (tasks_off, queues_off,
// module_off, disabled) against the V11 kernel: what the kernel sees of the
// hooks, and what a scenario using every kind of hook puts in the trace.
#include "FreeRTOSConfig.h"  // first: the macros tband.h gave the kernel, before FreeRTOS.h's empty ones

#if defined(traceTASK_CREATE)
constexpr bool kIdHooks = true;
#else
constexpr bool kIdHooks = false;
#endif
#if defined(traceTASK_SWITCHED_IN)
constexpr bool kTaskHooks = true;
#else
constexpr bool kTaskHooks = false;
#endif
#if defined(traceQUEUE_SEND)
constexpr bool kQueueHooks = true;
#else
constexpr bool kQueueHooks = false;
#endif

#include <gtest/gtest.h>

#include <algorithm>

#include "scenario.hpp"

namespace tband::test {
namespace {

constexpr bool kModule = tband_configENABLE == 1 && tband_configFREERTOS_TRACE_ENABLE == 1;
constexpr bool kTasks = kModule && tband_configFREERTOS_TASK_TRACE_ENABLE == 1;
constexpr bool kQueues = kModule && tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1;

int g_evaluated = 0;
[[maybe_unused]] std::uint32_t side_effect() { return static_cast<std::uint32_t>(++g_evaluated); }

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

using Switches = Scenario;

TEST_F(Switches, OnlyWhatIsSwitchedOnIsDefinedAndTraced) {
  EXPECT_EQ(kIdHooks, kModule);
  EXPECT_EQ(kTaskHooks, kTasks);
  EXPECT_EQ(kQueueHooks, kQueues);

  at(10);
  QueueHandle_t jobs = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(jobs, "jobs");
  TaskHandle_t worker = nullptr;
  ASSERT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 2, &worker), pdPASS);
  at(100);
  boot();
  at(110);
  tband_freertos_task_evtmarker_name(side_effect(), "step");
  tband_freertos_task_evtmarker_begin(side_effect(), "go");
  tband_freertos_task_evtmarker_end(side_effect());
  tband_freertos_task_evtmarker(side_effect(), "x");
  tband_freertos_task_valmarker_name(side_effect(), "level");
  tband_freertos_task_valmarker(side_effect(), side_effect());
  std::uint32_t item = 1;
  at(120);
  ASSERT_EQ(xQueueSend(jobs, &item, 0), pdPASS);
  at(130);
  ASSERT_EQ(xQueueReceive(jobs, &item, 0), pdPASS);
  at(140);
  ASSERT_EQ(xQueueReceive(jobs, &item, 5), errSTANDIN_BLOCKED);

  // Task-local markers exist with task tracing (and markers) only; switched
  // off they do not evaluate their arguments.
  EXPECT_EQ(g_evaluated, kTasks ? 7 : 0);
  // Without the module no hook ran in the kernel: the id fields are as the
  // kernel left them (the stand-in fills new objects with 0xA5).
  if (!kModule) {
    EXPECT_EQ(uxTaskGetTaskNumber(worker), static_cast<UBaseType_t>(0xA5A5A5A5A5A5A5A5ull));
    EXPECT_EQ(uxQueueGetQueueNumber(jobs), static_cast<UBaseType_t>(0xA5A5A5A5A5A5A5A5ull));
  } else {
    EXPECT_EQ(uxTaskGetTaskNumber(worker), 1u);
    EXPECT_EQ(uxQueueGetQueueNumber(jobs), 1u);
  }

  const std::vector<std::string> names = event_names(events());
  if (tband_configENABLE == 0) {
    EXPECT_TRUE(capture_.bytes(0).empty()) << "the tracer is compiled out";
    return;
  }
  for (const char* name : {"task_name", "task_is_idle_task", "task_is_timer_task", "queue_created", "queue_name"}) {
    EXPECT_EQ(has(names, name), kModule) << name;
  }
  for (const char* name : {"task_created", "task_priority_set", "task_switched_in", "task_to_rdy_state",
                           "curtask_block_on_queue_receive", "task_evtmarker_begin", "task_valmarker"}) {
    EXPECT_EQ(has(names, name), kTasks) << name;
  }
  for (const char* name : {"queue_kind", "queue_cur_length", "queue_send", "queue_receive"}) {
    EXPECT_EQ(has(names, name), kQueues) << name;
  }
  if (!kModule) {
    for (const std::string& name : names) {
      EXPECT_TRUE(name == "ts_resolution_ns" || name == "core_id" || name == "dropped_evt_cnt") << name;
    }
  }
}

}  // namespace
}  // namespace tband::test
