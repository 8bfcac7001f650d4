// The field numbers and enum values of Perfetto's trace format that tband
// writes (the subset in perfetto_trace.proto), one namespace per message,
// named after it. The writer includes only this; the test
// tests/host/perfetto/perfetto_fields_test.cpp checks every value against the
// classes protoc generates from perfetto_trace.proto.
#pragma once

namespace tband::pf {

namespace Trace {
inline constexpr int kPacket = 1;
}  // namespace Trace

namespace TracePacket {
inline constexpr int kTimestamp = 8;
inline constexpr int kTimestampClockId = 58;
inline constexpr int kTrackEvent = 11;
inline constexpr int kTrackDescriptor = 60;
inline constexpr int kClockSnapshot = 6;
inline constexpr int kTrustedPacketSequenceId = 10;
inline constexpr int kInternedData = 12;
inline constexpr int kSequenceFlags = 13;
inline constexpr int kTracePacketDefaults = 59;
// enum SequenceFlags
inline constexpr int kSeqIncrementalStateCleared = 1;
inline constexpr int kSeqNeedsIncrementalState = 2;
}  // namespace TracePacket

namespace TracePacketDefaults {
inline constexpr int kTimestampClockId = 58;
}  // namespace TracePacketDefaults

namespace ClockSnapshot {
inline constexpr int kClocks = 1;
inline constexpr int kPrimaryTraceClock = 2;
}  // namespace ClockSnapshot

namespace ClockSnapshotClock {
inline constexpr int kClockId = 1;
inline constexpr int kTimestamp = 2;
inline constexpr int kIsIncremental = 3;
inline constexpr int kUnitMultiplierNs = 4;
}  // namespace ClockSnapshotClock

namespace BuiltinClock {
inline constexpr int kBoottime = 6;
}  // namespace BuiltinClock

namespace TrackDescriptor {
inline constexpr int kUuid = 1;
inline constexpr int kParentUuid = 5;
inline constexpr int kName = 2;
inline constexpr int kProcess = 3;
inline constexpr int kCounter = 8;
inline constexpr int kSiblingMergeBehavior = 15;
// enum SiblingMergeBehavior
inline constexpr int kSiblingMergeBehaviorNone = 2;
}  // namespace TrackDescriptor

namespace ProcessDescriptor {
inline constexpr int kPid = 1;
inline constexpr int kProcessName = 6;
}  // namespace ProcessDescriptor

namespace TrackEvent {
inline constexpr int kNameIid = 10;
inline constexpr int kName = 23;
inline constexpr int kType = 9;
inline constexpr int kTrackUuid = 11;
inline constexpr int kCounterValue = 30;
inline constexpr int kDoubleCounterValue = 44;
inline constexpr int kDebugAnnotations = 4;
// enum Type
inline constexpr int kTypeSliceBegin = 1;
inline constexpr int kTypeSliceEnd = 2;
inline constexpr int kTypeInstant = 3;
inline constexpr int kTypeCounter = 4;
}  // namespace TrackEvent

namespace DebugAnnotation {
inline constexpr int kNameIid = 1;
inline constexpr int kBoolValue = 2;
inline constexpr int kUintValue = 3;
inline constexpr int kIntValue = 4;
inline constexpr int kDoubleValue = 5;
inline constexpr int kStringValue = 6;
}  // namespace DebugAnnotation

namespace InternedData {
inline constexpr int kEventNames = 2;
inline constexpr int kDebugAnnotationNames = 3;
}  // namespace InternedData

namespace EventName {
inline constexpr int kIid = 1;
inline constexpr int kName = 2;
}  // namespace EventName

namespace DebugAnnotationName {
inline constexpr int kIid = 1;
inline constexpr int kName = 2;
}  // namespace DebugAnnotationName

}  // namespace tband::pf
