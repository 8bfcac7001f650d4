// A FreeRTOS trace written with the generated encoder, shared by the
// converter's and the statistics' tests: its every task state, queue fill
// and mutex hold is known (tests/host/freertos_test.cpp, stats_test.cpp).
#pragma once

#include "trace_builder.hpp"

namespace tband::test {

// IDLE (1), sender (2, priority 2), receiver (3, priority 1); queue "jobs"
// (10) and mutex "bus_lock" (11). 10 ns per tick.
inline TraceBuilder scheduler_trace() {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return tband::enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_name(b, 1, "IDLE"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_is_idle_task(b, 1, 0); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_name(b, 2, "sender"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_name(b, 3, "receiver"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_name(b, 10, "jobs"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_kind(b, 10, tband::enc::FrQueueKind::FRQK_QUEUE); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_name(b, 11, "bus_lock"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_kind(b, 11, tband::enc::FrQueueKind::FRQK_MUTEX); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_evtmarker_name(b, 5, 2, "produce"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_valmarker_name(b, 6, 3, "backlog"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_created(b, 10, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_priority_set(b, 11, 2, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_created(b, 12, 3); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_cur_length(b, 15, 10, 0); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_cur_length(b, 16, 11, 1); })
      // sender: takes the mutex, sends twice, gives the mutex, delays
      .add([](std::uint8_t* b) { return tband::enc::encode_task_switched_in(b, 100, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_evtmarker_begin(b, 101, 5, "batch"); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_receive(b, 102, 11, 0); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_send(b, 110, 10, 1); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_send(b, 120, 10, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_send(b, 125, 11, 1); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_evtmarker_end(b, 126, 5); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_to_rdy_state(b, 127, 3); })
      .add([](std::uint8_t* b) { return tband::enc::encode_curtask_delay(b, 128, 50); })
      // receiver: drains the queue, blocks on it
      .add([](std::uint8_t* b) { return tband::enc::encode_task_switched_in(b, 130, 3); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_receive(b, 140, 10, 1); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_valmarker(b, 141, 6, 1); })
      .add([](std::uint8_t* b) { return tband::enc::encode_queue_receive(b, 150, 10, 0); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_valmarker(b, 151, 6, 0); })
      .add([](std::uint8_t* b) { return tband::enc::encode_curtask_block_on_queue_receive(b, 155, 10, 100); })
      // idle; the sender wakes (priority inherited meanwhile) and deletes itself
      .add([](std::uint8_t* b) { return tband::enc::encode_task_switched_in(b, 160, 1); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_priority_inherit(b, 170, 2, 3); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_to_rdy_state(b, 178, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_switched_in(b, 180, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_priority_disinherit(b, 185, 2, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_suspended(b, 190, 3); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_deleted(b, 195, 2); })
      .add([](std::uint8_t* b) { return tband::enc::encode_task_switched_in(b, 200, 1); });
  return t;
}

}  // namespace tband::test
