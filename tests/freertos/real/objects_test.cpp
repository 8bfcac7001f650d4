// The stand-in's task-notification and event-group scenarios
// (../objects_test.cpp) on the real kernel, checked the same way: the events
// (without their timestamps), the task states, and the counters Perfetto
// shows. The order of things comes from priorities and blocking only.
#include <gtest/gtest.h>

#include "real_kernel.hpp"
// After FreeRTOS.h (real_kernel.hpp), as in any FreeRTOS application.
#include "event_groups.h"

namespace tband::test {
namespace {

constexpr TickType_t kTimeout = 100;

using Objects = RealKernel;

TaskHandle_t g_waiter = nullptr;
TaskHandle_t g_notifier = nullptr;

// waiter (3) takes a notification count and blocks; notifier (2) gives, which
// wakes it; waiter then waits for bits, which an interrupt sets; last, the
// waiter notifies the notifier on index 1 and ends; the notifier takes it.
TEST_F(Objects, TaskNotificationsBlockWakeAndCount) {
  tband_isr_name(1, "uart");
  g_waiter = spawn("waiter", 3, [](void*) {
    TASK_CHECK(ulTaskNotifyTake(pdTRUE, kTimeout) == 1u);  // blocks until the give
    std::uint32_t value = 0;
    TASK_CHECK(xTaskNotifyWait(0, 0xFFFFFFFFu, &value, kTimeout) == pdTRUE);  // blocks until the interrupt
    TASK_CHECK(value == 0x05u);
    TASK_CHECK(xTaskNotifyIndexed(g_notifier, 1, 7, eSetValueWithOverwrite) == pdPASS);
    end_task();
  });
  g_notifier = spawn("notifier", 2, [](void*) {
    TASK_CHECK(xTaskNotifyGive(g_waiter) == pdPASS);  // the waiter runs at once
    interrupt(1, [] {
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xTaskNotifyFromISR(g_waiter, 0x05, eSetBits, &woken) == pdPASS);
      return woken;
    });
    TASK_CHECK(ulTaskNotifyTakeIndexed(1, pdFALSE, 0) == 7u);
    finish();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_without_ts(trace, "task_notify"),
            (std::vector<std::string>{"task_notify task_id=1 index=0 action=FRNA_INCREMENT value=1",
                                      "task_notify task_id=2 index=1 action=FRNA_SET_VALUE_WITH_OVERWRITE value=7"}));
  EXPECT_EQ(texts_without_ts(trace, "task_notify_from_isr"),
            (std::vector<std::string>{"task_notify_from_isr task_id=1 index=0 action=FRNA_SET_BITS value=5"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_notify_take"),
            (std::vector<std::string>{"curtask_block_on_notify_take index=0 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_notify_wait"),
            (std::vector<std::string>{"curtask_block_on_notify_wait index=0 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_notify_take"),
            (std::vector<std::string>{"curtask_notify_take index=0 value=1 value_after=0",
                                      "curtask_notify_take index=1 value=7 value_after=6"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_notify_wait"),
            (std::vector<std::string>{"curtask_notify_wait index=0 received=true value=5 value_after=0"}));

  const Converted c = convert("notifications");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: take notification", "Ready",
                                      "Running on core 0", "Blocked: wait for notification", "Ready",
                                      "Running on core 0", "Deleted"}));
  EXPECT_EQ(counter_values(c.view.track("Notification value", "waiter")), (std::vector<std::int64_t>{1, 0, 5, 0}));
  EXPECT_EQ(counter_values(c.view.track("Notification value [1]", "notifier")), (std::vector<std::int64_t>{7, 6}));
}

EventGroupHandle_t g_flags = nullptr;

// waiter (3) waits for bits 0x05 (all, cleared on exit); setter (2) sets 0x01,
// then an interrupt asks for 0x04, which the timer task (4) sets, waking the
// waiter. Then both meet at a sync point (bits 0x30).
TEST_F(Objects, EventGroupsWaitSetAndSync) {
  tband_isr_name(2, "gpio");
  g_flags = xEventGroupCreate();
  ASSERT_NE(g_flags, nullptr);
  tband_freertos_event_group_name(g_flags, "flags");
  spawn("waiter", 3, [](void*) {
    TASK_CHECK(xEventGroupWaitBits(g_flags, 0x05, pdTRUE, pdTRUE, kTimeout) == 0x05u);
    TASK_CHECK(xEventGroupSync(g_flags, 0x10, 0x30, kTimeout) == 0x30u);
    finish();
  });
  spawn("setter", 2, [](void*) {
    TASK_CHECK(xEventGroupSetBits(g_flags, 0x01) == 0x01u);
    interrupt(2, [] {
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xEventGroupSetBitsFromISR(g_flags, 0x04, &woken) == pdPASS);
      return woken;  // the timer task, of higher priority, sets the bits
    });
    (void)xEventGroupSync(g_flags, 0x20, 0x30, kTimeout);  // wakes the waiter, which ends the scenario
    end_task();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_without_ts(trace, "event_group_created"), (std::vector<std::string>{"event_group_created group_id=1"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_event_group_wait"),
            (std::vector<std::string>{"curtask_block_on_event_group_wait group_id=1 bits=5 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "event_group_set_bits_from_isr"),
            (std::vector<std::string>{"event_group_set_bits_from_isr group_id=1 bits=4"}));
  EXPECT_EQ(texts_without_ts(trace, "event_group_set_bits"),
            (std::vector<std::string>{"event_group_set_bits group_id=1 bits=1 value=1",
                                      "event_group_set_bits group_id=1 bits=4 value=5",
                                      "event_group_set_bits group_id=1 bits=16 value=16",
                                      "event_group_set_bits group_id=1 bits=32 value=48"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_event_group_sync"),
            (std::vector<std::string>{"curtask_block_on_event_group_sync group_id=1 bits=48 ticks_to_wait=100"}));
  const std::vector<std::string> ends = texts_without_ts(trace, "curtask_event_group_wait_end");
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(ends[0], "curtask_event_group_wait_end group_id=1 value=5 timed_out=false");
  EXPECT_EQ(ends[1], "curtask_event_group_wait_end group_id=1 value=48 timed_out=false");

  const Converted c = convert("event_groups");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: wait bits 0x05 on flags", "Ready",
                                      "Running on core 0", "Blocked: sync bits 0x30 on flags", "Ready",
                                      "Running on core 0"}));
  EXPECT_EQ(counter_values(c.view.track("flags bits", "")), (std::vector<std::int64_t>{0, 1, 5, 0x10, 0x30}));
}

}  // namespace
}  // namespace tband::test
