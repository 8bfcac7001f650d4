// The FreeRTOS mapping on a trace written with the generated encoder: one
// process per task with state, running and priority tracks and task-local
// markers, a "Running task" track per core, queue fill counters and mutex
// holder slices.
#include <gtest/gtest.h>

#include "convert_helper.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

std::vector<std::string> slice_names(const ViewTrack& t) {
  std::vector<std::string> names;
  for (const ViewSlice& s : t.slices) names.push_back(s.name);
  return names;
}

std::vector<std::int64_t> counter_values(const ViewTrack& t) {
  std::vector<std::int64_t> values;
  for (const auto& [ts, v] : t.counter) values.push_back(v);
  return values;
}

// IDLE (1), sender (2, priority 2), receiver (3, priority 1); queue "jobs"
// (10) and mutex "bus_lock" (11). 10 ns per tick.
TraceBuilder scheduler_trace() {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return enc::encode_task_name(b, 1, "IDLE"); })
      .add([](std::uint8_t* b) { return enc::encode_task_is_idle_task(b, 1, 0); })
      .add([](std::uint8_t* b) { return enc::encode_task_name(b, 2, "sender"); })
      .add([](std::uint8_t* b) { return enc::encode_task_name(b, 3, "receiver"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_name(b, 10, "jobs"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 10, enc::FrQueueKind::FRQK_QUEUE); })
      .add([](std::uint8_t* b) { return enc::encode_queue_name(b, 11, "bus_lock"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 11, enc::FrQueueKind::FRQK_MUTEX); })
      .add([](std::uint8_t* b) { return enc::encode_task_evtmarker_name(b, 5, 2, "produce"); })
      .add([](std::uint8_t* b) { return enc::encode_task_valmarker_name(b, 6, 3, "backlog"); })
      .add([](std::uint8_t* b) { return enc::encode_task_created(b, 10, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_priority_set(b, 11, 2, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_created(b, 12, 3); })
      .add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 15, 10, 0); })
      .add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 16, 11, 1); })
      // sender: takes the mutex, sends twice, gives the mutex, delays
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 100, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_evtmarker_begin(b, 101, 5, "batch"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 102, 11, 0); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 110, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 120, 10, 2); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 125, 11, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_evtmarker_end(b, 126, 5); })
      .add([](std::uint8_t* b) { return enc::encode_task_to_rdy_state(b, 127, 3); })
      .add([](std::uint8_t* b) { return enc::encode_curtask_delay(b, 128, 50); })
      // receiver: drains the queue, blocks on it
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 130, 3); })
      .add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 140, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_valmarker(b, 141, 6, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 150, 10, 0); })
      .add([](std::uint8_t* b) { return enc::encode_task_valmarker(b, 151, 6, 0); })
      .add([](std::uint8_t* b) { return enc::encode_curtask_block_on_queue_receive(b, 155, 10, 100); })
      // idle; the sender wakes (priority inherited meanwhile) and deletes itself
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 160, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_priority_inherit(b, 170, 2, 3); })
      .add([](std::uint8_t* b) { return enc::encode_task_to_rdy_state(b, 178, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 180, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_priority_disinherit(b, 185, 2, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_suspended(b, 190, 3); })
      .add([](std::uint8_t* b) { return enc::encode_task_deleted(b, 195, 2); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 200, 1); });
  return t;
}

TEST(FreeRtos, TasksBecomeProcessesWithStateRunningAndPriorityTracks) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_tasks");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();

  const ViewTrack& sender_state = c.view.track("State", "sender");
  EXPECT_EQ(slice_names(sender_state),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: delay 50 ticks", "Ready",
                                      "Running on core 0", "Deleted"}));
  EXPECT_EQ(sender_state.slices[1].begin_ns, 1000u);
  EXPECT_EQ(sender_state.slices[1].end_ns, 1300u);

  const ViewTrack& receiver_state = c.view.track("State", "receiver");
  EXPECT_EQ(slice_names(receiver_state),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from jobs",
                                      "Suspended by sender"}));

  const ViewTrack& running = c.view.track("Running", "sender");
  ASSERT_EQ(running.slices.size(), 2u);
  EXPECT_EQ(running.slices[0].begin_ns, 1000u);
  EXPECT_EQ(running.slices[0].end_ns, 1300u);

  EXPECT_EQ(counter_values(c.view.track("Priority", "sender")), (std::vector<std::int64_t>{2, 3, 2}));
}

TEST(FreeRtos, RunningTaskTrackPerCoreSkipsTheIdleTask) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_running");
  const ViewTrack& core = c.view.track("Running task", "Core 0");
  EXPECT_EQ(slice_names(core), (std::vector<std::string>{"sender", "receiver", "sender"}));
  EXPECT_EQ(core.slices[1].end_ns, 1600u);  // idle takes over: no slice
  EXPECT_EQ(core.slices[2].end_ns, 2000u);
}

TEST(FreeRtos, QueuesAreFillCountersAndMutexesHolderSlices) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_queues");
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0}));
  EXPECT_EQ(slice_names(c.view.track("bus_lock holder", "")),
            (std::vector<std::string>{"Available", "Taken by sender", "Available"}));
}

TEST(FreeRtos, TaskLocalMarkersLiveInTheirTasksProcess) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_markers");
  const ViewTrack& produce = c.view.track("produce", "sender");
  ASSERT_EQ(produce.slices.size(), 1u);
  EXPECT_EQ(produce.slices[0].name, "batch");
  EXPECT_EQ(produce.slices[0].end_ns, 1260u);
  EXPECT_EQ(counter_values(c.view.track("backlog", "receiver")), (std::vector<std::int64_t>{1, 0}));
}

TEST(FreeRtos, CurrentTaskEventsBeforeAnySwitchAreDiagnosed) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_curtask_delay(b, 5, 10); })
      .add([](std::uint8_t* b) { return enc::encode_task_evtmarker(b, 6, 1, "x"); });
  const Converted c = convert_trace(t, "freertos_no_task");
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kNoCurrentTask), 2u);
}

TEST(FreeRtos, BareMetalModeShowsFreeRtosEventsAsPlainEventsAndWarns) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_as_bare_metal", TraceMode::kBareMetal);
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kWrongMode), 1u);
  EXPECT_FALSE(c.view.has_track("State", "sender"));
  const ViewTrack& other = c.view.track("Other events", "Core 0");
  bool found = false;
  for (const ViewInstant& i : other.instants) {
    if (i.name == "queue_send" && i.ts_ns == 1100) {
      found = true;
      EXPECT_EQ(i.args.at("queue_id"), "10");
      EXPECT_EQ(i.args.at("len_after"), "1");
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace tband::test
