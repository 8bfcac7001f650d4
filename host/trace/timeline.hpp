// What the trace interpreter produces: tracks (processes, slice tracks,
// counter tracks) and events on them, with timestamps in nanoseconds. The
// timeline hands each call to the enabled writers (Perfetto, JSON) directly,
// without virtual dispatch, since it runs once or twice per trace event.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "json/json_writer.hpp"
#include "perfetto/perfetto_writer.hpp"
#include "trace/names.hpp"
#include "trace/track.hpp"

namespace tband {

class Timeline {
 public:
  explicit Timeline(NameTable& names) : names_(names) {}

  void set_perfetto(PerfettoWriter* writer) noexcept { perfetto_ = writer; }
  void set_json(JsonWriter* writer) noexcept { json_ = writer; }
  [[nodiscard]] NameTable& names() noexcept { return names_; }

  /// Creates a track and describes it to the writers at once.
  TrackId add_process(std::string name, std::int32_t pid);
  TrackId add_track(TrackId parent, TrackKind kind, std::string name);
  /// Gives a track a new name (a name that arrived after the track was used).
  void rename(TrackId track, std::string name);
  [[nodiscard]] const TrackInfo& track(TrackId id) const { return tracks_[id - 1]; }
  [[nodiscard]] std::size_t track_count() const noexcept { return tracks_.size(); }

  /// `literal` is the name's text when name is kLiteralName.
  void slice_begin(std::uint64_t ts_ns, TrackId track, NameId name, std::span<const Arg> args = {},
                   std::string_view literal = {}) {
    if (perfetto_ != nullptr) {
      perfetto_->slice_begin(ts_ns, track, name, args, literal);
    }
    if (json_ != nullptr) {
      json_->slice_begin(ts_ns, tracks_[track - 1], name, args, literal);
    }
  }
  void slice_end(std::uint64_t ts_ns, TrackId track) {
    if (perfetto_ != nullptr) {
      perfetto_->slice_end(ts_ns, track);
    }
    if (json_ != nullptr) {
      json_->slice_end(ts_ns, tracks_[track - 1]);
    }
  }
  void slice_end(std::uint64_t ts_ns, TrackId track, std::span<const Arg> args) {
    if (perfetto_ != nullptr) {
      perfetto_->slice_end(ts_ns, track, args);
    }
    if (json_ != nullptr) {
      json_->slice_end(ts_ns, tracks_[track - 1], args);
    }
  }
  void instant(std::uint64_t ts_ns, TrackId track, NameId name, std::span<const Arg> args = {},
               std::string_view literal = {}) {
    if (perfetto_ != nullptr) {
      perfetto_->instant(ts_ns, track, name, args, literal);
    }
    if (json_ != nullptr) {
      json_->instant(ts_ns, tracks_[track - 1], name, args, literal);
    }
  }
  void counter(std::uint64_t ts_ns, TrackId track, std::int64_t value) {
    if (perfetto_ != nullptr) {
      perfetto_->counter(ts_ns, track, value);
    }
    if (json_ != nullptr) {
      json_->counter(ts_ns, tracks_[track - 1], value);
    }
  }
  void counter_double(std::uint64_t ts_ns, TrackId track, double value) {
    if (perfetto_ != nullptr) {
      perfetto_->counter_double(ts_ns, track, value);
    }
    if (json_ != nullptr) {
      json_->counter_double(ts_ns, tracks_[track - 1], value);
    }
  }

 private:
  void describe(const TrackInfo& info);

  NameTable& names_;
  std::vector<TrackInfo> tracks_;
  PerfettoWriter* perfetto_ = nullptr;
  JsonWriter* json_ = nullptr;
};

}  // namespace tband
