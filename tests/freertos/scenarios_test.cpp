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
            (std::vector<std::string>{"curtask_block_on_queue_receive ts=170 queue_id=1 ticks_to_wait=100"}));
  // The timer task waits for a command as the real kernel traces it: a delay
  // until now + portMAX_DELAY, now - 1 wrapped (vTaskPlaceOnEventListRestricted()).
  EXPECT_EQ(texts_of(trace, "curtask_delay_until"),
            (std::vector<std::string>{"curtask_delay_until ts=100 time_to_wake=4294967295"}));

  const Converted c = convert("scheduling");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const std::vector<std::string> processes = c.view.process_names();
  for (const char* task : {"sender", "receiver", "IDLE (idle task, core 0)", "Tmr Svc (timer task)"}) {
    EXPECT_NE(std::count(processes.begin(), processes.end(), task), 0) << task;
  }
  EXPECT_EQ(slice_names(c.view.track("State", "sender")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 5 ticks", "Ready",
                                      "Running on core 0", "Blocked: delay 10 ticks"}));
  EXPECT_EQ(slice_names(c.view.track("State", "receiver")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from jobs", "Ready",
                                      "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "Tmr Svc (timer task)")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: waiting for timer command or expiry"}));
  const ViewTrack& sender_running = c.view.track("Running", "sender");
  ASSERT_EQ(sender_running.slices.size(), 2u);
  EXPECT_EQ(sender_running.slices[0].begin_ns, 100u);
  EXPECT_EQ(sender_running.slices[0].end_ns, 140u);
  EXPECT_EQ(sender_running.slices[1].begin_ns, 240u);
  EXPECT_EQ(sender_running.slices[1].end_ns, 260u);
  EXPECT_EQ(counter_values(c.view.track("Priority", "sender")), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "IDLE (idle task, core 0)")), (std::vector<std::int64_t>{0}));
  // Per core, which task runs, the idle task included.
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "sender", "receiver", "IDLE", "sender", "receiver"}));
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0, 1, 0}));

  // The same as figures: the core is scheduled from 100 to the end (270).
  const TraceStats stats = analyze_trace("scheduling").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(stats.end_ns, 270u);
  EXPECT_DOUBLE_EQ(figure(stats, "task.sender.cpu"), 100.0 * (40 + 20) / 170);     // 100-140, 240-260
  EXPECT_DOUBLE_EQ(figure(stats, "task.receiver.cpu"), 100.0 * (30 + 10) / 170);   // 140-170, 260-270
  EXPECT_DOUBLE_EQ(figure(stats, "task.IDLE.cpu"), 100.0 * 70 / 170);              // 170-240
  EXPECT_DOUBLE_EQ(figure(stats, "core.0.load"), 100.0 * 100 / 170);
  EXPECT_EQ(figure(stats, "task.sender.switches"), 2.0);
  EXPECT_EQ(figure(stats, "task.sender.blocked"), 110.0);  // delayed 140-240, and from 260 to the end
  EXPECT_EQ(figure(stats, "task.receiver.latency.max"), 120.0);  // ready from 20, ran at 140
  EXPECT_EQ(figure(stats, "task.receiver.latency.min"), 10.0);   // readied at 250, ran at 260
  EXPECT_EQ(figure(stats, "queue.jobs.high_water"), 2.0);  // two jobs sent before any was taken
  EXPECT_EQ(figure(stats, "queue.jobs.sends"), 3.0);
  EXPECT_EQ(figure(stats, "queue.jobs.receives"), 3.0);
  EXPECT_EQ(figure(stats, "queue.jobs.blocked_receives"), 1.0);
  EXPECT_EQ(figure(stats, "diagnostics"), 0.0);
}

// A preemptive kernel switches at every switch request, also to the task
// that keeps running (here a yield with no other task of its priority
// ready): only the real switches are sent.
TEST_F(Scheduling, RepeatedSwitchInsAreNotSent) {
  at(10);
  ASSERT_EQ(xTaskCreate(nullptr, "solo", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "solo");
  for (std::uint64_t t : {110, 120}) {
    at(t);
    taskYIELD();
    ASSERT_EQ(running(), "solo");
  }
  at(140);
  vTaskDelay(1);
  ASSERT_EQ(running(), "IDLE");
  at(150);
  standin_tick();
  ASSERT_EQ(running(), "solo");
  at(160);
  taskYIELD();

  EXPECT_EQ(texts_of(events(), "task_switched_in"),
            (std::vector<std::string>{"task_switched_in ts=100 task_id=3", "task_switched_in ts=100 task_id=1",
                                      "task_switched_in ts=140 task_id=2", "task_switched_in ts=150 task_id=1"}));
  const Converted c = convert("repeated_switch_ins");
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "solo", "IDLE", "solo"}));
}

using QueueTraffic = Scenario;

// Queues, semaphores and a mailbox fed from tasks and from interrupts:
// sends, overwrites, receives, a semaphore given by an ISR waking a task, a
// counting semaphore's initial count, a task resumed from an ISR, a reset, a
// queue set, a task blocking on a peek.
TEST_F(QueueTraffic, FromTasksAndInterrupts) {
  at(10);
  QueueHandle_t rx = xQueueCreate(2, sizeof(std::uint32_t));
  vQueueAddToRegistry(rx, "rx");
  QueueHandle_t latest = xQueueCreate(1, sizeof(std::uint32_t));
  vQueueAddToRegistry(latest, "latest");
  SemaphoreHandle_t done = xSemaphoreCreateBinary();
  vQueueAddToRegistry(done, "done");
  SemaphoreHandle_t slots = xSemaphoreCreateCounting(5, 3);
  vQueueAddToRegistry(slots, "slots");
  QueueSetHandle_t set = xQueueCreateSet(4);
  vQueueAddToRegistry(set, "events");
  TaskHandle_t worker = nullptr;
  ASSERT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 2, &worker), pdPASS);
  tband_isr_name(1, "uart");
  tband_isr_name(2, "gpio");
  at(100);
  boot();
  ASSERT_EQ(running(), "worker");
  at(110);
  ASSERT_EQ(xSemaphoreTake(done, portMAX_DELAY), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(), "IDLE");

  std::uint32_t item = 7;
  at(200);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xQueueSendFromISR(rx, &item, &woken), pdPASS);
    EXPECT_EQ(xQueueSendFromISR(rx, &item, &woken), pdPASS);
    EXPECT_EQ(xQueueSendFromISR(rx, &item, &woken), errQUEUE_FULL);  // no event: nothing was sent
    EXPECT_EQ(xQueueOverwriteFromISR(latest, &item, &woken), pdPASS);
    EXPECT_EQ(xQueueOverwriteFromISR(latest, &item, &woken), pdPASS);
    EXPECT_EQ(xSemaphoreGiveFromISR(done, &woken), pdPASS);
    EXPECT_EQ(woken, pdTRUE);
    portYIELD_FROM_ISR(woken);
  });
  ASSERT_EQ(running(), "worker");  // the switch happened at the interrupt's end
  at(300);
  ASSERT_EQ(xSemaphoreTake(done, portMAX_DELAY), pdPASS);  // the blocked call's retry
  at(310);
  ASSERT_EQ(xQueueReceive(rx, &item, 0), pdPASS);
  at(320);
  ASSERT_EQ(xQueueOverwrite(latest, &item), pdPASS);
  at(330);
  ASSERT_EQ(xSemaphoreTake(slots, 0), pdPASS);
  at(340);
  ASSERT_EQ(xSemaphoreGive(slots), pdPASS);
  at(350);
  ASSERT_EQ(xQueueReset(rx), pdPASS);
  at(360);
  ASSERT_EQ(xQueuePeek(rx, &item, 50), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(), "IDLE");
  at(400);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xQueueSendFromISR(rx, &item, &woken), pdPASS);
    EXPECT_EQ(xQueueReceiveFromISR(latest, &item, &woken), pdPASS);
    portYIELD_FROM_ISR(woken);
  });
  ASSERT_EQ(running(), "worker");
  at(500);
  vTaskSuspend(nullptr);
  ASSERT_EQ(running(), "IDLE");
  at(600);
  interrupt(2, [&] { portYIELD_FROM_ISR(xTaskResumeFromISR(worker)); });
  ASSERT_EQ(running(), "worker");

  const std::vector<DecodedEvent> trace = events();
  // Ids 1-5 in creation order; the timer task's queue comes with the scheduler.
  std::vector<std::string> kinds = {
      "queue_kind queue_id=1 kind=FRQK_QUEUE", "queue_kind queue_id=2 kind=FRQK_QUEUE",
      "queue_kind queue_id=3 kind=FRQK_BINARY_SEMPHR", "queue_kind queue_id=4 kind=FRQK_COUNTING_SEMPHR",
      "queue_kind queue_id=5 kind=FRQK_QUEUE"};
  if (STANDIN_KERNEL_VERSION >= 11) {
    kinds.push_back("queue_kind queue_id=5 kind=FRQK_QUEUE_SET");  // V11 says so once it created the set
  }
  kinds.push_back("queue_kind queue_id=6 kind=FRQK_QUEUE");
  EXPECT_EQ(texts_of(trace, "queue_kind"), kinds);
  EXPECT_EQ(texts_of(trace, "queue_cur_length"),
            (std::vector<std::string>{"queue_cur_length ts=10 queue_id=1 length=0", "queue_cur_length ts=10 queue_id=2 length=0",
                                      "queue_cur_length ts=10 queue_id=3 length=0", "queue_cur_length ts=10 queue_id=4 length=0",
                                      "queue_cur_length ts=10 queue_id=4 length=3", "queue_cur_length ts=10 queue_id=5 length=0",
                                      "queue_cur_length ts=100 queue_id=6 length=0"}));
  EXPECT_EQ(texts_of(trace, "queue_send_from_isr"),
            (std::vector<std::string>{"queue_send_from_isr ts=200 queue_id=1 len_after=1",
                                      "queue_send_from_isr ts=200 queue_id=1 len_after=2",
                                      "queue_send_from_isr ts=200 queue_id=2 len_after=1",
                                      "queue_send_from_isr ts=200 queue_id=3 len_after=1",
                                      "queue_send_from_isr ts=400 queue_id=1 len_after=1"}));
  EXPECT_EQ(texts_of(trace, "queue_overwrite_from_isr"),
            (std::vector<std::string>{"queue_overwrite_from_isr ts=200 queue_id=2 len_after=1"}));
  EXPECT_EQ(texts_of(trace, "queue_overwrite"),
            (std::vector<std::string>{"queue_overwrite ts=320 queue_id=2 len_after=1"}));
  EXPECT_EQ(texts_of(trace, "queue_receive_from_isr"),
            (std::vector<std::string>{"queue_receive_from_isr ts=400 queue_id=2 len_after=0"}));
  EXPECT_EQ(texts_of(trace, "task_resumed_from_isr"),
            (std::vector<std::string>{"task_resumed_from_isr ts=600 task_id=1"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_queue_peek"),
            (std::vector<std::string>{"curtask_block_on_queue_peek ts=360 queue_id=1 ticks_to_wait=50"}));
#if STANDIN_KERNEL_VERSION >= 11
  EXPECT_EQ(texts_of(trace, "queue_reset"), (std::vector<std::string>{"queue_reset ts=350 queue_id=1"}));
#else
  EXPECT_TRUE(texts_of(trace, "queue_reset").empty()) << "V10 has no hook in xQueueReset()";
#endif

  const Converted c = convert("queue_traffic");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
#if STANDIN_KERNEL_VERSION >= 11
  EXPECT_EQ(counter_values(c.view.track("rx fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0, 1}));
#else
  // Without a reset hook the counter stays at 1 until the next send says 1.
  EXPECT_EQ(counter_values(c.view.track("rx fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 1}));
#endif
  EXPECT_EQ(counter_values(c.view.track("latest fill", "")), (std::vector<std::int64_t>{0, 1, 1, 1, 0}));
  EXPECT_EQ(counter_values(c.view.track("done fill", "")), (std::vector<std::int64_t>{0, 1, 0}));
  EXPECT_EQ(counter_values(c.view.track("slots fill", "")), (std::vector<std::int64_t>{0, 3, 2, 3}));
  EXPECT_EQ(slice_names(c.view.track("State", "worker")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from done", "Ready",
                                      "Running on core 0", "Blocked: peek on rx", "Ready", "Running on core 0",
                                      "Suspended", "Ready", "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")),
            (std::vector<std::string>{"Tmr Svc", "worker", "IDLE", "worker", "IDLE", "worker",
                                      "IDLE", "worker"}));

  const TraceStats stats = analyze_trace("queue_traffic").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(figure(stats, "queue.rx.high_water"), 2.0);  // the third send from the ISR failed: full
  EXPECT_EQ(figure(stats, "queue.rx.sends"), 3.0);
  EXPECT_EQ(figure(stats, "queue.rx.receives"), 1.0);
  EXPECT_EQ(figure(stats, "queue.rx.resets"), STANDIN_KERNEL_VERSION >= 11 ? 1.0 : 0.0);
  EXPECT_EQ(figure(stats, "queue.rx.blocked"), 1.0);  // the peek
  EXPECT_EQ(figure(stats, "queue.latest.high_water"), 1.0);
  EXPECT_EQ(figure(stats, "queue.latest.sends"), 3.0);  // overwrites
  EXPECT_EQ(figure(stats, "queue.done.high_water"), 1.0);
  EXPECT_EQ(figure(stats, "queue.done.blocked_receives"), 1.0);
  EXPECT_EQ(figure(stats, "queue.slots.high_water"), 3.0);  // its initial count, given back
  EXPECT_EQ(figure(stats, "isr.uart.count"), 2.0);
  EXPECT_EQ(figure(stats, "isr.gpio.count"), 1.0);
  EXPECT_EQ(figure(stats, "task.worker.suspended"), 100.0);  // 500-600
}

using Mutexes = Scenario;

// Priority inheritance: low (1) holds the mutex when high (3) wants it; low
// runs at 3 until it gives the mutex back, then high gets it. A recursive
// mutex is taken twice and given twice.
TEST_F(Mutexes, PriorityInheritance) {
  at(10);
  SemaphoreHandle_t bus = xSemaphoreCreateMutex();
  vQueueAddToRegistry(bus, "bus");
  SemaphoreHandle_t nested = xSemaphoreCreateRecursiveMutex();
  vQueueAddToRegistry(nested, "nested");
  ASSERT_EQ(xTaskCreate(nullptr, "low", 128, nullptr, 1, nullptr), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "high", 128, nullptr, 3, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "high");
  at(110);
  vTaskDelay(2);
  ASSERT_EQ(running(), "low");
  at(120);
  ASSERT_EQ(xSemaphoreTake(bus, portMAX_DELAY), pdPASS);
  at(200);
  standin_tick();
  at(210);
  standin_tick();
  ASSERT_EQ(running(), "high");
  at(220);
  ASSERT_EQ(xSemaphoreTake(bus, portMAX_DELAY), errSTANDIN_BLOCKED);
  ASSERT_EQ(running(), "low");
  EXPECT_EQ(uxTaskPriorityGet(nullptr), 3u) << "low inherited high's priority";
  at(230);
  ASSERT_EQ(xSemaphoreGive(bus), pdPASS);  // low back to 1: high takes over
  ASSERT_EQ(running(), "high");
  at(240);
  ASSERT_EQ(xSemaphoreTake(bus, portMAX_DELAY), pdPASS);
  at(250);
  ASSERT_EQ(xSemaphoreGive(bus), pdPASS);
  at(260);
  ASSERT_EQ(xSemaphoreTakeRecursive(nested, 0), pdPASS);
  at(270);
  ASSERT_EQ(xSemaphoreTakeRecursive(nested, 0), pdPASS);
  at(280);
  ASSERT_EQ(xSemaphoreGiveRecursive(nested), pdPASS);
  at(290);
  ASSERT_EQ(xSemaphoreGiveRecursive(nested), pdPASS);

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "task_priority_inherit"),
            (std::vector<std::string>{"task_priority_inherit ts=220 task_id=1 priority=3"}));
  EXPECT_EQ(texts_of(trace, "task_priority_disinherit"),
            (std::vector<std::string>{"task_priority_disinherit ts=230 task_id=1 priority=1"}));

  const Converted c = convert("mutexes");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("bus holder", "")),
            (std::vector<std::string>{"Available", "Taken by low", "Available", "Taken by high", "Available"}));
  const ViewTrack& bus_holder = c.view.track("bus holder", "");
  EXPECT_EQ(bus_holder.slices[1].begin_ns, 120u);
  EXPECT_EQ(bus_holder.slices[1].end_ns, 230u);
  EXPECT_EQ(slice_names(c.view.track("nested holder", "")),
            (std::vector<std::string>{"Available", "Taken by high", "Available"}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "low")), (std::vector<std::int64_t>{1, 3, 1}));
  EXPECT_EQ(counter_values(c.view.track("Priority", "high")), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(slice_names(c.view.track("State", "high")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 2 ticks", "Ready",
                                      "Running on core 0", "Blocked: receive from bus", "Ready", "Running on core 0"}));

  const TraceStats stats = analyze_trace("mutexes").stats;
  expect_cpu_shares_add_up(stats, 1);
  EXPECT_EQ(figure(stats, "mutex.bus.takes"), 2.0);
  EXPECT_EQ(figure(stats, "mutex.bus.hold.max"), 110.0);  // low, 120-230, while high waited
  EXPECT_EQ(stats.find("mutex.bus.hold.max").figure->at->ts_ns, 120u);
  EXPECT_EQ(figure(stats, "mutex.bus.hold.min"), 10.0);   // high, 240-250
  EXPECT_EQ(figure(stats, "mutex.bus.blocked"), 1.0);
  EXPECT_EQ(figure(stats, "mutex.bus.held_at_end"), 0.0);
  EXPECT_EQ(figure(stats, "mutex.nested.takes"), 1.0);  // taken twice, recursively: one hold
  EXPECT_EQ(figure(stats, "mutex.nested.hold.max"), 30.0);
  EXPECT_EQ(figure(stats, "task.high.preemptions"), 0.0);
  EXPECT_EQ(figure(stats, "task.low.preemptions"), 2.0);  // high woke at 210 and at 230
}

using Lifecycle = Scenario;

// Suspension, resumption, priority changes and deletion, of a task by
// another and of a task by itself.
TEST_F(Lifecycle, SuspendResumePriorityDelete) {
  at(10);
  TaskHandle_t boss = nullptr;
  TaskHandle_t temp = nullptr;
  TaskHandle_t idler = nullptr;
  ASSERT_EQ(xTaskCreate(nullptr, "boss", 128, nullptr, 3, &boss), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "temp", 128, nullptr, 1, &temp), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "idler", 128, nullptr, 1, &idler), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "boss");
  at(110);
  vTaskSuspend(idler);
  at(120);
  vTaskPrioritySet(temp, 2);
  at(130);
  vTaskDelete(temp);
  at(140);
  vTaskResume(idler);
  at(150);
  vTaskDelete(nullptr);  // boss deletes itself
  ASSERT_EQ(running(), "idler");

  const Converted c = convert("lifecycle");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "idler")),
            (std::vector<std::string>{"Ready", "Suspended by boss", "Ready", "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("State", "temp")), (std::vector<std::string>{"Ready", "Deleted by boss"}));
  EXPECT_EQ(slice_names(c.view.track("State", "boss")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Deleted"}));
  EXPECT_EQ(c.view.track("State", "boss").slices[2].begin_ns, 150u);
  EXPECT_EQ(counter_values(c.view.track("Priority", "temp")), (std::vector<std::int64_t>{1, 2}));
}

using TaskLocalMarkers = Scenario;

// Two tasks use the same marker ids; each task's markers are its own tracks,
// named from inside the task.
TEST_F(TaskLocalMarkers, LiveInTheTaskThatUsesThem) {
  at(10);
  ASSERT_EQ(xTaskCreate(nullptr, "sensor", 128, nullptr, 2, nullptr), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "logger", 128, nullptr, 1, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "sensor");
  at(110);
  tband_freertos_task_evtmarker_name(1, "acquire");
  tband_freertos_task_valmarker_name(2, "samples");
  at(120);
  tband_freertos_task_evtmarker_begin(1, "adc");
  at(130);
  tband_freertos_task_valmarker(2, 64);
  at(140);
  tband_freertos_task_evtmarker_end(1);
  at(150);
  vTaskDelay(1);
  ASSERT_EQ(running(), "logger");
  at(160);
  tband_freertos_task_evtmarker_name(1, "flush");
  at(170);
  tband_freertos_task_evtmarker(1, "sd card");

  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "task_evtmarker_name"),
            (std::vector<std::string>{R"(task_evtmarker_name evtmarker_id=1 task_id=1 name="acquire")",
                                      R"(task_evtmarker_name evtmarker_id=1 task_id=2 name="flush")"}));
  EXPECT_EQ(texts_of(trace, "task_valmarker_name"),
            (std::vector<std::string>{R"(task_valmarker_name valmarker_id=2 task_id=1 name="samples")"}));

  const Converted c = convert("task_local_markers");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  const ViewTrack& acquire = c.view.track("acquire", "sensor");
  ASSERT_EQ(acquire.slices.size(), 1u);
  EXPECT_EQ(acquire.slices[0].name, "adc");
  EXPECT_EQ(acquire.slices[0].begin_ns, 120u);
  EXPECT_EQ(acquire.slices[0].end_ns, 140u);
  EXPECT_EQ(counter_values(c.view.track("samples", "sensor")), (std::vector<std::int64_t>{64}));
  const ViewTrack& flush = c.view.track("flush", "logger");
  ASSERT_EQ(flush.instants.size(), 1u);
  EXPECT_EQ(flush.instants[0].name, "sd card");
  EXPECT_EQ(flush.instants[0].ts_ns, 170u);
}

// Streaming started after boot: the names come from the metadata buffer.
class LateStart : public Scenario {
 protected:
  LateStart() { start_streaming_at_boot_ = false; }
};

TEST_F(LateStart, NamesComeFromTheMetadataBuffer) {
  at(10);
  QueueHandle_t jobs = xQueueCreate(4, sizeof(std::uint32_t));
  vQueueAddToRegistry(jobs, "jobs");
  ASSERT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 1, nullptr), pdPASS);
  at(100);
  boot();
  at(110);
  vTaskDelay(3);
  ASSERT_EQ(running(), "IDLE");
  at(150);
  ASSERT_EQ(tband_start_streaming(), 0);
  for (std::uint64_t t : {200, 210, 220}) {
    at(t);
    standin_tick();
  }
  ASSERT_EQ(running(), "worker");
  std::uint32_t item = 1;
  at(230);
  ASSERT_EQ(xQueueSend(jobs, &item, 0), pdPASS);

  const Converted c = convert("late_start");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("State", "worker")), (std::vector<std::string>{"Ready", "Running on core 0"}));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")), (std::vector<std::string>{"worker"}));
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{1}));
}

// The first switch after the start is sent even when the same task keeps
// running: it tells the converter who runs.
TEST_F(LateStart, FirstSwitchAfterTheStartIsSentEvenIfRepeated) {
  at(10);
  ASSERT_EQ(xTaskCreate(nullptr, "worker", 128, nullptr, 1, nullptr), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "worker");
  at(110);
  ASSERT_EQ(tband_start_streaming(), 0);
  for (std::uint64_t t : {120, 130}) {
    at(t);
    taskYIELD();
    ASSERT_EQ(running(), "worker");
  }

  EXPECT_EQ(texts_of(events(), "task_switched_in"), (std::vector<std::string>{"task_switched_in ts=120 task_id=1"}));
  const Converted c = convert("late_start_repeat");
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")), (std::vector<std::string>{"worker"}));
}

}  // namespace
}  // namespace tband::test
