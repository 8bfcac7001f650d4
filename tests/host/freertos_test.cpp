// The FreeRTOS mapping on a trace written with the generated encoder: one
// process per task with state, running and priority tracks and task-local
// markers, a "Running task" track per core, queue fill counters and mutex
// holder slices.
#include <gtest/gtest.h>

#include "convert_helper.hpp"
#include "scheduler_trace.hpp"

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

TEST(FreeRtos, RunningTaskTrackPerCoreShowsEveryTaskTheIdleTaskToo) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_running");
  const ViewTrack& core = c.view.track("Running task", "Core 0");
  EXPECT_EQ(slice_names(core), (std::vector<std::string>{"sender", "receiver", "IDLE", "sender", "IDLE"}));
  // The idle task's process says what it is.
  EXPECT_TRUE(c.view.has_track("Running", "IDLE (idle task, core 0)"));
  EXPECT_EQ(core.slices[1].end_ns, 1600u);
  EXPECT_EQ(core.slices[2].begin_ns, 1600u);
  EXPECT_EQ(core.slices[2].end_ns, 1800u);
  EXPECT_EQ(core.slices[3].end_ns, 2000u);
}

// A task that yields with nothing else ready is "switched in" again (every
// yield, on a kernel without preemption): that is no switch.
TEST(FreeRtos, SwitchingInTheRunningTaskAgainChangesNothing) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_name(b, 1, "worker"); })
      .add([](std::uint8_t* b) { return enc::encode_task_name(b, 2, "other"); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 20, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 30, 1); })
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 40, 2); });
  const Converted c = convert_trace(t, "freertos_same_task");
  const ViewTrack& running = c.view.track("Running", "worker");
  ASSERT_EQ(running.slices.size(), 1u);
  EXPECT_EQ(running.slices[0].begin_ns, 10u);
  EXPECT_EQ(running.slices[0].end_ns, 40u);
  EXPECT_EQ(slice_names(c.view.track("State", "worker")), (std::vector<std::string>{"Running on core 0", "Ready"}));
  EXPECT_EQ(slice_names(c.view.track("Running task", "Core 0")), (std::vector<std::string>{"worker", "other"}));
}

TEST(FreeRtos, QueuesAreFillCountersAndMutexesHolderSlices) {
  const Converted c = convert_trace(scheduler_trace(), "freertos_queues");
  EXPECT_EQ(counter_values(c.view.track("jobs fill", "")), (std::vector<std::int64_t>{0, 1, 2, 1, 0}));
  EXPECT_EQ(slice_names(c.view.track("bus_lock holder", "")),
            (std::vector<std::string>{"Available", "Taken by sender", "Available"}));
}

// vQueueAddToRegistry() names a queue after it was created and used: the
// converter describes its track again, and the track must show the final
// name as Perfetto reads it (the view applies the trace processor's rule: a
// track that may merge with its siblings keeps its first name).
TEST(FreeRtos, AQueueNamedAfterItsCreationShowsItsFinalName) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_created(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 10, 1, 0); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 20, 1, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_name(b, 1, "rx"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 30, 1, 2); });
  const Converted c = convert_trace(t, "freertos_queue_renamed");
  EXPECT_FALSE(c.view.has_track("queue 1 fill", "*"));
  EXPECT_EQ(counter_values(c.view.track("rx fill", "")), (std::vector<std::int64_t>{0, 1, 2}));
}

// The kernel creates a mutex empty (the hooks report a fill of 0) and gives
// it at once: it is available from then on, never "taken" by nobody.
TEST(FreeRtos, AMutexIsAvailableOnceTheKernelGivesIt) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_name(b, 1, "lock"); })
      .add([](std::uint8_t* b) { return enc::encode_queue_created(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 1, enc::FrQueueKind::FRQK_MUTEX); })
      .add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 10, 1, 0); })
      .add([](std::uint8_t* b) { return enc::encode_queue_send(b, 10, 1, 1); });
  const Converted c = convert_trace(t, "freertos_mutex_created");
  const ViewTrack& holder = c.view.track("lock holder", "");
  EXPECT_EQ(slice_names(holder), (std::vector<std::string>{"Available"}));
  EXPECT_EQ(holder.slices.at(0).begin_ns, 10u);
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
