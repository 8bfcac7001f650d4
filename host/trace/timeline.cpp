#include "trace/timeline.hpp"


namespace tband {

TrackId Timeline::add_process(std::string name, std::int32_t pid, TrackRole role, std::uint32_t ref) {
  TrackInfo& info = tracks_.emplace_back();
  info.id = tracks_.size();
  info.kind = TrackKind::kProcess;
  info.pid = pid;
  info.role = role;
  info.ref = ref;
  info.name = std::move(name);
  describe(info);
  return info.id;
}

TrackId Timeline::add_track(TrackId parent, TrackKind kind, std::string name, TrackRole role, std::uint32_t ref) {
  TrackInfo& info = tracks_.emplace_back();
  info.id = tracks_.size();
  info.parent = parent;
  info.kind = kind;
  info.role = role;
  info.ref = ref;
  info.name = std::move(name);
  describe(info);
  return info.id;
}

void Timeline::rename(TrackId track, std::string name) {
  TrackInfo& info = tracks_[track - 1];
  if (info.name == name) {
    return;
  }
  info.name = std::move(name);
  describe(info);
}

void Timeline::describe(const TrackInfo& info) {
  for (TimelineSink* sink : sinks_) {
    sink->describe_track(info);
  }
}

}  // namespace tband
