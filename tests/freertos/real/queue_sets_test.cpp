// The stand-in's queue set scenario (../queue_sets_test.cpp) on the real
// kernel, checked the same way: the events (without their timestamps), the
// set's fill counter and instants, the members' membership slices and the
// waiting task's state, read back from the .pftrace. V11 traces adding,
// removing and selecting; V10 only the sends into the set.
#include <gtest/gtest.h>

#include "queue_set_checks.hpp"
#include "real_kernel.hpp"
// After FreeRTOS.h (real_kernel.hpp), as in any FreeRTOS application.
#include "queue.h"
#include "semphr.h"

namespace tband::test {
namespace {

constexpr TickType_t kTimeout = 100;

using QueueSets = RealKernel;

struct Sets {
  QueueHandle_t commands;
  SemaphoreHandle_t wakeup;
  QueueSetHandle_t inputs;
} g_sets;

// server (3) waits on the set "inputs" holding the queue "commands" and the
// binary semaphore "wakeup"; driver (2) runs while it waits and has an
// interrupt give "wakeup". server then sends itself a command, finds the set
// empty, removes "commands", and has an interrupt give "wakeup" again and
// select from the set itself.
TEST_F(QueueSets, MembersAndSelections) {
  Sets& s = g_sets;
  s.commands = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(s.commands, "commands");
  s.wakeup = xSemaphoreCreateBinary();
  vQueueAddToRegistry(s.wakeup, "wakeup");
  s.inputs = xQueueCreateSet(3);
  vQueueAddToRegistry(s.inputs, "inputs");
  ASSERT_EQ(xQueueAddToSet(s.commands, s.inputs), pdPASS);
  ASSERT_EQ(xQueueAddToSet(s.wakeup, s.inputs), pdPASS);
  ASSERT_EQ(xQueueAddToSet(s.commands, s.inputs), pdFAIL);  // in a set already: not traced
  tband_isr_name(1, "uart");
  spawn("server", 3, [](void*) {
    Sets& v = g_sets;
    TASK_CHECK(xQueueSelectFromSet(v.inputs, kTimeout) == v.wakeup);  // given by the driver's interrupt
    TASK_CHECK(xSemaphoreTake(v.wakeup, 0) == pdPASS);
    std::uint32_t item = 5;
    TASK_CHECK(xQueueSend(v.commands, &item, 0) == pdPASS);
    TASK_CHECK(xQueueSelectFromSet(v.inputs, 0) == v.commands);
    TASK_CHECK(xQueueReceive(v.commands, &item, 0) == pdPASS);
    TASK_CHECK(xQueueSelectFromSet(v.inputs, 0) == nullptr);  // empty, no wait
    TASK_CHECK(xQueueRemoveFromSet(v.commands, v.inputs) == pdPASS);
    interrupt(1, [&] {
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xQueueSendFromISR(v.commands, &item, &woken) == pdPASS);  // not in the set any more
      TASK_CHECK(xSemaphoreGiveFromISR(v.wakeup, &woken) == pdPASS);
      TASK_CHECK(xQueueSelectFromSetFromISR(v.inputs) == v.wakeup);
      return woken;
    });
    finish();
  });
  spawn("driver", 2, [](void*) {
    interrupt(1, [] {  // the server waits on the set
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xSemaphoreGiveFromISR(g_sets.wakeup, &woken) == pdPASS);
      TASK_CHECK(woken == pdTRUE);
      return woken;
    });
    end_task();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  // commands 1, wakeup 2, inputs 3.
  EXPECT_EQ(texts_without_ts(trace, "queue_set_send"),
            (std::vector<std::string>{"queue_set_send set_id=3 member_id=2 len_after=1",
                                      "queue_set_send set_id=3 member_id=1 len_after=1",
                                      "queue_set_send set_id=3 member_id=2 len_after=1"}));
  if (!kV10) {
    EXPECT_EQ(texts_without_ts(trace, "queue_set_add"),
              (std::vector<std::string>{"queue_set_add set_id=3 member_id=1", "queue_set_add set_id=3 member_id=2"}));
    EXPECT_EQ(texts_without_ts(trace, "queue_set_remove"),
              (std::vector<std::string>{"queue_set_remove set_id=3 member_id=1"}));
    EXPECT_EQ(texts_without_ts(trace, "queue_set_select"),
              (std::vector<std::string>{"queue_set_select set_id=3 member_id=2", "queue_set_select set_id=3 member_id=1",
                                        "queue_set_select set_id=3 member_id=0"}));
    EXPECT_EQ(texts_without_ts(trace, "queue_set_select_from_isr"),
              (std::vector<std::string>{"queue_set_select_from_isr set_id=3 member_id=2"}));
  } else {
    for (const char* name : {"queue_set_add", "queue_set_remove", "queue_set_select", "queue_set_select_from_isr"}) {
      EXPECT_TRUE(texts_without_ts(trace, name).empty()) << name << ": V10 has no hook there";
    }
  }

  expect_queue_set_scenario_view(convert("queue_sets"), kV10);
}

}  // namespace
}  // namespace tband::test
