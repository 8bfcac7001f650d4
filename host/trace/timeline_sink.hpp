// What the timeline is written to: an output of the trace model (Perfetto,
// JSON, an in-memory recording in tests, and next waveforms or a live view).
// The model knows only this interface; outputs depend on the model, never the
// other way round. Calls come in timeline order, one per slice, instant or
// counter sample, with every track described before its first use.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "trace/names.hpp"
#include "trace/track.hpp"

namespace tband {

class TimelineSink {
 public:
  TimelineSink() = default;
  TimelineSink(const TimelineSink&) = delete;
  TimelineSink& operator=(const TimelineSink&) = delete;
  virtual ~TimelineSink() = default;

  /// A new track, or a track that got a new name.
  virtual void describe_track(const TrackInfo& track) = 0;
  /// `literal` is the name's text when name is kLiteralName.
  virtual void slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                           std::string_view literal) = 0;
  /// Ends the innermost open slice of the track; args are added to it.
  virtual void slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) = 0;
  virtual void instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                       std::string_view literal) = 0;
  virtual void counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) = 0;
  /// A counter value that is not an integer (a float field).
  virtual void counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) = 0;

  // The most common calls (a name from the table, no arguments), which
  // pass fewer values. Pure, so that the model's call sites are plain
  // indirect calls (a default here made the compiler guess it and test for
  // it on every event); a sink with no faster way derives from PlainSink
  // (trace/plain_sink.hpp), which forwards them.
  virtual void simple_slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name) = 0;
  virtual void simple_slice_end(std::uint64_t ts_ns, const TrackInfo& track) = 0;
  virtual void simple_instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name) = 0;
};

}  // namespace tband
