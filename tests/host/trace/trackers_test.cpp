// The trace model's RTOS-neutral trackers on their own, driven directly and
// checked through a RecordingSink and a recording observer: what an importer
// (FreeRTOS today, ThreadX next) can rely on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recording_sink.hpp"
#include "trace/isr_tracker.hpp"
#include "trace/marker_tracker.hpp"
#include "trace/thread_tracker.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband::test {
namespace {

using Names = std::vector<std::string>;

/// Counts what a tracker tells its observer, by name.
class CountingObserver final : public NullObserver {
 public:
  Index add_isr(std::uint32_t) override { return isrs++; }
  Index add_marker(Index owner) override {
    marker_owners.push_back(owner);
    return markers++;
  }
  Index add_value(Index) override { return values++; }
  void isr_enter(Index, std::uint32_t, std::uint64_t) override { ++isr_enters; }
  void isr_exit(Index, std::uint32_t, std::uint64_t) override { ++isr_exits; }
  void span_begin(Index, std::uint64_t) override { ++span_begins; }
  void span_end(Index, std::uint64_t) override { ++span_ends; }
  void value(Index, std::uint64_t, std::int64_t v) override { samples.push_back(v); }
  void name_isr(Index, std::string name) override { isr_names.push_back(std::move(name)); }
  void name_marker(Index, std::string name) override { marker_names.push_back(std::move(name)); }
  void name_value(Index, std::string name) override { value_names.push_back(std::move(name)); }

  Index isrs = 0, markers = 0, values = 0;
  std::vector<Index> marker_owners;
  int isr_enters = 0, isr_exits = 0, span_begins = 0, span_ends = 0;
  std::vector<std::int64_t> samples;
  Names isr_names, marker_names, value_names;
};

struct Fixture : ::testing::Test {
  NameTable names;
  Timeline timeline{names};
  RecordingSink sink{names};
  CountingObserver observer;
  Fixture() { timeline.add_sink(sink); }
};

using IsrTrackerTest = Fixture;
using MarkerTrackerTest = Fixture;
using ThreadTrackerTest = Fixture;

TEST_F(IsrTrackerTest, HandlersNestPerCoreInTheirCoresProcess) {
  IsrTracker isrs{timeline, observer};
  isrs.add_core(0, timeline.add_process("Core 0", 1));
  isrs.add_core(1, timeline.add_process("Core 1", 2));
  isrs.name(0, 7, "uart");  // before first use
  isrs.enter(0, 7, 10);
  isrs.enter(0, 3, 12);  // nested
  isrs.enter(1, 7, 13);  // another core's handler 7
  EXPECT_TRUE(isrs.exit(0, 3, 14));
  EXPECT_TRUE(isrs.exit(0, 7, 20));
  EXPECT_FALSE(isrs.exit(0, 7, 21));  // nothing open: left to the importer to report
  EXPECT_TRUE(sink.errors.empty());

  const RecordedTrack& uart = sink.track("uart", "Core 0");
  ASSERT_EQ(uart.slices.size(), 1u);
  EXPECT_EQ(uart.slices[0].begin_ns, 10u);
  EXPECT_EQ(uart.slices[0].end_ns, 20u);
  EXPECT_EQ(sink.track("ISR 3", "Core 0").slices.at(0).end_ns, 14u);
  EXPECT_FALSE(sink.track("ISR 7", "Core 1").slices.at(0).end_ns.has_value());
  EXPECT_EQ(isrs.label(1, 7), "ISR 7");
  EXPECT_EQ(observer.isr_enters, 3);
  EXPECT_EQ(observer.isr_exits, 2);
}

TEST_F(IsrTrackerTest, ANameAfterFirstUseRenamesTheTrackAndUnnamedOnesAreListed) {
  IsrTracker isrs{timeline, observer};
  isrs.add_core(0, timeline.add_process("Core 0", 1));
  isrs.enter(0, 1, 10);
  isrs.name(0, 1, "timer");
  isrs.enter(0, 2, 11);
  isrs.name(0, 9, "never used");
  EXPECT_TRUE(sink.has_track("timer", "Core 0"));
  EXPECT_FALSE(sink.has_track("ISR 1"));

  std::vector<std::uint32_t> unnamed;
  isrs.each_unnamed([&](std::uint32_t core, std::uint32_t id) {
    EXPECT_EQ(core, 0u);
    unnamed.push_back(id);
  });
  EXPECT_EQ(unnamed, (std::vector<std::uint32_t>{2}));

  isrs.observe_names();
  isrs.observe_unused();
  EXPECT_EQ(observer.isr_names, (Names{"timer", "ISR 2", "never used"}));
  EXPECT_EQ(observer.isrs, 3u);  // the unused one gets a row too
}

TEST_F(MarkerTrackerTest, SpansInstantsAndValuesOnGlobalTracks) {
  MarkerTracker markers{timeline, observer};
  MarkerScope global;
  markers.name_marker(global, 1, "frame");
  markers.begin(global, 1, 100, "");
  markers.begin(global, 1, 110, "inner");  // a message names the span
  EXPECT_TRUE(markers.end(global, 1, 120));
  EXPECT_TRUE(markers.end(global, 1, 130));
  EXPECT_FALSE(markers.end(global, 1, 140));
  markers.instant(global, 2, 150, "tick");
  markers.value(global, 5, 160, -3);
  markers.value(global, 5, 170, 4);

  const RecordedTrack& frame = sink.track("frame", "");
  EXPECT_EQ(frame.slice_names(), (Names{"frame", "inner"}));
  EXPECT_EQ(frame.slices[0].end_ns, 130u);
  EXPECT_EQ(frame.slices[1].end_ns, 120u);
  EXPECT_EQ(sink.track("evtmarker 2", "").instant_names(), (Names{"tick"}));
  EXPECT_EQ(sink.track("valmarker 5", "").counter_values(), (std::vector<double>{-3, 4}));
  EXPECT_EQ(observer.span_begins, 2);
  EXPECT_EQ(observer.span_ends, 2);
  EXPECT_EQ(observer.samples, (std::vector<std::int64_t>{-3, 4}));
  EXPECT_EQ(markers.marker_label(global, 2), "evtmarker 2");

  std::vector<std::string> unnamed;
  MarkerTracker::each_unnamed(global, [&](std::string_view what, std::uint32_t id) {
    unnamed.push_back(std::string{what} + " " + std::to_string(id));
  });
  EXPECT_EQ(unnamed, (Names{"event marker 2", "value marker 5"}));
}

TEST_F(MarkerTrackerTest, AThreadsMarkersLiveInItsProcessAndBelongToIt) {
  MarkerTracker markers{timeline, observer};
  MarkerScope thread;
  thread.parent = timeline.add_process("worker", 1000);
  thread.owner = 42;
  markers.name_value(thread, 3, "backlog");
  markers.name_value(thread, 4, "never used");
  markers.value(thread, 3, 10, 1);
  markers.begin(thread, 1, 20, "");
  markers.name_marker(thread, 1, "produce");  // renames the track

  EXPECT_EQ(sink.track("backlog", "worker").counter_values(), (std::vector<double>{1}));
  EXPECT_EQ(sink.track("produce", "worker").slices.size(), 1u);
  EXPECT_EQ(observer.marker_owners, (std::vector<TraceObserver::Index>{42}));

  markers.observe_names(thread);
  markers.observe_unused(thread);
  EXPECT_EQ(observer.marker_names, (Names{"produce"}));
  EXPECT_EQ(observer.value_names, (Names{"backlog", "never used"}));
}

TEST_F(ThreadTrackerTest, SwitchingInEndsThePreviousRunWithItsSwitchedOutState) {
  ThreadTracker<> threads{timeline, observer, "thread"};
  threads.add_core(0, timeline.add_process("Core 0", 1));
  threads.thread(1).name = "main";  // made as "thread 1": renaming its process is the importer's
  EXPECT_NE(threads.switch_in(0, 1, 10), nullptr);
  threads.thread(1).switched_out_state = {TaskStateKind::kBlocked, 0, "sleep"};
  EXPECT_NE(threads.switch_in(0, 2, 20), nullptr);
  EXPECT_EQ(threads.switch_in(0, 2, 25), nullptr);  // already running there: no switch
  threads.set_state(threads.thread(1), 30, {});
  threads.set_state(threads.thread(1), 31, {});  // the same state: nothing new
  threads.set_priority(2, 40, 5);

  EXPECT_EQ(threads.running(0), std::optional<std::uint32_t>{2});
  EXPECT_EQ(threads.label(2), "thread 2");
  EXPECT_EQ(sink.track("State", "thread 1").slice_names(), (Names{"Running on core 0", "Blocked: sleep", "Ready"}));
  const RecordedTrack& running = sink.track("Running", "thread 1");
  ASSERT_EQ(running.slices.size(), 1u);
  EXPECT_EQ(running.slices[0].end_ns, 20u);
  EXPECT_EQ(sink.track("Running task", "Core 0").slice_names(), (Names{"main", "thread 2"}));
  EXPECT_EQ(sink.track("Priority", "thread 2").counter_values(), (std::vector<double>{5}));
}

TEST(TaskState, TextSaysTheKindAndItsDetail) {
  EXPECT_EQ((TaskState{}.text()), "Ready");
  EXPECT_EQ((TaskState{TaskStateKind::kRunning, 3, {}}.text()), "Running on core 3");
  EXPECT_EQ((TaskState{TaskStateKind::kBlocked, 0, "delay 5 ticks"}.text()), "Blocked: delay 5 ticks");
  EXPECT_EQ((TaskState{TaskStateKind::kSuspended, 0, {}}.text()), "Suspended");
  EXPECT_EQ((TaskState{TaskStateKind::kDeleted, 0, "main"}.text()), "Deleted by main");
}

// The timeline calls a sole sink directly and several in a loop: both see
// the same calls, in order; a table name wins over the text passed with it.
TEST(TimelineTest, EverySinkSeesEveryCallTheSameWay) {
  NameTable names;
  auto drive = [&names](Timeline& timeline) {
    const TrackId process = timeline.add_process("Core 0", 1);
    const TrackId slices = timeline.add_track(process, TrackKind::kSlices, "spans");
    const TrackId counter = timeline.add_track(process, TrackKind::kCounter, "level");
    timeline.slice_begin(10, slices, names.intern("named"), {}, "named");  // text passed along, name wins
    timeline.slice_begin(11, slices, kLiteralName, {}, "literal");
    timeline.slice_end(12, slices);
    timeline.slice_end(13, slices);
    timeline.instant(14, slices, names.intern("tick"));
    timeline.counter(15, counter, 7);
    timeline.counter_double(16, counter, 0.5);
  };
  Timeline alone{names};
  RecordingSink sole{names};
  alone.add_sink(sole);
  drive(alone);
  Timeline both{names};
  RecordingSink first{names}, second{names};
  both.add_sink(first);
  both.add_sink(second);
  drive(both);

  for (const RecordingSink* sink : {&sole, &first, &second}) {
    EXPECT_TRUE(sink->errors.empty());
    const RecordedTrack& spans = sink->track("spans", "Core 0");
    EXPECT_EQ(spans.slice_names(), (Names{"named", "literal"}));
    EXPECT_EQ(spans.slices.at(0).end_ns, 13u);  // the outer one ends last
    EXPECT_EQ(spans.slices.at(1).end_ns, 12u);
    EXPECT_EQ(spans.instant_names(), Names{"tick"});
    EXPECT_EQ(sink->track("level", "Core 0").counter_values(), (std::vector<double>{7, 0.5}));
  }
}

}  // namespace
}  // namespace tband::test
