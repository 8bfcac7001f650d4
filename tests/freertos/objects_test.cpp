// FreeRTOS kernel objects besides tasks and queues, on one core: task
// notifications and event groups. The stand-in kernel (V10, V11, V11 built
// for size) calls tband's trace macros where the real kernel does; the
// streamed trace is decoded, converted, and the .pftrace read back as
// Perfetto shows it.
#include <gtest/gtest.h>

#include "scenario.hpp"
// After FreeRTOS.h (scenario.hpp), as in any FreeRTOS application.
#include "event_groups.h"

namespace tband::test {
namespace {

using Objects = Scenario;

// waiter (2) takes a notification count and blocks; notifier (1) gives, which
// wakes it; waiter then waits for bits, which an interrupt sets; last, the
// waiter notifies the notifier on index 1, which takes it without blocking.
TEST_F(Objects, TaskNotificationsBlockWakeAndCount) {
  TaskHandle_t waiter = nullptr;
  TaskHandle_t notifier = nullptr;
  tband_isr_name(1, "uart");
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "waiter", 128, nullptr, 2, &waiter), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "notifier", 128, nullptr, 1, &notifier), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "waiter");
  at(110);
  ASSERT_EQ(ulTaskNotifyTake(pdTRUE, 50), standinNOTIFY_BLOCKED);
  ASSERT_EQ(running(), "notifier");
  at(120);
  ASSERT_EQ(xTaskNotifyGive(waiter), pdPASS);
  ASSERT_EQ(running(), "waiter");  // woken, and of higher priority
  at(130);
  EXPECT_EQ(ulTaskNotifyTake(pdTRUE, 50), 1u);  // the blocked call goes on
  at(140);
  std::uint32_t value = 0;
  ASSERT_EQ(xTaskNotifyWait(0, 0xFFFFFFFFu, &value, 100), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(), "notifier");
  at(150);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xTaskNotifyFromISR(waiter, 0x05, eSetBits, &woken), pdPASS);
    EXPECT_EQ(woken, pdTRUE);
    portYIELD_FROM_ISR(woken);
  });
  ASSERT_EQ(running(), "waiter");
  at(160);
  EXPECT_EQ(xTaskNotifyWait(0, 0xFFFFFFFFu, &value, 100), pdTRUE);
  EXPECT_EQ(value, 0x05u);
  at(170);
  ASSERT_EQ(xTaskNotifyIndexed(notifier, 1, 7, eSetValueWithOverwrite), pdPASS);
  at(175);
  vTaskDelay(10);
  ASSERT_EQ(running(), "notifier");
  at(180);
  EXPECT_EQ(ulTaskNotifyTakeIndexed(1, pdFALSE, 0), 7u);

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "task_notify"),
            (std::vector<std::string>{"task_notify ts=120 task_id=1 index=0 action=FRNA_INCREMENT value=1",
                                      "task_notify ts=170 task_id=2 index=1 action=FRNA_SET_VALUE_WITH_OVERWRITE value=7"}));
  EXPECT_EQ(texts_of(trace, "task_notify_from_isr"),
            (std::vector<std::string>{"task_notify_from_isr ts=150 task_id=1 index=0 action=FRNA_SET_BITS value=5"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_notify_take"),
            (std::vector<std::string>{"curtask_block_on_notify_take ts=110 index=0 ticks_to_wait=50"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_notify_wait"),
            (std::vector<std::string>{"curtask_block_on_notify_wait ts=140 index=0 ticks_to_wait=100"}));
  EXPECT_EQ(texts_of(trace, "curtask_notify_take"),
            (std::vector<std::string>{"curtask_notify_take ts=130 index=0 value=1 value_after=0",
                                      "curtask_notify_take ts=180 index=1 value=7 value_after=6"}));
  EXPECT_EQ(texts_of(trace, "curtask_notify_wait"),
            (std::vector<std::string>{"curtask_notify_wait ts=160 index=0 received=true value=5 value_after=0"}));

  const Converted c = convert("notifications");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: take notification", "Ready",
                                      "Running on core 0", "Blocked: wait for notification", "Ready",
                                      "Running on core 0", "Blocked: delay 10 ticks"}));
  const ViewTrack& waiter_value = c.view.track("Notification value", "waiter");
  EXPECT_TRUE(waiter_value.is_counter);
  EXPECT_EQ(counter_values(waiter_value), (std::vector<std::int64_t>{1, 0, 5, 0}));
  EXPECT_EQ(waiter_value.counter.front().first, 120u);
  EXPECT_EQ(counter_values(c.view.track("Notification value [1]", "notifier")), (std::vector<std::int64_t>{7, 6}));
  EXPECT_FALSE(c.view.has_track("Notification value", "notifier"));  // index 0 never used there
}

// waiter (2) waits for bits 0x05 (all, cleared on exit); setter (1) sets 0x01,
// an interrupt asks for 0x04 (the timer task sets it later), which wakes the
// waiter. Then both meet at a sync point (bits 0x30).
TEST_F(Objects, EventGroupsWaitSetClearAndSync) {
  at(10);
  EventGroupHandle_t flags = xEventGroupCreate();
  ASSERT_NE(flags, nullptr);
  tband_freertos_event_group_name(flags, "flags");
  tband_isr_name(2, "gpio");
  TaskHandle_t waiter = nullptr;
  TaskHandle_t setter = nullptr;
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "waiter", 128, nullptr, 2, &waiter), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "setter", 128, nullptr, 1, &setter), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "waiter");
  at(110);
  ASSERT_EQ(xEventGroupWaitBits(flags, 0x05, pdTRUE, pdTRUE, 100), standinEVENT_GROUP_BLOCKED);
  ASSERT_EQ(running(), "setter");
  at(120);
  EXPECT_EQ(xEventGroupSetBits(flags, 0x01), 0x01u);
  ASSERT_EQ(running(), "setter");  // not all of 0x05 yet
  at(130);
  interrupt(2, [&] { EXPECT_EQ(xEventGroupSetBitsFromISR(flags, 0x04, nullptr), pdPASS); });
  at(135);
  standin_run_pended_event_group_calls();  // the timer task's work: sets 0x04, wakes the waiter
  ASSERT_EQ(running(), "waiter");
  at(140);
  EXPECT_EQ(xEventGroupWaitBits(flags, 0x05, pdTRUE, pdTRUE, 100), 0x05u);
  at(150);
  EXPECT_EQ(xEventGroupSetBits(flags, 0x02), 0x02u);  // the waiter cleared 0x05 on its way out
  at(160);
  EXPECT_EQ(xEventGroupClearBits(flags, 0x02), 0x02u);
  at(170);
  ASSERT_EQ(xEventGroupSync(flags, 0x10, 0x30, 50), standinEVENT_GROUP_BLOCKED);
  ASSERT_EQ(running(), "setter");
  at(180);
  EXPECT_EQ(xEventGroupSync(flags, 0x20, 0x30, 50), 0x30u);
  ASSERT_EQ(running(), "waiter");

  EXPECT_EQ(uxEventGroupGetNumber(flags), 1u);
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "event_group_created"), (std::vector<std::string>{"event_group_created ts=10 group_id=1"}));
  EXPECT_EQ(texts_of(trace, "event_group_name"), (std::vector<std::string>{R"(event_group_name group_id=1 name="flags")"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_event_group_wait"),
            (std::vector<std::string>{"curtask_block_on_event_group_wait ts=110 group_id=1 bits=5 ticks_to_wait=100"}));
  EXPECT_EQ(texts_of(trace, "event_group_set_bits_from_isr"),
            (std::vector<std::string>{"event_group_set_bits_from_isr ts=130 group_id=1 bits=4"}));
  EXPECT_EQ(texts_of(trace, "event_group_set_bits"),
            (std::vector<std::string>{"event_group_set_bits ts=120 group_id=1 bits=1 value=1",
                                      "event_group_set_bits ts=135 group_id=1 bits=4 value=5",
                                      "event_group_set_bits ts=150 group_id=1 bits=2 value=2",
                                      "event_group_set_bits ts=170 group_id=1 bits=16 value=16",
                                      "event_group_set_bits ts=180 group_id=1 bits=32 value=48"}));
  EXPECT_EQ(texts_of(trace, "event_group_clear_bits"),
            (std::vector<std::string>{"event_group_clear_bits ts=160 group_id=1 bits=2 value=0"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_event_group_sync"),
            (std::vector<std::string>{"curtask_block_on_event_group_sync ts=170 group_id=1 bits=48 ticks_to_wait=50"}));
  const std::vector<std::string> ends = texts_of(trace, "curtask_event_group_wait_end");
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends.front(), "curtask_event_group_wait_end ts=140 group_id=1 value=5 timed_out=false");

  const Converted c = convert("event_groups");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: wait bits 0x05 on flags", "Ready",
                                      "Running on core 0", "Blocked: sync bits 0x30 on flags", "Ready",
                                      "Running on core 0"}));
  const ViewTrack& bits = c.view.track("flags bits", "");
  EXPECT_TRUE(bits.is_counter);
  EXPECT_EQ(counter_values(bits), (std::vector<std::int64_t>{0, 1, 5, 2, 0, 0x10, 0x30}));
  // The interrupt's request is an instant; the change is the timer task's set.
  EXPECT_TRUE(has_instant(c.view, "event_group_set_bits_from_isr", 130));
  vEventGroupDelete(flags);
}

// A wait that times out: the task blocks, the tick wakes it, the call says so.
TEST_F(Objects, EventGroupWaitTimesOut) {
  at(10);
  EventGroupHandle_t flags = xEventGroupCreate();
  tband_freertos_event_group_name(flags, "flags");
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "waiter", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  at(110);
  ASSERT_EQ(xEventGroupWaitBits(flags, 0x01, pdFALSE, pdFALSE, 2), standinEVENT_GROUP_BLOCKED);
  ASSERT_EQ(running(), "IDLE");
  for (std::uint64_t t : {120, 130}) {
    at(t);
    standin_tick();
  }
  ASSERT_EQ(running(), "waiter");
  at(140);
  EXPECT_EQ(xEventGroupWaitBits(flags, 0x01, pdFALSE, pdFALSE, 2), 0u);
  EXPECT_EQ(texts_of(events(), "curtask_event_group_wait_end"),
            (std::vector<std::string>{"curtask_event_group_wait_end ts=140 group_id=1 value=0 timed_out=true"}));
  const Converted c = convert("event_group_timeout");
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: wait bits 0x01 on flags", "Ready",
                                      "Running on core 0"}));
  vEventGroupDelete(flags);  // the stand-in allocates groups; LeakSanitizer checks they are freed
}

// The kernel has no registry for event groups: one the firmware never names
// keeps its id as its name, and the converter says so.
TEST_F(Objects, UnnamedEventGroupIsReported) {
  at(10);
  EventGroupHandle_t flags = xEventGroupCreate();
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "setter", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  at(110);
  xEventGroupSetBits(flags, 0x04);
  const Converted c = convert("event_group_unnamed");
  EXPECT_EQ(counter_values(c.view.track("event group 1 bits", "")), (std::vector<std::int64_t>{0, 4}));
  EXPECT_EQ(c.result.diagnostics.total(), 1u) << c.result.diagnostics.summary();
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kUnnamedId), 1u);
  EXPECT_NE(c.result.diagnostics.summary().find("event group 1 was never named"), std::string::npos)
      << c.result.diagnostics.summary();
  vEventGroupDelete(flags);
}

}  // namespace
}  // namespace tband::test
