// The FreeRTOS side of target/bench/run_hook_bench.py: every hook the
// kernel's trace macros call (include/tband/freertos.h), and the task-local
// markers, each in a loop of its own next to a baseline loop that does the
// same without the call (callgrind's inclusive counts of the two, divided by
// the calls, give instructions per call). The arguments are what the macros
// pass: ids and counts the kernel keeps in its objects. The streaming backend
// writes into the no-op sink (noop_sink.cpp).
//   freertos_hook_bench measure [calls]   every loop once, for callgrind
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tband.h"

extern "C" {
std::uint64_t tband_bench_now = 0;
}

namespace bench {

// Stops the compiler from merging or dropping the baseline's stores; the
// loop's name in it keeps the baselines, otherwise the same code, apart.
#define BENCH_BARRIER(name) asm volatile("# " #name ::: "memory")

// The creation hooks run once per kernel object; their loops make this many
// calls (their names must all fit the metadata buffer).
constexpr std::uint32_t kCreationCalls = 16;

// Every loop starts at the same time (1 s), so that every hook writes
// timestamps of the same length (5 bytes).
constexpr std::uint64_t kLoopStartNs = 1'000'000'000;

// run_<name> makes the call `calls` times, baseline_<name> the same loop
// without it; `i` is the loop counter, for arguments that vary.
#define BENCH_HOOK_LOOPS(name, call)                                               \
  __attribute__((noinline)) void run_##name(std::uint32_t calls) {                 \
    tband_bench_now = kLoopStartNs;                                                \
    for (std::uint32_t i = 0; i < calls; ++i) {                                    \
      tband_bench_now += 7;                                                        \
      call;                                                                        \
      BENCH_BARRIER(name);                                                         \
    }                                                                              \
  }                                                                                \
  __attribute__((noinline)) void baseline_##name(std::uint32_t calls) {            \
    tband_bench_now = kLoopStartNs;                                                \
    for (std::uint32_t i = 0; i < calls; ++i) {                                    \
      tband_bench_now += 7;                                                        \
      BENCH_BARRIER(name);                                                         \
    }                                                                              \
  }

// The base tracer's cheapest hook, for the ratio in the results.
BENCH_HOOK_LOOPS(isr_enter, tband_isr_enter(3))

// Creation (once per task or queue).
BENCH_HOOK_LOOPS(task_created, tband_freertos_hook_task_name(tband_freertos_hook_task_created(2), "worker"))
BENCH_HOOK_LOOPS(queue_created, (void)tband_freertos_hook_queue_created(TBAND_FRQK_QUEUE))
BENCH_HOOK_LOOPS(queue_name, tband_freertos_hook_queue_name(1 + i, "jobs"))
BENCH_HOOK_LOOPS(idle_task, tband_freertos_hook_idle_task(1, 0))
BENCH_HOOK_LOOPS(timer_task, tband_freertos_hook_timer_task(2))

// Scheduling. The switch alternates between two tasks, as a switch is to
// another task.
BENCH_HOOK_LOOPS(task_switched_in, tband_freertos_hook_task_switched_in(1 + (i & 1)))
BENCH_HOOK_LOOPS(task_to_rdy_state, tband_freertos_hook_task_to_rdy_state(4))
BENCH_HOOK_LOOPS(task_resumed, tband_freertos_hook_task_resumed(4))
BENCH_HOOK_LOOPS(task_resumed_from_isr, tband_freertos_hook_task_resumed_from_isr(4))
BENCH_HOOK_LOOPS(task_suspended, tband_freertos_hook_task_suspended(4))
BENCH_HOOK_LOOPS(task_deleted, tband_freertos_hook_task_deleted(4))
BENCH_HOOK_LOOPS(curtask_delay, tband_freertos_hook_curtask_delay(10))
BENCH_HOOK_LOOPS(curtask_delay_until, tband_freertos_hook_curtask_delay_until(1000 + i))
BENCH_HOOK_LOOPS(task_priority_set, tband_freertos_hook_task_priority_set(4, 3))
BENCH_HOOK_LOOPS(task_priority_inherit, tband_freertos_hook_task_priority_inherit(4, 5))
BENCH_HOOK_LOOPS(task_priority_disinherit, tband_freertos_hook_task_priority_disinherit(4, 3))
BENCH_HOOK_LOOPS(block_on_queue_send, tband_freertos_hook_block_on_queue_send(2, 100))
BENCH_HOOK_LOOPS(block_on_queue_receive, tband_freertos_hook_block_on_queue_receive(2, 100))
BENCH_HOOK_LOOPS(block_on_queue_peek, tband_freertos_hook_block_on_queue_peek(2, 100))

// Queue traffic: a queue of 8 with 3 items waiting; the overwrite is a send
// into the full queue.
BENCH_HOOK_LOOPS(queue_send, tband_freertos_hook_queue_send(2, 3, 8))
BENCH_HOOK_LOOPS(queue_overwrite, tband_freertos_hook_queue_send(2, 8, 8))
BENCH_HOOK_LOOPS(queue_send_from_isr, tband_freertos_hook_queue_send_from_isr(2, 3, 8))
BENCH_HOOK_LOOPS(queue_receive, tband_freertos_hook_queue_receive(2, 3))
BENCH_HOOK_LOOPS(queue_receive_from_isr, tband_freertos_hook_queue_receive_from_isr(2, 3))
BENCH_HOOK_LOOPS(queue_reset, tband_freertos_hook_queue_reset(2))
BENCH_HOOK_LOOPS(queue_cur_length, tband_freertos_hook_queue_cur_length(2, 5))

// Task notifications (a give, bits set from an interrupt, the waits) and
// event groups (set, clear, a wait and its end).
BENCH_HOOK_LOOPS(task_notify, tband_freertos_hook_task_notify(4, 0, 2, 1))
BENCH_HOOK_LOOPS(task_notify_from_isr, tband_freertos_hook_task_notify_from_isr(4, 0, 1, 5))
BENCH_HOOK_LOOPS(block_on_notify_take, tband_freertos_hook_block_on_notify_take(0, 100))
BENCH_HOOK_LOOPS(notify_take, tband_freertos_hook_notify_take(0, 1, true))
BENCH_HOOK_LOOPS(notify_wait, tband_freertos_hook_notify_wait(0, 5, true, 0xFFFFFFFFu))
BENCH_HOOK_LOOPS(event_group_set_bits, tband_freertos_hook_event_group_set_bits(1, 0x04, 0x01))
BENCH_HOOK_LOOPS(event_group_clear_bits, tband_freertos_hook_event_group_clear_bits(1, 0x04, 0x05))
BENCH_HOOK_LOOPS(event_group_set_bits_from_isr, tband_freertos_hook_event_group_set_bits_from_isr(1, 0x04))
BENCH_HOOK_LOOPS(block_on_event_group_wait, tband_freertos_hook_block_on_event_group_wait(1, 0x05, 100))
BENCH_HOOK_LOOPS(event_group_wait_end, tband_freertos_hook_event_group_wait_end(1, 0x05, false))

// Stream and message buffers (a send and a receive with the fill after, from
// a task and an interrupt, a blocking receive, a failed read).
BENCH_HOOK_LOOPS(stream_buffer_send, tband_freertos_hook_stream_buffer_send(1, 16, 40))
BENCH_HOOK_LOOPS(stream_buffer_send_from_isr, tband_freertos_hook_stream_buffer_send_from_isr(1, 16, 40))
BENCH_HOOK_LOOPS(stream_buffer_receive, tband_freertos_hook_stream_buffer_receive(1, 16, 24))
BENCH_HOOK_LOOPS(stream_buffer_receive_from_isr, tband_freertos_hook_stream_buffer_receive_from_isr(1, 16, 24))
BENCH_HOOK_LOOPS(block_on_stream_buffer_receive, tband_freertos_hook_block_on_stream_buffer_receive(1, 100))
BENCH_HOOK_LOOPS(stream_buffer_receive_failed, tband_freertos_hook_stream_buffer_receive_failed(1))

// Software timers (a command sent and received, an expiry).
BENCH_HOOK_LOOPS(timer_command_send, tband_freertos_hook_timer_command_send(1, 1, 100, true))
BENCH_HOOK_LOOPS(timer_command_received, tband_freertos_hook_timer_command_received(1, 1, 100))
BENCH_HOOK_LOOPS(timer_expired, tband_freertos_hook_timer_expired(1))

// Queue sets (a member's send into its set, a selection).
BENCH_HOOK_LOOPS(queue_set_send, tband_freertos_hook_queue_set_send(2, 1, 0))
BENCH_HOOK_LOOPS(queue_set_select, tband_freertos_hook_queue_set_select(2, 1))

// Task-local markers (of the task switched in last).
BENCH_HOOK_LOOPS(task_evtmarker, tband_freertos_task_evtmarker(5, "go"))
BENCH_HOOK_LOOPS(task_evtmarker_begin, tband_freertos_task_evtmarker_begin(5, "acq"))
BENCH_HOOK_LOOPS(task_evtmarker_end, tband_freertos_task_evtmarker_end(5))
BENCH_HOOK_LOOPS(task_valmarker, tband_freertos_task_valmarker(6, -2 - static_cast<std::int64_t>(i & 0xff)))

#define BENCH_RUN(name, calls) \
  run_##name(calls);           \
  baseline_##name(calls)

void run_all(std::uint32_t calls) {
  BENCH_RUN(task_created, kCreationCalls);
  BENCH_RUN(queue_created, kCreationCalls);
  BENCH_RUN(queue_name, kCreationCalls);
  BENCH_RUN(idle_task, kCreationCalls);
  BENCH_RUN(timer_task, kCreationCalls);
  BENCH_RUN(isr_enter, calls);
  BENCH_RUN(task_switched_in, calls);
  BENCH_RUN(task_to_rdy_state, calls);
  BENCH_RUN(task_resumed, calls);
  BENCH_RUN(task_resumed_from_isr, calls);
  BENCH_RUN(task_suspended, calls);
  BENCH_RUN(task_deleted, calls);
  BENCH_RUN(curtask_delay, calls);
  BENCH_RUN(curtask_delay_until, calls);
  BENCH_RUN(task_priority_set, calls);
  BENCH_RUN(task_priority_inherit, calls);
  BENCH_RUN(task_priority_disinherit, calls);
  BENCH_RUN(block_on_queue_send, calls);
  BENCH_RUN(block_on_queue_receive, calls);
  BENCH_RUN(block_on_queue_peek, calls);
  BENCH_RUN(queue_send, calls);
  BENCH_RUN(queue_overwrite, calls);
  BENCH_RUN(queue_send_from_isr, calls);
  BENCH_RUN(queue_receive, calls);
  BENCH_RUN(queue_receive_from_isr, calls);
  BENCH_RUN(queue_reset, calls);
  BENCH_RUN(queue_cur_length, calls);
  BENCH_RUN(task_notify, calls);
  BENCH_RUN(task_notify_from_isr, calls);
  BENCH_RUN(block_on_notify_take, calls);
  BENCH_RUN(notify_take, calls);
  BENCH_RUN(notify_wait, calls);
  BENCH_RUN(event_group_set_bits, calls);
  BENCH_RUN(event_group_clear_bits, calls);
  BENCH_RUN(event_group_set_bits_from_isr, calls);
  BENCH_RUN(block_on_event_group_wait, calls);
  BENCH_RUN(event_group_wait_end, calls);
  BENCH_RUN(stream_buffer_send, calls);
  BENCH_RUN(stream_buffer_send_from_isr, calls);
  BENCH_RUN(stream_buffer_receive, calls);
  BENCH_RUN(stream_buffer_receive_from_isr, calls);
  BENCH_RUN(block_on_stream_buffer_receive, calls);
  BENCH_RUN(stream_buffer_receive_failed, calls);
  BENCH_RUN(timer_command_send, calls);
  BENCH_RUN(timer_command_received, calls);
  BENCH_RUN(timer_expired, calls);
  BENCH_RUN(queue_set_send, calls);
  BENCH_RUN(queue_set_select, calls);
  BENCH_RUN(task_evtmarker, calls);
  BENCH_RUN(task_evtmarker_begin, calls);
  BENCH_RUN(task_evtmarker_end, calls);
  BENCH_RUN(task_valmarker, calls);
}

}  // namespace bench

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "measure";
  const std::uint32_t calls = argc > 2 ? static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 10)) : 100000;
  if (mode != "measure") {
    std::fprintf(stderr, "usage: %s measure [calls]\n", argv[0]);
    return 2;
  }
  if (tband_start_streaming() != 0) {
    std::fprintf(stderr, "tband_start_streaming failed\n");
    return 1;
  }
  bench::run_all(calls);
  return 0;
}
