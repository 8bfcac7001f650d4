// Tracks as the writers see them, and event arguments.
#pragma once

#include <cstdint>
#include <string>

#include "decode/event_fields.hpp"
#include "trace/names.hpp"

namespace tband {

using TrackId = std::uint64_t;  // 1, 2, 3...; 0 means "no track"

enum class TrackKind : std::uint8_t { kProcess, kSlices, kCounter };

struct TrackInfo {
  TrackId id = 0;
  TrackId parent = 0;  // the process a track belongs to; 0 for global tracks
  TrackKind kind = TrackKind::kSlices;
  std::int32_t pid = 0;  // processes only
  std::string name;
};

/// An event argument: a name and one decoded field value (which the caller
/// keeps while the writers run; not copied, since arguments come per event).
struct Arg {
  NameId name;
  const FieldValue* value;
};

}  // namespace tband
