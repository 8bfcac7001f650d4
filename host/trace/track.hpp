// Tracks as the writers see them, and event arguments.
#pragma once

#include <cstdint>
#include <string>

#include "decode/event_fields.hpp"
#include "trace/names.hpp"

namespace tband {

using TrackId = std::uint64_t;  // 1, 2, 3...; 0 means "no track"

enum class TrackKind : std::uint8_t { kProcess, kSlices, kCounter };

/// What a track stands for, where the model knows it (for outputs that show
/// more than the tracks themselves, such as the waveforms' active-ISR and
/// running-task signals); kOther for the rest.
///   - kIsr: an interrupt handler's slices, in its core's process; `ref` is its id;
///   - kTask: a task's (thread's) process; `ref` is the id the trace gives it;
///   - kTaskRunning: the task's "Running" slices, in its process;
///   - kCoreRunning: a core's "Running task" slices. Each one begins right
///     after the task's kTaskRunning slice, at the same time, which tells
///     the task.
enum class TrackRole : std::uint8_t { kOther, kIsr, kTask, kTaskRunning, kCoreRunning };

struct TrackInfo {
  TrackId id = 0;
  TrackId parent = 0;  // the process a track belongs to; 0 for global tracks
  TrackKind kind = TrackKind::kSlices;
  std::int32_t pid = 0;  // processes only
  std::string name;
  TrackRole role = TrackRole::kOther;
  std::uint32_t ref = 0;  // the ISR's or task's id (kIsr, kTask)
};

/// An event argument: a name and one decoded field value (which the caller
/// keeps while the writers run; not copied, since arguments come per event).
struct Arg {
  NameId name;
  const FieldValue* value;
};

}  // namespace tband
