// FreeRTOS queue sets, on one core: the stand-in kernel (V10, V11, V11 built
// for size) calls tband's trace macros where the real kernel does; the
// streamed trace is decoded, converted, and the .pftrace read back as
// Perfetto shows it. V11 traces adding, removing and selecting; V10 only the
// sends into the set, which name their member.
#include <gtest/gtest.h>

#include <optional>

#include "queue_set_checks.hpp"
#include "scenario.hpp"
// After FreeRTOS.h (scenario.hpp), as in any FreeRTOS application.
#include "queue.h"
#include "semphr.h"

namespace tband::test {
namespace {

using QueueSets = Scenario;

constexpr bool kV11 = STANDIN_KERNEL_VERSION >= 11;

// server (2) waits on the set "inputs" holding the queue "commands" and the
// binary semaphore "wakeup": an interrupt gives "wakeup", server sends itself
// a command, finds the set empty, removes "commands", and an interrupt gives
// "wakeup" again and selects from the set itself.
TEST_F(QueueSets, MembersAndSelections) {
  at(10);
  QueueHandle_t commands = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(commands, "commands");
  SemaphoreHandle_t wakeup = xSemaphoreCreateBinary();
  vQueueAddToRegistry(wakeup, "wakeup");
  QueueSetHandle_t inputs = xQueueCreateSet(3);
  vQueueAddToRegistry(inputs, "inputs");
  ASSERT_EQ(xQueueAddToSet(commands, inputs), pdPASS);
  ASSERT_EQ(xQueueAddToSet(wakeup, inputs), pdPASS);
  ASSERT_EQ(xQueueAddToSet(commands, inputs), pdFAIL);  // in a set already: not traced
  tband_isr_name(1, "uart");
  ASSERT_EQ(xTaskCreate(nullptr, "server", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "server");
  at(110);
  ASSERT_EQ(xQueueSelectFromSet(inputs, portMAX_DELAY), nullptr);  // blocks
  ASSERT_EQ(running(), "IDLE");
  at(200);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xSemaphoreGiveFromISR(wakeup, &woken), pdPASS);
    EXPECT_EQ(woken, pdTRUE);
    portYIELD_FROM_ISR(woken);
  });
  ASSERT_EQ(running(), "server");
  at(210);
  ASSERT_EQ(xQueueSelectFromSet(inputs, portMAX_DELAY), wakeup);  // the blocked call's retry
  at(220);
  ASSERT_EQ(xSemaphoreTake(wakeup, 0), pdPASS);
  std::uint32_t item = 5;
  at(300);
  ASSERT_EQ(xQueueSend(commands, &item, 0), pdPASS);
  at(310);
  ASSERT_EQ(xQueueSelectFromSet(inputs, 0), commands);
  at(320);
  ASSERT_EQ(xQueueReceive(commands, &item, 0), pdPASS);
  at(330);
  ASSERT_EQ(xQueueSelectFromSet(inputs, 0), nullptr);  // empty, no wait
  at(340);
  ASSERT_EQ(xQueueRemoveFromSet(commands, inputs), pdPASS);
  at(350);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xQueueSendFromISR(commands, &item, &woken), pdPASS);  // not in the set any more
    EXPECT_EQ(xSemaphoreGiveFromISR(wakeup, &woken), pdPASS);
    EXPECT_EQ(xQueueSelectFromSetFromISR(inputs), wakeup);
  });

  const std::vector<DecodedEvent> trace = events();
  // commands 1, wakeup 2, inputs 3.
  EXPECT_EQ(texts_of(trace, "queue_set_send"),
            (std::vector<std::string>{"queue_set_send ts=200 set_id=3 member_id=2 len_after=1",
                                      "queue_set_send ts=300 set_id=3 member_id=1 len_after=1",
                                      "queue_set_send ts=350 set_id=3 member_id=2 len_after=1"}));
  if (kV11) {
    EXPECT_EQ(texts_of(trace, "queue_set_add"),
              (std::vector<std::string>{"queue_set_add ts=10 set_id=3 member_id=1",
                                        "queue_set_add ts=10 set_id=3 member_id=2"}));
    EXPECT_EQ(texts_of(trace, "queue_set_remove"),
              (std::vector<std::string>{"queue_set_remove ts=340 set_id=3 member_id=1"}));
    EXPECT_EQ(texts_of(trace, "queue_set_select"),
              (std::vector<std::string>{"queue_set_select ts=210 set_id=3 member_id=2",
                                        "queue_set_select ts=310 set_id=3 member_id=1",
                                        "queue_set_select ts=330 set_id=3 member_id=0"}));
    EXPECT_EQ(texts_of(trace, "queue_set_select_from_isr"),
              (std::vector<std::string>{"queue_set_select_from_isr ts=350 set_id=3 member_id=2"}));
  } else {
    for (const char* name : {"queue_set_add", "queue_set_remove", "queue_set_select", "queue_set_select_from_isr"}) {
      EXPECT_TRUE(texts_of(trace, name).empty()) << name << ": V10 has no hook there";
    }
  }
  // The member's own send; the set's are queue_set_send.
  EXPECT_EQ(texts_of(trace, "queue_send"), (std::vector<std::string>{"queue_send ts=300 queue_id=1 len_after=1"}));

  const Converted c = convert("queue_sets");
  expect_queue_set_scenario_view(c, !kV11);
  const ViewTrack& commands_in = c.view.track("commands set membership", "");
  ASSERT_EQ(commands_in.slices.size(), 1u);
  EXPECT_EQ(commands_in.slices[0].begin_ns, kV11 ? 10u : 300u);
  EXPECT_EQ(commands_in.slices[0].end_ns, kV11 ? std::optional<std::uint64_t>{340} : std::nullopt);
  const ViewTrack& wakeup_in = c.view.track("wakeup set membership", "");
  ASSERT_EQ(wakeup_in.slices.size(), 1u);
  EXPECT_EQ(wakeup_in.slices[0].begin_ns, kV11 ? 10u : 200u);
  EXPECT_EQ(slice_names(c.view.track("State", "server")),
            (std::vector<std::string>{"Ready", "Running on core 0",
                                      kV11 ? "Blocked: select from inputs" : "Blocked: receive from inputs", "Ready",
                                      "Running on core 0"}));
}

}  // namespace
}  // namespace tband::test
