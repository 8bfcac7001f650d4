// Run-time filters (tband_configUSE_FILTERS): an event left out by id, by
// group or by object is not in the trace and not counted as dropped, the
// others are unchanged, every change is traced with the right set, and the
// metadata carries the filter as it stands.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tband.h"
#include "tband_encode.hpp"
#include "tband_port.h"
#include "tband_user_events.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;
namespace enc = tband::enc;

class Filters : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  void TearDown() override { (void)tband_stop_streaming(); }

  /// The core's events after the start's (metadata, core_id), without the
  /// periodic dropped_evt_cnt (its count is checked apart).
  std::vector<std::string> events_after_start(unsigned core = 0) {
    const std::vector<std::string> all = capture.events(core);
    std::vector<std::string> out;
    for (const std::string& e : all) {
      if (e.rfind("core_id ", 0) == 0) {
        out.clear();
      } else if (e.rfind("dropped_evt_cnt ", 0) != 0) {
        out.push_back(e);
      }
    }
    return out;
  }

  TraceCapture capture;
};

TEST_F(Filters, InitialObjectLeftOutAndInMetadata) {
  tband_gather_system_metadata();
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(10);
  tband_evtmarker(7, "hidden");
  tband_evtmarker(8, "shown");
  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::vector<std::string> all = capture.events(0);
  EXPECT_NE(std::find(all.begin(), all.end(), "filter_key_name key=2 name=\"evtmarker_id\""), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), "filter_object_initial object_id=7 key=2"), all.end());
  EXPECT_EQ(events_after_start(), (std::vector<std::string>{"evtmarker ts=10 evtmarker_id=8 msg=\"shown\""}));
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
  EXPECT_FALSE(tband_filter_object_traced(TBAND_FILTER_KEY_EVTMARKER_ID, 7));
  EXPECT_TRUE(tband_filter_object_traced(TBAND_FILTER_KEY_EVTMARKER_ID, 8));
}

TEST_F(Filters, EventIdOffAndOnAgain) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(1);
  EXPECT_EQ(tband_filter_set_event(enc::IsrEnter::kId, false), 0);
  EXPECT_FALSE(tband_filter_event_traced(enc::IsrEnter::kId));
  tband_host_set_time(2);
  tband_isr_enter(3);  // left out
  tband_isr_exit(3);
  tband_host_set_time(3);
  EXPECT_EQ(tband_filter_set_event(enc::IsrEnter::kId, true), 0);
  EXPECT_EQ(tband_filter_set_event(enc::IsrEnter::kId, true), 0);  // no change: no event
  tband_isr_enter(4);
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(events_after_start(), (std::vector<std::string>{
                                      "filter_ids ts=1 word=0 enabled=4294967279",  // bit 4 (isr_enter) clear
                                      "isr_exit ts=2 isr_id=3",
                                      "filter_ids ts=3 word=0 enabled=4294967295",
                                      "isr_enter ts=3 isr_id=4",
                                  }));
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u) << "filtered events are not drops";
}

TEST_F(Filters, FilterEventsAndReportsCannotBeLeftOut) {
  EXPECT_EQ(tband_filter_set_event(enc::FilterIds::kId, false), -1);
  EXPECT_EQ(tband_filter_set_event(enc::DroppedEvtCnt::kId, false), -1);
  EXPECT_EQ(tband_filter_set_all(false), 0);
  EXPECT_TRUE(tband_filter_event_traced(enc::FilterIds::kId));
  EXPECT_TRUE(tband_filter_event_traced(enc::FilterObjectOff::kId));
  EXPECT_FALSE(tband_filter_event_traced(enc::Valmarker::kId));
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_valmarker(1, 5);
  tband_isr_enter(1);
  tband_evtmarker_name(9, "names pass");  // metadata is never filtered
  EXPECT_EQ(tband_filter_set_all(true), 0);
  tband_valmarker(1, 6);
  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::vector<std::string> events = events_after_start();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back(), "valmarker ts=0 valmarker_id=1 val=6");
  EXPECT_NE(std::find(events.begin(), events.end(), "evtmarker_name evtmarker_id=9 name=\"names pass\""), events.end());
  for (const std::string& e : events) {
    EXPECT_NE(e, "valmarker ts=0 valmarker_id=1 val=5");
    EXPECT_NE(e.rfind("isr_enter", 0), 0u) << e;
  }
}

TEST_F(Filters, GroupsComeFromTheSchema) {
  EXPECT_EQ(tband_filter_find_group("key:isr_id"), TBAND_FILTER_GROUP_KEY_ISR_ID);
  EXPECT_EQ(tband_filter_find_group("base"), TBAND_FILTER_GROUP_BASE);
  EXPECT_EQ(tband_filter_find_group("nope"), -1);
  EXPECT_EQ(tband_filter_set_group(enc::kFilterGroupCount, false), -1);
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(tband_filter_set_group(TBAND_FILTER_GROUP_KEY_ISR_ID, false), 0);
  tband_isr_enter(1);
  tband_isr_exit(1);
  tband_evtmarker(8, "m");
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(events_after_start(), (std::vector<std::string>{
                                      "filter_ids ts=0 word=0 enabled=4294967247",  // bits 4 and 5 clear
                                      "evtmarker ts=0 evtmarker_id=8 msg=\"m\"",
                                  }));
}

TEST_F(Filters, ObjectsOffOnAndTableFull) {
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 3, false), 0);
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 3, false), 0);  // already: no event
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 4, false), 0);
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 5, false), -2) << "3 entries, one the initial marker 7";
  EXPECT_EQ(tband_filter_set_object(0, 5, false), -1);
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 1u << 24, false), -1);
  tband_isr_enter(3);
  tband_isr_enter(4);
  tband_isr_enter(5);
  tband_valmarker(3, 1);  // another key, same object id: traced
  EXPECT_EQ(tband_filter_set_object(TBAND_FILTER_KEY_ISR_ID, 3, true), 0);
  tband_isr_exit(3);
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(events_after_start(), (std::vector<std::string>{
                                      "filter_object_off ts=0 object_id=3 key=1",
                                      "filter_object_off ts=0 object_id=4 key=1",
                                      "isr_enter ts=0 isr_id=5",
                                      "valmarker ts=0 valmarker_id=3 val=1",
                                      "filter_object_on ts=0 object_id=3 key=1",
                                      "isr_exit ts=0 isr_id=3",
                                  }));
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
}

TEST_F(Filters, OtherCoreSeesTheFilter) {
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(tband_filter_set_event(enc::Valmarker::kId, false), 0);
  tband_host_set_core_id(1);
  tband_valmarker(2, 1);
  tband_isr_enter(2);
  tband_host_set_core_id(0);
  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::vector<std::string> core1 = capture.events(1);
  EXPECT_EQ(std::count(core1.begin(), core1.end(), "isr_enter ts=0 isr_id=2"), 1);
  EXPECT_EQ(std::count(core1.begin(), core1.end(), "valmarker ts=0 valmarker_id=2 val=1"), 0);
}

}  // namespace
