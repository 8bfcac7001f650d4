// A kernel without preemption (configUSE_PREEMPTION 0): tasks give the core
// up by yielding or blocking, and a task that yields with nothing else ready
// is "switched in" again by the kernel at every yield; the tracer leaves
// those repeats out.
#include <gtest/gtest.h>

#include "scenario.hpp"

namespace tband::test {
namespace {

static_assert(configUSE_PREEMPTION == 0);

using Cooperative = Scenario;

TEST_F(Cooperative, YieldsSwitchRepeatsAreLeftOut) {
  at(10);
  ASSERT_EQ(xTaskCreate(nullptr, "a", 128, nullptr, 1, nullptr), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "b", 128, nullptr, 1, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "a");
  at(110);
  taskYIELD();
  ASSERT_EQ(running(), "b");
  at(120);
  taskYIELD();
  ASSERT_EQ(running(), "a");
  at(130);
  vTaskDelay(1);
  ASSERT_EQ(running(), "b");
  at(140);
  vTaskDelay(1);
  ASSERT_EQ(running(), "IDLE");
  for (std::uint64_t t : {150, 160, 170}) {  // the idle task yields, and runs on
    at(t);
    taskYIELD();
    ASSERT_EQ(running(), "IDLE");
  }
  at(200);
  standin_tick();  // a and b are ready again, but nothing preempts the idle task
  ASSERT_EQ(running(), "IDLE");
  at(210);
  taskYIELD();
  ASSERT_EQ(running(), "a");

  EXPECT_EQ(texts_of(events(), "task_switched_in"),
            (std::vector<std::string>{"task_switched_in ts=100 task_id=4", "task_switched_in ts=100 task_id=1",
                                      "task_switched_in ts=110 task_id=2", "task_switched_in ts=120 task_id=1",
                                      "task_switched_in ts=130 task_id=2", "task_switched_in ts=140 task_id=3",
                                      "task_switched_in ts=210 task_id=1"}));
  const Converted c = convert("cooperative");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& idle = c.view.track("Running", "IDLE (idle task, core 0)");
  ASSERT_EQ(idle.slices.size(), 1u);
  EXPECT_EQ(idle.slices[0].begin_ns, 140u);
  EXPECT_EQ(idle.slices[0].end_ns, 210u);
}

}  // namespace
}  // namespace tband::test
