// The lab group's descriptor, loaded at run time, decodes every event of the
// composed schema (built-in and lab: every field type, optional fields with
// defaults, enums) exactly like the decoder generated for it.
#include <gtest/gtest.h>

#include "both_ways.hpp"
#include "schema/schema_files.hpp"

namespace tband::test {
namespace {

TEST(LabRuntimeSchema, DecodesEveryEventLikeTheGeneratedDecoder) {
  const auto schema = read_descriptor_file(TBAND_LAB_DESCRIPTOR);
  EXPECT_EQ(schema->trace_id(), kSchemaTraceId);
  EXPECT_EQ(schema->user_groups(), std::vector<std::string>{"lab"});
  ASSERT_EQ(schema->events().size(), all_event_infos().size());
  EXPECT_GT(check_every_event_both_ways(*schema, 60), 10000u);
}

TEST(LabRuntimeSchema, CarriesTheDisplayRules) {
  const auto schema = read_descriptor_file(TBAND_LAB_DESCRIPTOR);
  const DisplayRule& begin = schema->find(LabJobBegin::kId)->display;
  EXPECT_EQ(begin.kind, DisplayKind::kSpanBegin);
  EXPECT_EQ(begin.span_name, "job");
  EXPECT_EQ(begin.key_fields, std::vector<int>{1});
  EXPECT_EQ(begin.name->source, "job {job} {mode}");
  const DisplayRule& speed = schema->find(LabSpeed::kId)->display;
  EXPECT_EQ(speed.kind, DisplayKind::kCounter);
  EXPECT_EQ(speed.value_field, 2);
  EXPECT_EQ(speed.unit, "rpm");
  EXPECT_EQ(schema->find(LabState::kId)->display.place, DisplayPlace::kTask);
  EXPECT_EQ(schema->find(LabLevel::kId)->display.place, DisplayPlace::kCore);
}

}  // namespace
}  // namespace tband::test
