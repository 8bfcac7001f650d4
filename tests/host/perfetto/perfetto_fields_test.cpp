// The writer's field numbers and enum values (host/perfetto/perfetto_fields.hpp)
// against the classes protoc generates from perfetto_trace.proto: the writer
// itself does not see libprotobuf, this test holds it to Perfetto's .proto.
// Every constant of perfetto_fields.hpp has its line here; a wrong number
// fails the build of this test.
#include <gtest/gtest.h>

#include "perfetto/perfetto_fields.hpp"
#include "perfetto_trace.pb.h"

namespace tband {
namespace {

namespace pb = perfetto::protos;

static_assert(pf::Trace::kPacket == pb::Trace::kPacketFieldNumber);
static_assert(pf::TracePacket::kTimestamp == pb::TracePacket::kTimestampFieldNumber);
static_assert(pf::TracePacket::kTimestampClockId == pb::TracePacket::kTimestampClockIdFieldNumber);
static_assert(pf::TracePacket::kTrackEvent == pb::TracePacket::kTrackEventFieldNumber);
static_assert(pf::TracePacket::kTrackDescriptor == pb::TracePacket::kTrackDescriptorFieldNumber);
static_assert(pf::TracePacket::kClockSnapshot == pb::TracePacket::kClockSnapshotFieldNumber);
static_assert(pf::TracePacket::kTrustedPacketSequenceId == pb::TracePacket::kTrustedPacketSequenceIdFieldNumber);
static_assert(pf::TracePacket::kInternedData == pb::TracePacket::kInternedDataFieldNumber);
static_assert(pf::TracePacket::kSequenceFlags == pb::TracePacket::kSequenceFlagsFieldNumber);
static_assert(pf::TracePacket::kTracePacketDefaults == pb::TracePacket::kTracePacketDefaultsFieldNumber);
static_assert(pf::TracePacket::kSeqIncrementalStateCleared == pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
static_assert(pf::TracePacket::kSeqNeedsIncrementalState == pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
static_assert(pf::TracePacketDefaults::kTimestampClockId == pb::TracePacketDefaults::kTimestampClockIdFieldNumber);
static_assert(pf::ClockSnapshot::kClocks == pb::ClockSnapshot::kClocksFieldNumber);
static_assert(pf::ClockSnapshot::kPrimaryTraceClock == pb::ClockSnapshot::kPrimaryTraceClockFieldNumber);
static_assert(pf::ClockSnapshotClock::kClockId == pb::ClockSnapshot::Clock::kClockIdFieldNumber);
static_assert(pf::ClockSnapshotClock::kTimestamp == pb::ClockSnapshot::Clock::kTimestampFieldNumber);
static_assert(pf::ClockSnapshotClock::kIsIncremental == pb::ClockSnapshot::Clock::kIsIncrementalFieldNumber);
static_assert(pf::ClockSnapshotClock::kUnitMultiplierNs == pb::ClockSnapshot::Clock::kUnitMultiplierNsFieldNumber);
static_assert(pf::BuiltinClock::kBoottime == pb::BUILTIN_CLOCK_BOOTTIME);
static_assert(pf::TrackDescriptor::kUuid == pb::TrackDescriptor::kUuidFieldNumber);
static_assert(pf::TrackDescriptor::kParentUuid == pb::TrackDescriptor::kParentUuidFieldNumber);
static_assert(pf::TrackDescriptor::kName == pb::TrackDescriptor::kNameFieldNumber);
static_assert(pf::TrackDescriptor::kProcess == pb::TrackDescriptor::kProcessFieldNumber);
static_assert(pf::TrackDescriptor::kCounter == pb::TrackDescriptor::kCounterFieldNumber);
static_assert(pf::TrackDescriptor::kSiblingMergeBehavior == pb::TrackDescriptor::kSiblingMergeBehaviorFieldNumber);
static_assert(pf::TrackDescriptor::kSiblingMergeBehaviorNone == pb::TrackDescriptor::SIBLING_MERGE_BEHAVIOR_NONE);
static_assert(pf::ProcessDescriptor::kPid == pb::ProcessDescriptor::kPidFieldNumber);
static_assert(pf::ProcessDescriptor::kProcessName == pb::ProcessDescriptor::kProcessNameFieldNumber);
static_assert(pf::TrackEvent::kNameIid == pb::TrackEvent::kNameIidFieldNumber);
static_assert(pf::TrackEvent::kName == pb::TrackEvent::kNameFieldNumber);
static_assert(pf::TrackEvent::kType == pb::TrackEvent::kTypeFieldNumber);
static_assert(pf::TrackEvent::kTrackUuid == pb::TrackEvent::kTrackUuidFieldNumber);
static_assert(pf::TrackEvent::kCounterValue == pb::TrackEvent::kCounterValueFieldNumber);
static_assert(pf::TrackEvent::kDoubleCounterValue == pb::TrackEvent::kDoubleCounterValueFieldNumber);
static_assert(pf::TrackEvent::kDebugAnnotations == pb::TrackEvent::kDebugAnnotationsFieldNumber);
static_assert(pf::TrackEvent::kTypeSliceBegin == pb::TrackEvent::TYPE_SLICE_BEGIN);
static_assert(pf::TrackEvent::kTypeSliceEnd == pb::TrackEvent::TYPE_SLICE_END);
static_assert(pf::TrackEvent::kTypeInstant == pb::TrackEvent::TYPE_INSTANT);
static_assert(pf::TrackEvent::kTypeCounter == pb::TrackEvent::TYPE_COUNTER);
static_assert(pf::DebugAnnotation::kNameIid == pb::DebugAnnotation::kNameIidFieldNumber);
static_assert(pf::DebugAnnotation::kBoolValue == pb::DebugAnnotation::kBoolValueFieldNumber);
static_assert(pf::DebugAnnotation::kUintValue == pb::DebugAnnotation::kUintValueFieldNumber);
static_assert(pf::DebugAnnotation::kIntValue == pb::DebugAnnotation::kIntValueFieldNumber);
static_assert(pf::DebugAnnotation::kDoubleValue == pb::DebugAnnotation::kDoubleValueFieldNumber);
static_assert(pf::DebugAnnotation::kStringValue == pb::DebugAnnotation::kStringValueFieldNumber);
static_assert(pf::InternedData::kEventNames == pb::InternedData::kEventNamesFieldNumber);
static_assert(pf::InternedData::kDebugAnnotationNames == pb::InternedData::kDebugAnnotationNamesFieldNumber);
static_assert(pf::EventName::kIid == pb::EventName::kIidFieldNumber);
static_assert(pf::EventName::kName == pb::EventName::kNameFieldNumber);
static_assert(pf::DebugAnnotationName::kIid == pb::DebugAnnotationName::kIidFieldNumber);
static_assert(pf::DebugAnnotationName::kName == pb::DebugAnnotationName::kNameFieldNumber);

// The checks above are compile-time; this test reports that they were built
// and that the counts match (a constant added without its check fails here).
TEST(PerfettoFields, EveryConstantIsCheckedAgainstTheGeneratedClasses) {
  constexpr int kChecked = 52;
  EXPECT_EQ(kChecked, TBAND_PERFETTO_FIELD_CONSTANTS);
}

}  // namespace
}  // namespace tband
