// What the trace interpreter produces: tracks (processes, slice tracks,
// counter tracks) and events on them, with timestamps in nanoseconds. The
// timeline keeps the tracks and hands each call to its sinks (the outputs:
// trace/timeline_sink.hpp), which it does not know by type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "trace/names.hpp"
#include "trace/timeline_sink.hpp"
#include "trace/track.hpp"

namespace tband {

class Timeline {
 public:
  explicit Timeline(NameTable& names) : names_(names) {}

  /// Adds an output; tracks described before it was added are not repeated.
  void add_sink(TimelineSink& sink) {
    sinks_.push_back(&sink);
    sole_ = sinks_.size() == 1 ? &sink : nullptr;
  }
  [[nodiscard]] NameTable& names() noexcept { return names_; }

  /// Creates a track and describes it to the sinks at once.
  TrackId add_process(std::string name, std::int32_t pid, TrackRole role = TrackRole::kOther, std::uint32_t ref = 0);
  TrackId add_track(TrackId parent, TrackKind kind, std::string name, TrackRole role = TrackRole::kOther,
                    std::uint32_t ref = 0);
  /// Gives a track a new name (a name that arrived after the track was used).
  void rename(TrackId track, std::string name);
  [[nodiscard]] const TrackInfo& track(TrackId id) const { return tracks_[id - 1]; }
  [[nodiscard]] std::size_t track_count() const noexcept { return tracks_.size(); }

  /// `literal` is the name's text when name is kLiteralName.
  void slice_begin(std::uint64_t ts_ns, TrackId track, NameId name, std::span<const Arg> args = {},
                   std::string_view literal = {}) {
    const TrackInfo& info = tracks_[track - 1];
    if (args.empty() && name != kLiteralName) {  // literal only counts for kLiteralName
      each_sink([&](TimelineSink& sink) { sink.simple_slice_begin(ts_ns, info, name); });
    } else {
      each_sink([&](TimelineSink& sink) { sink.slice_begin(ts_ns, info, name, args, literal); });
    }
  }
  void slice_end(std::uint64_t ts_ns, TrackId track, std::span<const Arg> args = {}) {
    const TrackInfo& info = tracks_[track - 1];
    if (args.empty()) {
      each_sink([&](TimelineSink& sink) { sink.simple_slice_end(ts_ns, info); });
    } else {
      each_sink([&](TimelineSink& sink) { sink.slice_end(ts_ns, info, args); });
    }
  }
  void instant(std::uint64_t ts_ns, TrackId track, NameId name, std::span<const Arg> args = {},
               std::string_view literal = {}) {
    const TrackInfo& info = tracks_[track - 1];
    if (args.empty() && name != kLiteralName) {  // literal only counts for kLiteralName
      each_sink([&](TimelineSink& sink) { sink.simple_instant(ts_ns, info, name); });
    } else {
      each_sink([&](TimelineSink& sink) { sink.instant(ts_ns, info, name, args, literal); });
    }
  }
  void counter(std::uint64_t ts_ns, TrackId track, std::int64_t value) {
    const TrackInfo& info = tracks_[track - 1];
    each_sink([&](TimelineSink& sink) { sink.counter(ts_ns, info, value); });
  }
  void counter_double(std::uint64_t ts_ns, TrackId track, double value) {
    const TrackInfo& info = tracks_[track - 1];
    each_sink([&](TimelineSink& sink) { sink.counter_double(ts_ns, info, value); });
  }

 private:
  void describe(const TrackInfo& info);
  // f(sink) for each sink in order. One sink (the usual case: one output) is
  // called directly; the loop over several is out of line, so the hot paths
  // that call the timeline keep a small frame.
  template <class F>
  void each_sink(const F& f) {
    if (sole_ != nullptr) [[likely]] {
      f(*sole_);
    } else {
      each_of_sinks(f);
    }
  }
  template <class F>
  [[gnu::noinline]] void each_of_sinks(const F& f) {
    for (TimelineSink* sink : sinks_) {
      f(*sink);
    }
  }

  NameTable& names_;
  std::vector<TrackInfo> tracks_;
  std::vector<TimelineSink*> sinks_;
  TimelineSink* sole_ = nullptr;  // the only sink, when there is exactly one
};

}  // namespace tband
