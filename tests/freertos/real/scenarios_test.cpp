// The stand-in's scenarios (../scenarios_test.cpp) on the real kernel: each
// TEST_F sets up the kernel objects and tasks, runs the scheduler until a
// task calls finish(), then checks the decoded events and what Perfetto
// shows, as on the stand-in. Where the stand-in's test drives the kernel from
// outside (an interrupt, a tick), a task of low priority does it here.
//
// To add a scenario: a TEST_F here (or in a file added to
// real_kernel_scenario_sources in CMakeLists.txt); it runs on every kernel
// tree given.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "real_kernel.hpp"

namespace tband::test {
namespace {

// Delays far longer than the few microseconds the other tasks need in the
// meantime, and far shorter than the timeouts they wait with.
constexpr TickType_t kShortDelay = 10;
constexpr TickType_t kLongDelay = 20;
constexpr TickType_t kTimeout = 100;

bool has_process(const Converted& c, const std::string& name) {
  const std::vector<std::string> processes = c.view.process_names();
  return std::count(processes.begin(), processes.end(), name) != 0;
}

// The kernel switches at every tick and wake-up, also to the task that keeps
// running; the tracer sends only the real switches.
void expect_no_repeated_switch_ins(const std::vector<DecodedEvent>& trace) {
  const std::vector<std::string> switches = texts_without_ts(trace, "task_switched_in");
  EXPECT_EQ(std::adjacent_find(switches.begin(), switches.end()), switches.end())
      << "a repeated task_switched_in was sent";
}

using Scheduling = RealKernel;

QueueHandle_t g_jobs = nullptr;

// sender (2) sends two jobs and sleeps; receiver (1) drains the queue and
// blocks on it; the idle task runs until the sender wakes, sends again (which
// readies the receiver) and sleeps; the receiver gets the job.
TEST_F(Scheduling, TasksSwitchBlockAndWake) {
  g_jobs = xQueueCreate(4, sizeof(std::uint32_t));
  vQueueAddToRegistry(g_jobs, "jobs");
  spawn("sender", 2, [](void*) {
    std::uint32_t item = 1;
    TASK_CHECK(xQueueSend(g_jobs, &item, 0) == pdPASS);
    TASK_CHECK(xQueueSend(g_jobs, &item, 0) == pdPASS);
    vTaskDelay(kLongDelay);
    TASK_CHECK(xQueueSend(g_jobs, &item, 0) == pdPASS);  // readies the receiver, of lower priority
    vTaskDelay(kShortDelay);
    end_task();
  });
  spawn("receiver", 1, [](void*) {
    std::uint32_t item = 0;
    TASK_CHECK(xQueueReceive(g_jobs, &item, kTimeout) == pdPASS);
    TASK_CHECK(xQueueReceive(g_jobs, &item, kTimeout) == pdPASS);
    TASK_CHECK(xQueueReceive(g_jobs, &item, kTimeout) == pdPASS);  // blocks until the sender's third job
    finish();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  expect_no_repeated_switch_ins(trace);
  EXPECT_EQ(texts_of(trace, "task_name"),
            (std::vector<std::string>{R"(task_name task_id=1 name="sender")", R"(task_name task_id=2 name="receiver")",
                                      R"(task_name task_id=3 name="IDLE")", R"(task_name task_id=4 name="Tmr Svc")"}));
  // Marked at V10's first switch, by V11.0/11.1's timer task hook, by V11.2's traceSTARTING_SCHEDULER.
  EXPECT_EQ(texts_of(trace, "task_is_idle_task"), (std::vector<std::string>{"task_is_idle_task task_id=3 core_id=0"}));
  EXPECT_EQ(texts_of(trace, "task_is_timer_task"), (std::vector<std::string>{"task_is_timer_task task_id=4"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_queue_receive"),
            (std::vector<std::string>{"curtask_block_on_queue_receive queue_id=1 ticks_to_wait=100"}));

  const Converted c = convert("scheduling");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  for (const char* task : {"sender", "receiver", "IDLE (idle task, core 0)", "Tmr Svc (timer task)"}) {
    EXPECT_TRUE(has_process(c, task)) << task;
  }
  EXPECT_EQ(slice_names(c.view.track("State", "sender")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 20 ticks", "Ready",
                                      "Running on core 0", "Blocked: delay 10 ticks"}));
  EXPECT_EQ(slice_names(c.view.track("State", "receiver")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from jobs", "Ready",
                                      "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "Tmr Svc (timer task)")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: waiting for timer command or expiry"}));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "sender", "receiver", "IDLE", "sender", "receiver"}));
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0, 1, 0}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "sender")), (std::vector<std::int64_t>{2}));

  const TraceStats stats = analyze_trace("scheduling").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(figure(stats, "task.sender.switches"), 2.0);
  EXPECT_EQ(figure(stats, "queue.jobs.high_water"), 2.0);
  EXPECT_EQ(figure(stats, "queue.jobs.sends"), 3.0);
  EXPECT_EQ(figure(stats, "queue.jobs.receives"), 3.0);
  EXPECT_EQ(figure(stats, "queue.jobs.blocked_receives"), 1.0);
  EXPECT_EQ(figure(stats, "diagnostics"), 0.0);
}

using QueueTraffic = RealKernel;

struct Traffic {
  QueueHandle_t rx, latest;
  SemaphoreHandle_t done, slots;
  QueueSetHandle_t set;
  TaskHandle_t worker;
} g_traffic;

// Queues, semaphores and a mailbox fed from a task and from interrupts:
// sends, overwrites, receives, a semaphore given by an ISR waking a task, a
// counting semaphore's initial count, a task resumed from an ISR, a reset, a
// queue set, a task blocking on a peek. driver (1) raises the interrupts
// whenever worker (2) blocks.
TEST_F(QueueTraffic, FromTasksAndInterrupts) {
  Traffic& t = g_traffic;
  t.rx = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(t.rx, "rx");
  t.latest = xQueueCreate(1, sizeof(std::uint32_t));
  vQueueAddToRegistry(t.latest, "latest");
  t.done = xSemaphoreCreateBinary();
  vQueueAddToRegistry(t.done, "done");
  t.slots = xSemaphoreCreateCounting(5, 3);
  vQueueAddToRegistry(t.slots, "slots");
  t.set = xQueueCreateSet(4);
  vQueueAddToRegistry(t.set, "events");
  tband_isr_name(1, "uart");
  tband_isr_name(2, "gpio");
  t.worker = spawn("worker", 2, [](void*) {
    Traffic& w = g_traffic;
    TASK_CHECK(xSemaphoreTake(w.done, portMAX_DELAY) == pdPASS);  // given by the driver's interrupt
    std::uint32_t item = 0;
    TASK_CHECK(xQueueReceive(w.rx, &item, 0) == pdPASS);
    TASK_CHECK(xQueueOverwrite(w.latest, &item) == pdPASS);
    TASK_CHECK(xSemaphoreTake(w.slots, 0) == pdPASS);
    TASK_CHECK(xSemaphoreGive(w.slots) == pdPASS);
    TASK_CHECK(xQueueReset(w.rx) == pdPASS);
    TASK_CHECK(xQueuePeek(w.rx, &item, kTimeout) == pdPASS);  // sent by the driver's next interrupt
    vTaskSuspend(nullptr);
    finish();  // resumed by the driver's last interrupt
  });
  spawn("driver", 1, [](void*) {
    Traffic& d = g_traffic;
    std::uint32_t item = 7;
    interrupt(1, [&] {
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xQueueSendFromISR(d.rx, &item, &woken) == pdPASS);
      TASK_CHECK(xQueueSendFromISR(d.rx, &item, &woken) == pdPASS);
      TASK_CHECK(xQueueSendFromISR(d.rx, &item, &woken) == errQUEUE_FULL);  // no event: nothing was sent
      TASK_CHECK(xQueueOverwriteFromISR(d.latest, &item, &woken) == pdPASS);
      TASK_CHECK(xQueueOverwriteFromISR(d.latest, &item, &woken) == pdPASS);
      TASK_CHECK(xSemaphoreGiveFromISR(d.done, &woken) == pdPASS);
      TASK_CHECK(woken == pdTRUE);
      return woken;
    });
    interrupt(1, [&] {  // the worker waits on its peek
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xQueueSendFromISR(d.rx, &item, &woken) == pdPASS);
      TASK_CHECK(xQueueReceiveFromISR(d.latest, &item, &woken) == pdPASS);
      return woken;
    });
    interrupt(2, [&] { return xTaskResumeFromISR(d.worker); });  // the worker suspended itself
    end_task();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  expect_no_repeated_switch_ins(trace);
  std::vector<std::string> kinds = {
      "queue_kind queue_id=1 kind=FRQK_QUEUE", "queue_kind queue_id=2 kind=FRQK_QUEUE",
      "queue_kind queue_id=3 kind=FRQK_BINARY_SEMPHR", "queue_kind queue_id=4 kind=FRQK_COUNTING_SEMPHR",
      "queue_kind queue_id=5 kind=FRQK_QUEUE"};
  if (!kV10) {
    kinds.push_back("queue_kind queue_id=5 kind=FRQK_QUEUE_SET");
  }
  kinds.push_back("queue_kind queue_id=6 kind=FRQK_QUEUE");  // the timer task's, with the scheduler
  EXPECT_EQ(texts_of(trace, "queue_kind"), kinds);
  EXPECT_EQ(texts_without_ts(trace, "queue_send_from_isr"),
            (std::vector<std::string>{"queue_send_from_isr queue_id=1 len_after=1", "queue_send_from_isr queue_id=1 len_after=2",
                                      "queue_send_from_isr queue_id=2 len_after=1", "queue_send_from_isr queue_id=3 len_after=1",
                                      "queue_send_from_isr queue_id=1 len_after=1"}));
  EXPECT_EQ(texts_without_ts(trace, "queue_overwrite_from_isr"),
            (std::vector<std::string>{"queue_overwrite_from_isr queue_id=2 len_after=1"}));
  EXPECT_EQ(texts_without_ts(trace, "queue_overwrite"),
            (std::vector<std::string>{"queue_overwrite queue_id=2 len_after=1"}));
  EXPECT_EQ(texts_without_ts(trace, "queue_receive_from_isr"),
            (std::vector<std::string>{"queue_receive_from_isr queue_id=2 len_after=0"}));
  EXPECT_EQ(texts_without_ts(trace, "task_resumed_from_isr"),
            (std::vector<std::string>{"task_resumed_from_isr task_id=1"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_queue_peek"),
            (std::vector<std::string>{"curtask_block_on_queue_peek queue_id=1 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "queue_reset"),
            (kV10 ? std::vector<std::string>{} : std::vector<std::string>{"queue_reset queue_id=1"}));

  const Converted c = convert("queue_traffic");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(counter_values(c.view.track("rx fill", "")),
            (kV10 ? std::vector<std::int64_t>{0, 1, 2, 1, 1} : std::vector<std::int64_t>{0, 1, 2, 1, 0, 1}));
  EXPECT_EQ(counter_values(c.view.track("latest fill", "")), (std::vector<std::int64_t>{0, 1, 1, 1, 0}));
  EXPECT_EQ(counter_values(c.view.track("done fill", "")), (std::vector<std::int64_t>{0, 1, 0}));
  EXPECT_EQ(counter_values(c.view.track("slots fill", "")), (std::vector<std::int64_t>{0, 3, 2, 3}));
  EXPECT_EQ(slice_names(c.view.track("State", "worker")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from done", "Ready",
                                      "Running on core 0", "Blocked: peek on rx", "Ready", "Running on core 0",
                                      "Suspended", "Ready", "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "worker", "driver", "worker", "driver", "worker", "driver",
                                      "worker"}));

  const TraceStats stats = analyze_trace("queue_traffic").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(figure(stats, "queue.rx.high_water"), 2.0);
  EXPECT_EQ(figure(stats, "queue.rx.sends"), 3.0);
  EXPECT_EQ(figure(stats, "queue.rx.receives"), 1.0);
  EXPECT_EQ(figure(stats, "queue.rx.resets"), kV10 ? 0.0 : 1.0);
  EXPECT_EQ(figure(stats, "queue.rx.blocked"), 1.0);
  EXPECT_EQ(figure(stats, "queue.latest.sends"), 3.0);
  EXPECT_EQ(figure(stats, "queue.done.blocked_receives"), 1.0);
  EXPECT_EQ(figure(stats, "queue.slots.high_water"), 3.0);
  EXPECT_EQ(figure(stats, "isr.uart.count"), 2.0);
  EXPECT_EQ(figure(stats, "isr.gpio.count"), 1.0);
}

using Mutexes = RealKernel;

struct Locks {
  SemaphoreHandle_t bus, nested;
  std::atomic<bool> high_wants_bus{false};
} g_locks;

// Priority inheritance: low (1) holds the mutex when high (3) wants it; low
// runs at 3 until it gives the mutex back, then high gets it. A recursive
// mutex is taken twice and given twice.
TEST_F(Mutexes, PriorityInheritance) {
  g_locks.bus = xSemaphoreCreateMutex();
  vQueueAddToRegistry(g_locks.bus, "bus");
  g_locks.nested = xSemaphoreCreateRecursiveMutex();
  vQueueAddToRegistry(g_locks.nested, "nested");
  spawn("low", 1, [](void*) {
    TASK_CHECK(xSemaphoreTake(g_locks.bus, portMAX_DELAY) == pdPASS);
    while (!g_locks.high_wants_bus.load()) {
      // busy until high wakes, preempts, and blocks on the bus
    }
    TASK_CHECK(uxTaskPriorityGet(nullptr) == 3);  // inherited from high
    TASK_CHECK(xSemaphoreGive(g_locks.bus) == pdPASS);  // back to 1: high takes over
    end_task();
  });
  spawn("high", 3, [](void*) {
    vTaskDelay(kLongDelay);
    g_locks.high_wants_bus.store(true);
    TASK_CHECK(xSemaphoreTake(g_locks.bus, portMAX_DELAY) == pdPASS);
    TASK_CHECK(xSemaphoreGive(g_locks.bus) == pdPASS);
    TASK_CHECK(xSemaphoreTakeRecursive(g_locks.nested, 0) == pdPASS);
    TASK_CHECK(xSemaphoreTakeRecursive(g_locks.nested, 0) == pdPASS);
    TASK_CHECK(xSemaphoreGiveRecursive(g_locks.nested) == pdPASS);
    TASK_CHECK(xSemaphoreGiveRecursive(g_locks.nested) == pdPASS);
    finish();
  });
  run_kernel();

  const std::vector<DecodedEvent> trace = events();
  expect_no_repeated_switch_ins(trace);  // low was busy for many ticks
  EXPECT_EQ(texts_without_ts(trace, "task_priority_inherit"),
            (std::vector<std::string>{"task_priority_inherit task_id=1 priority=3"}));
  EXPECT_EQ(texts_without_ts(trace, "task_priority_disinherit"),
            (std::vector<std::string>{"task_priority_disinherit task_id=1 priority=1"}));

  const Converted c = convert("mutexes");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("bus holder", "")),
            (std::vector<std::string>{"Available", "Taken by low", "Available", "Taken by high", "Available"}));
  EXPECT_EQ(slice_names(c.view.track("nested holder", "")),
            (std::vector<std::string>{"Available", "Taken by high", "Available"}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "low")), (std::vector<std::int64_t>{1, 3, 1}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "high")), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(slice_names(c.view.track("State", "high")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 20 ticks", "Ready",
                                      "Running on core 0", "Blocked: receive from bus", "Ready", "Running on core 0"}));

  const TraceStats stats = analyze_trace("mutexes").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(figure(stats, "mutex.bus.takes"), 2.0);
  EXPECT_EQ(figure(stats, "mutex.bus.blocked"), 1.0);
  EXPECT_EQ(figure(stats, "mutex.bus.held_at_end"), 0.0);
  EXPECT_EQ(figure(stats, "mutex.nested.takes"), 1.0);
  EXPECT_EQ(figure(stats, "task.low.preemptions"), 2.0);  // high woke from its delay, and got the bus
}

using Lifecycle = RealKernel;

struct Lives {
  TaskHandle_t temp, idler;
} g_lives;

// Suspension, resumption, priority changes and deletion, of a task by
// another and of a task by itself.
TEST_F(Lifecycle, SuspendResumePriorityDelete) {
  spawn("boss", 3, [](void*) {
    vTaskSuspend(g_lives.idler);
    vTaskPrioritySet(g_lives.temp, 2);
    vTaskDelete(g_lives.temp);
    vTaskResume(g_lives.idler);
    end_task();  // boss deletes itself
  });
  g_lives.temp = spawn("temp", 1, [](void*) {
    task_check_failed("temp ran: it was deleted before a task of its priority could run");
    end_task();
  });
  g_lives.idler = spawn("idler", 1, [](void*) { finish(); });
  run_kernel();

  const Converted c = convert("lifecycle");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "idler")),
            (std::vector<std::string>{"Ready", "Suspended by boss", "Ready", "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "temp")), (std::vector<std::string>{"Ready", "Deleted by boss"}));
  EXPECT_EQ(slice_names(c.view.track("State", "boss")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Deleted"}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "temp")), (std::vector<std::int64_t>{1, 2}));
}

using TaskLocalMarkers = RealKernel;

// Two tasks use the same marker ids; each task's markers are its own tracks,
// named from inside the task.
TEST_F(TaskLocalMarkers, LiveInTheTaskThatUsesThem) {
  spawn("sensor", 2, [](void*) {
    tband_freertos_task_evtmarker_name(1, "acquire");
    tband_freertos_task_valmarker_name(2, "samples");
    tband_freertos_task_evtmarker_begin(1, "adc");
    tband_freertos_task_valmarker(2, 64);
    tband_freertos_task_evtmarker_end(1);
    vTaskDelay(kShortDelay);
    end_task();
  });
  spawn("logger", 1, [](void*) {
    tband_freertos_task_evtmarker_name(1, "flush");
    tband_freertos_task_evtmarker(1, "sd card");
    finish();
  });
  run_kernel();

  EXPECT_EQ(texts_of(events(), "task_evtmarker_name"),
            (std::vector<std::string>{R"(task_evtmarker_name evtmarker_id=1 task_id=1 name="acquire")",
                                      R"(task_evtmarker_name evtmarker_id=1 task_id=2 name="flush")"}));
  const Converted c = convert("task_local_markers");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& acquire = c.view.track("acquire", "sensor");
  ASSERT_EQ(acquire.slices.size(), 1u);
  EXPECT_EQ(acquire.slices[0].name, "adc");
  EXPECT_EQ(counter_values(c.view.track("samples", "sensor")), (std::vector<std::int64_t>{64}));
  const ViewTrack& flush = c.view.track("flush", "logger");
  ASSERT_EQ(flush.instants.size(), 1u);
  EXPECT_EQ(flush.instants[0].name, "sd card");
}

}  // namespace
}  // namespace tband::test
