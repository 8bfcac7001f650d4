// Generic printing through the reflection tables.
#include <gtest/gtest.h>

#include "decode/event_format.hpp"
#include "tband_events.hpp"

namespace {

TEST(EventFormat, NamesEveryFieldInWireOrder) {
  EXPECT_EQ(tband::format_event(tband::IsrEnter{.ts = 12, .isr_id = 7}), "isr_enter ts=12 isr_id=7");
  EXPECT_EQ(tband::format_event(tband::Valmarker{.ts = 1, .valmarker_id = 2, .val = -500}),
            "valmarker ts=1 valmarker_id=2 val=-500");
  EXPECT_EQ(tband::format_event(tband::QueueKind{.queue_id = 3, .kind = tband::FrQueueKind::FRQK_MUTEX}),
            "queue_kind queue_id=3 kind=FRQK_MUTEX");
}

TEST(EventFormat, QuotesAndEscapesStrings) {
  const std::string name("a\"b\\\0\xFF", 6);
  EXPECT_EQ(tband::format_event(tband::IsrName{.isr_id = 1, .name = name}),
            "isr_name isr_id=1 name=\"a\\\"b\\\\\\x00\\xFF\"");
}

TEST(EventFormat, ReflectionCoversEveryEvent) {
  std::size_t previous_id = 0;
  for (const tband::EventInfo& info : tband::all_event_infos()) {
    EXPECT_EQ(tband::find_event_info(info.id), &info);
    EXPECT_FALSE(info.name.empty());
    EXPECT_FALSE(info.description.empty());
    // Non-metadata events start with the implicit timestamp.
    EXPECT_EQ(!info.fields.empty() && info.fields[0].implicit, !info.is_metadata) << info.name;
    if (&info != &tband::all_event_infos()[0]) {
      EXPECT_GT(info.id, previous_id);
    }
    previous_id = info.id;
  }
  EXPECT_EQ(tband::all_event_infos().size(), tband::kEventCount);
  EXPECT_EQ(tband::find_event_info(0xC8), nullptr);
}

}  // namespace
