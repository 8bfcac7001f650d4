// SyncObjectTracker on its own: queues, locks, flags, buffers, timers, pools
// and sets as an importer (FreeRTOS today, ThreadX next) drives them,
// checked through a RecordingSink and a counting observer.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "recording_sink.hpp"
#include "trace/sync_object_tracker.hpp"
#include "trace/timeline.hpp"
#include "trace/trace_observer.hpp"

namespace tband::test {
namespace {

class QueueObserver final : public NullObserver {
 public:
  Index add_queue() override { return queues++; }
  void name_queue(Index queue, std::string name, bool mutex) override {
    named.emplace_back(queue, name + (mutex ? " (mutex)" : ""));
  }
  Index queues = 0;
  std::vector<std::pair<Index, std::string>> named;
};

struct SyncObjectTrackerTest : ::testing::Test {
  NameTable names;
  Timeline timeline{names};
  RecordingSink sink{names};
  QueueObserver observer;
  struct Extra {
    bool lock = false;
  };
  SyncObjectTracker<Extra> syncs{timeline, observer};
  SyncObjectTrackerTest() { timeline.add_sink(sink); }
};

TEST_F(SyncObjectTrackerTest, LevelsAreCountersNamedByFamilyAndRenamedWhenTheObjectIsNamed) {
  syncs.level(SyncFamily::kQueue, 3, 10, 1);
  syncs.level(SyncFamily::kQueue, 3, 20, 2);
  syncs.level(SyncFamily::kEventFlags, 3, 15, 0x05);  // another family: its own id space
  syncs.object(SyncFamily::kBuffer, 2).kind_name = "message buffer";
  syncs.level(SyncFamily::kBuffer, 2, 16, 40);
  syncs.level(SyncFamily::kPool, 9, 17, 4);

  EXPECT_EQ(sink.track("queue 3 fill", "").counter,
            (std::vector<std::pair<std::uint64_t, double>>{{10, 1.0}, {20, 2.0}}));
  EXPECT_EQ(sink.track("event group 3 bits", "").counter.at(0).second, 5.0);
  EXPECT_EQ(sink.track("message buffer 2 fill", "").counter.at(0).second, 40.0);
  EXPECT_EQ(sink.track("pool 9 in use", "").counter.at(0).second, 4.0);

  syncs.name(SyncFamily::kQueue, 3, "rx");
  EXPECT_TRUE(sink.has_track("rx fill", ""));
  EXPECT_FALSE(sink.has_track("queue 3 fill"));
  EXPECT_EQ(syncs.label(SyncFamily::kQueue, 3), "rx");
  EXPECT_EQ(syncs.label(SyncFamily::kEventFlags, 3), "event group 3");
  EXPECT_EQ(syncs.label(SyncFamily::kQueue, 77), "queue 77");  // never met
  EXPECT_TRUE(sink.errors.empty());
}

TEST_F(SyncObjectTrackerTest, AnImporterNamesFamiliesInItsOwnWords) {
  syncs.style(SyncFamily::kEventFlags) = {"event flags", " flags", " (event flags)"};
  syncs.level(SyncFamily::kEventFlags, 1, 5, 3);
  EXPECT_TRUE(sink.has_track("event flags 1 flags", ""));
}

TEST_F(SyncObjectTrackerTest, ALockShowsItsHolderAndANotYetGivenLockShowsNothing) {
  syncs.unheld(SyncFamily::kQueue, 4, 1);  // created empty, not given yet
  syncs.hold(SyncFamily::kQueue, 4, 2, std::nullopt);
  syncs.hold(SyncFamily::kQueue, 4, 5, std::string{"worker"});
  syncs.hold(SyncFamily::kQueue, 4, 9, std::nullopt);
  syncs.name(SyncFamily::kQueue, 4, "bus lock");

  const RecordedTrack& holder = sink.track("bus lock holder", "");
  EXPECT_EQ(holder.slice_names(), (std::vector<std::string>{"Available", "Taken by worker", "Available"}));
  EXPECT_EQ(holder.slices[0].begin_ns, 2u);
  EXPECT_EQ(holder.slices[0].end_ns, 5u);
  EXPECT_EQ(holder.slices[1].end_ns, 9u);
  EXPECT_FALSE(holder.slices[2].end_ns.has_value());
  EXPECT_TRUE(sink.errors.empty());
}

TEST_F(SyncObjectTrackerTest, AnObjectThatTurnsOutToBeALockGetsAHolderTrackAndTheOpenSliceEnds) {
  syncs.hold(SyncFamily::kQueue, 1, 3, std::nullopt);
  syncs.level(SyncFamily::kQueue, 1, 8, 1);  // now a counter after all
  const RecordedTrack& holder = sink.track("queue 1 holder", "");
  ASSERT_EQ(holder.slices.size(), 1u);
  EXPECT_EQ(holder.slices[0].end_ns, 8u);
  EXPECT_EQ(sink.track("queue 1 fill", "").counter.at(0).first, 8u);
  syncs.name(SyncFamily::kQueue, 1, "q");
  EXPECT_TRUE(sink.has_track("q fill", ""));  // the current track is renamed, with its suffix
}

TEST_F(SyncObjectTrackerTest, ActivitiesEndOneAnotherAndInstantsShareTheEventsTrack) {
  syncs.events_track(SyncFamily::kTimer, 6);
  syncs.activity_begin(SyncFamily::kTimer, 6, 10, "Active, period 5 ticks");
  syncs.instant(SyncFamily::kTimer, 6, 15, "expired");
  syncs.activity_begin(SyncFamily::kTimer, 6, 16, "Active, period 7 ticks");  // a period change
  syncs.activity_end(SyncFamily::kTimer, 6, 20);
  syncs.activity_end(SyncFamily::kTimer, 6, 21);  // nothing open: nothing happens
  syncs.name(SyncFamily::kTimer, 6, "blink");

  const RecordedTrack& timer = sink.track("blink (timer)", "");
  EXPECT_EQ(timer.slice_names(), (std::vector<std::string>{"Active, period 5 ticks", "Active, period 7 ticks"}));
  EXPECT_EQ(timer.slices[0].end_ns, 16u);
  EXPECT_EQ(timer.slices[1].end_ns, 20u);
  EXPECT_EQ(timer.instant_names(), (std::vector<std::string>{"expired"}));
  EXPECT_TRUE(sink.errors.empty());
}

TEST_F(SyncObjectTrackerTest, AMemberBelongsToOneSetAtATime) {
  syncs.join_set(SyncFamily::kQueue, 10, 1, 5);
  syncs.join_set(SyncFamily::kQueue, 10, 1, 6);  // known already: no new slice
  syncs.join_set(SyncFamily::kQueue, 11, 1, 8);  // moved (removed untraced)
  syncs.leave_set(syncs.object(SyncFamily::kQueue, 1), 9);

  const RecordedTrack& member = sink.track("queue 1 set membership", "");
  EXPECT_EQ(member.slice_names(), (std::vector<std::string>{"in set queue 10", "in set queue 11"}));
  EXPECT_EQ(member.slices[0].end_ns, 8u);
  EXPECT_EQ(member.slices[1].end_ns, 9u);
  EXPECT_EQ(syncs.object(SyncFamily::kQueue, 1).in_set, 0u);
  EXPECT_TRUE(sink.errors.empty());
}

TEST_F(SyncObjectTrackerTest, UnnamedObjectsAreThoseWithTheirMainTrackAndQueuesAreObserved) {
  syncs.level(SyncFamily::kQueue, 1, 1, 0);
  syncs.name(SyncFamily::kQueue, 2, "named");   // named, never used: counted (a row of zeros)
  syncs.instant(SyncFamily::kQueue, 3, 2, "x");  // a set's events alone are no main track
  syncs.object(SyncFamily::kQueue, 4).lock = true;
  syncs.events_track(SyncFamily::kTimer, 5);     // a timer's main track is its events
  syncs.level(SyncFamily::kEventFlags, 6, 1, 0);

  std::vector<std::string> unnamed;
  for (SyncFamily f : {SyncFamily::kQueue, SyncFamily::kEventFlags, SyncFamily::kTimer}) {
    syncs.each_unnamed(f, [&](const std::string& label) { unnamed.push_back(label); });
  }
  EXPECT_EQ(unnamed, (std::vector<std::string>{"queue 1", "event group 6", "timer 5"}));

  EXPECT_EQ(observer.queues, 4);  // queues 1 to 4, not the other families
  syncs.name_observed([](const auto& o) { return o.lock; });
  EXPECT_EQ(observer.named, (std::vector<std::pair<TraceObserver::Index, std::string>>{
                                {0, "queue 1"}, {1, "named"}, {2, "queue 3"}, {3, "queue 4 (mutex)"}}));
}

}  // namespace
}  // namespace tband::test
