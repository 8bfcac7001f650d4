// The ARM_CM4F firmware's trace (cm4f/main.c, run under QEMU by
// cm4f/run_in_qemu.py, which names the UART capture in TBAND_CM4F_TRACE):
// decoded and converted with the real converter, and checked for what the
// firmware's tasks, tick and timer interrupt did. Outcomes only (names,
// states, fills, holders, counts), never times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "trace_checks.hpp"

namespace tband::test {
namespace {

// From cm4f/main.c.
constexpr int kItemsFromTask = 6;
constexpr int kItemsFromIsr = 4;

class Cm4fTrace : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* path = std::getenv("TBAND_CM4F_TRACE");
    ASSERT_NE(path, nullptr) << "TBAND_CM4F_TRACE is not set: run this through cm4f/run_in_qemu.py (ctest)";
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << "cannot read " << path;
    stream_ = std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
    const char* name = std::getenv("TBAND_CM4F_NAME");
    name_ = name != nullptr ? name : "cm4f";
  }

  static std::vector<DecodedEvent> events() { return decode_stream(stream_); }
  static Converted convert() { return convert_streams({stream_}, name_); }
  static TraceStats stats() { return analyze_streams({stream_}, name_).stats; }

  static std::size_t count(const std::vector<std::string>& names, const std::string& name) {
    return static_cast<std::size_t>(std::count(names.begin(), names.end(), name));
  }

  static inline std::vector<std::uint8_t> stream_;
  static inline std::string name_;
};

TEST_F(Cm4fTrace, TasksAreNamedAndMarked) {
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "task_name"),
            (std::vector<std::string>{R"(task_name task_id=1 name="control")", R"(task_name task_id=2 name="producer")",
                                      R"(task_name task_id=3 name="worker")", R"(task_name task_id=4 name="IDLE")",
                                      R"(task_name task_id=5 name="Tmr Svc")"}));
  EXPECT_EQ(texts_of(trace, "task_is_idle_task"), (std::vector<std::string>{"task_is_idle_task task_id=4 core_id=0"}));
  EXPECT_EQ(texts_of(trace, "task_is_timer_task"), (std::vector<std::string>{"task_is_timer_task task_id=5"}));
  // The kernel asks for a switch at every tick; the tracer sends only real ones.
  const std::vector<std::string> switches = texts_without_ts(trace, "task_switched_in");
  EXPECT_EQ(std::adjacent_find(switches.begin(), switches.end()), switches.end()) << "a repeated switch-in was sent";
}

TEST_F(Cm4fTrace, ConvertsWithoutDiagnostics) {
  const Converted c = convert();
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const std::vector<std::string> processes = c.view.process_names();
  for (const char* task : {"control", "producer", "worker", "IDLE (idle task, core 0)", "Tmr Svc (timer task)"}) {
    EXPECT_EQ(count(processes, task), 1u) << task;
  }
  // Every task ran; a task that ran also shows on the core's track.
  const std::vector<std::string> running = slice_names(c.view.track("Running task", "Core 0"));
  for (const char* task : {"control", "producer", "worker", "IDLE", "Tmr Svc"}) {
    EXPECT_GE(count(running, task), 1u) << task;
  }
}

TEST_F(Cm4fTrace, TasksBlockOnDelayQueueAndMutex) {
  const Converted c = convert();
  const std::vector<std::string> control = slice_names(c.view.track("State", "control"));
  EXPECT_EQ(count(control, "Blocked: delay 5 ticks"), 1u);
  EXPECT_EQ(count(control, "Blocked: receive from bus"), 1u);  // a mutex take, to the kernel a receive
  EXPECT_GE(count(control, "Running on core 0"), 3u);          // first run, after the delay, with the bus
  const std::vector<std::string> producer = slice_names(c.view.track("State", "producer"));
  EXPECT_EQ(count(producer, "Blocked: delay 2 ticks"), static_cast<std::size_t>(kItemsFromTask));
  // The producer sends its last items after the worker has drained the first ones.
  const std::vector<std::string> worker = slice_names(c.view.track("State", "worker"));
  EXPECT_GE(count(worker, "Blocked: receive from samples"), 1u);
  EXPECT_EQ(slice_names(c.view.track("State", "Tmr Svc (timer task)")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: waiting for timer command or expiry"}));
}

TEST_F(Cm4fTrace, QueueFillFollowsEverySendAndReceive) {
  const Converted c = convert();
  const std::vector<std::int64_t> fill = counter_values(c.view.track("samples fill", ""));
  ASSERT_FALSE(fill.empty());
  EXPECT_EQ(fill.front(), 0);
  EXPECT_EQ(fill.back(), 0);
  int sends = 0;
  int receives = 0;
  for (std::size_t i = 1; i < fill.size(); ++i) {
    const std::int64_t step = fill[i] - fill[i - 1];
    ASSERT_TRUE(step == 1 || step == -1) << "fill " << fill[i - 1] << " -> " << fill[i];
    (step > 0 ? sends : receives)++;
  }
  EXPECT_EQ(sends, kItemsFromTask + kItemsFromIsr);
  EXPECT_EQ(receives, kItemsFromTask + kItemsFromIsr);

  const TraceStats s = stats();
  EXPECT_EQ(figure(s, "queue.samples.sends"), kItemsFromTask + kItemsFromIsr);
  EXPECT_EQ(figure(s, "queue.samples.receives"), kItemsFromTask + kItemsFromIsr);
  EXPECT_GE(figure(s, "queue.samples.blocked_receives"), 1.0);
  EXPECT_EQ(figure(s, "diagnostics"), 0.0);
  expect_cpu_shares_add_up(s, 1);
}

TEST_F(Cm4fTrace, MutexHolderAndPriorityInheritance) {
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_without_ts(trace, "task_priority_inherit"),
            (std::vector<std::string>{"task_priority_inherit task_id=3 priority=3"}));
  EXPECT_EQ(texts_without_ts(trace, "task_priority_disinherit"),
            (std::vector<std::string>{"task_priority_disinherit task_id=3 priority=1"}));
  const Converted c = convert();
  EXPECT_EQ(slice_names(c.view.track("bus holder", "")),
            (std::vector<std::string>{"Available", "Taken by worker", "Available", "Taken by control", "Available"}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "worker")), (std::vector<std::int64_t>{1, 3, 1}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "control")), (std::vector<std::int64_t>{3}));
  const TraceStats s = stats();
  EXPECT_EQ(figure(s, "mutex.bus.takes"), 2.0);
  EXPECT_EQ(figure(s, "mutex.bus.blocked"), 1.0);
  EXPECT_EQ(figure(s, "mutex.bus.held_at_end"), 0.0);
}

TEST_F(Cm4fTrace, TickAndTimerInterrupts) {
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "isr_name"),
            (std::vector<std::string>{R"(isr_name isr_id=1 name="SysTick")", R"(isr_name isr_id=2 name="dual timer")"}));
  const std::vector<std::string> enters = texts_without_ts(trace, "isr_enter");
  const std::vector<std::string> exits = texts_without_ts(trace, "isr_exit");
  EXPECT_EQ(count(enters, "isr_enter isr_id=2"), static_cast<std::size_t>(kItemsFromIsr));
  EXPECT_EQ(count(exits, "isr_exit isr_id=2"), static_cast<std::size_t>(kItemsFromIsr));
  // The producer sends its last item after five delays of 2 ticks.
  constexpr int kMinTicks = 2 * (kItemsFromTask - 1);
  EXPECT_GE(count(enters, "isr_enter isr_id=1"), static_cast<std::size_t>(kMinTicks));
  EXPECT_EQ(count(enters, "isr_enter isr_id=1"), count(exits, "isr_exit isr_id=1"));

  const TraceStats s = stats();
  EXPECT_EQ(figure(s, "isr.dual timer.count"), kItemsFromIsr);
  EXPECT_GE(figure(s, "isr.SysTick.count"), kMinTicks);
}

}  // namespace
}  // namespace tband::test
