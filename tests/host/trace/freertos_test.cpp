// The FreeRTOS mapping on a trace written with the generated encoder: one
// process per task with state, running and priority tracks and task-local
// markers, a "Running task" track per core, queue fill counters and mutex
// holder slices. Most tests check the model in memory (model_harness.hpp);
// one reads the .pftrace back for what Perfetto itself makes of a rename.
#include <gtest/gtest.h>

#include "convert_helper.hpp"
#include "model_harness.hpp"
#include "scheduler_trace.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

std::vector<std::int64_t> counter_values(const ViewTrack& t) {
  std::vector<std::int64_t> values;
  for (const auto& [ts, v] : t.counter) values.push_back(v);
  return values;
}

using Names = std::vector<std::string>;
using Values = std::vector<double>;

TEST(FreeRtos, TasksBecomeProcessesWithStateRunningAndPriorityTracks) {
  const Model m{scheduler_trace()};
  EXPECT_TRUE(m.sink.errors.empty());
  EXPECT_EQ(m.diagnostics.total(), 0u) << m.diagnostics.summary();

  const RecordedTrack& sender_state = m.sink.track("State", "sender");
  EXPECT_EQ(sender_state.slice_names(), (Names{"Ready", "Running on core 0", "Blocked: delay 50 ticks", "Ready",
                                               "Running on core 0", "Deleted"}));
  EXPECT_EQ(sender_state.slices[1].begin_ns, 1000u);
  EXPECT_EQ(sender_state.slices[1].end_ns, 1300u);

  const RecordedTrack& receiver_state = m.sink.track("State", "receiver");
  EXPECT_EQ(receiver_state.slice_names(),
            (Names{"Ready", "Running on core 0", "Blocked: receive from jobs", "Suspended by sender"}));

  const RecordedTrack& running = m.sink.track("Running", "sender");
  ASSERT_EQ(running.slices.size(), 2u);
  EXPECT_EQ(running.slices[0].begin_ns, 1000u);
  EXPECT_EQ(running.slices[0].end_ns, 1300u);

  EXPECT_EQ(m.sink.track("Priority", "sender").counter_values(), (Values{2, 3, 2}));
}

TEST(FreeRtos, RunningTaskTrackPerCoreShowsEveryTaskTheIdleTaskToo) {
  const Model m{scheduler_trace()};
  const RecordedTrack& core = m.sink.track("Running task", "Core 0");
  EXPECT_EQ(core.slice_names(), (Names{"sender", "receiver", "IDLE", "sender", "IDLE"}));
  // The idle task's process says what it is.
  EXPECT_TRUE(m.sink.has_track("Running", "IDLE (idle task, core 0)"));
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
  const Model m{t};
  const RecordedTrack& running = m.sink.track("Running", "worker");
  ASSERT_EQ(running.slices.size(), 1u);
  EXPECT_EQ(running.slices[0].begin_ns, 10u);
  EXPECT_EQ(running.slices[0].end_ns, 40u);
  EXPECT_EQ(m.sink.track("State", "worker").slice_names(), (Names{"Running on core 0", "Ready"}));
  EXPECT_EQ(m.sink.track("Running task", "Core 0").slice_names(), (Names{"worker", "other"}));
}

TEST(FreeRtos, QueuesAreFillCountersAndMutexesHolderSlices) {
  const Model m{scheduler_trace()};
  EXPECT_EQ(m.sink.track("jobs fill", "").counter_values(), (Values{0, 1, 2, 1, 0}));
  EXPECT_EQ(m.sink.track("bus_lock holder", "").slice_names(), (Names{"Available", "Taken by sender", "Available"}));
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
  const Model m{t};
  const RecordedTrack& holder = m.sink.track("lock holder", "");
  EXPECT_EQ(holder.slice_names(), (Names{"Available"}));
  EXPECT_EQ(holder.slices.at(0).begin_ns, 10u);
}

TEST(FreeRtos, TaskLocalMarkersLiveInTheirTasksProcess) {
  const Model m{scheduler_trace()};
  const RecordedTrack& produce = m.sink.track("produce", "sender");
  ASSERT_EQ(produce.slices.size(), 1u);
  EXPECT_EQ(produce.slices[0].name, "batch");
  EXPECT_EQ(produce.slices[0].end_ns, 1260u);
  EXPECT_EQ(m.sink.track("backlog", "receiver").counter_values(), (Values{1, 0}));
}

TEST(FreeRtos, CurrentTaskEventsBeforeAnySwitchAreDiagnosed) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_curtask_delay(b, 5, 10); })
      .add([](std::uint8_t* b) { return enc::encode_task_evtmarker(b, 6, 1, "x"); });
  const Model m{t};
  EXPECT_EQ(m.diagnostics.count(DiagnosticKind::kNoCurrentTask), 2u);
}

TEST(FreeRtos, BareMetalModeShowsFreeRtosEventsAsPlainEventsAndWarns) {
  InterpreterOptions options;
  options.mode = TraceMode::kBareMetal;
  const Model m{scheduler_trace(), options};
  EXPECT_EQ(m.diagnostics.count(DiagnosticKind::kWrongMode), 1u);
  EXPECT_FALSE(m.sink.has_track("State", "sender"));
  const RecordedTrack& other = m.sink.track("Other events", "Core 0");
  bool found = false;
  for (const RecordedInstant& i : other.instants) {
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
