// Writes the Chrome trace-event JSON format (chrome://tracing, Perfetto's
// legacy importer, speedscope and other viewers), one event at a time, so
// memory does not grow with the trace. Processes and tracks become pids and
// tids with "M" name records; timestamps are microseconds.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/buffered_output.hpp"
#include "trace/names.hpp"
#include "trace/plain_sink.hpp"
#include "trace/track.hpp"

namespace tband {

class JsonWriter final : public PlainSink {
 public:
  JsonWriter(BufferedOutput& out, const NameTable& names);
  /// Closes the JSON document.
  void finish();

  void describe_track(const TrackInfo& track) override;
  void slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                   std::string_view literal) override;
  void slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) override;
  void instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
               std::string_view literal) override;
  void counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) override;
  void counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) override;

 private:
  // pid: the process a track belongs to (global tracks share pid 0).
  [[nodiscard]] std::int64_t pid_of(const TrackInfo& track) const;
  // An event's text: begin_event() clears it and opens the object (after the
  // separator), end_event() closes it and writes it out.
  std::string& begin_event();
  void end_event();
  void append_args(std::span<const Arg> args);
  void write_track_event(char phase, std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args,
                         const std::string_view* name);
  void write_counter_rest(std::uint64_t ts_ns, const TrackInfo& track);

  BufferedOutput& out_;
  const NameTable& names_;
  std::vector<std::int32_t> process_pid_;  // by TrackId - 1; pid for process tracks
  std::string event_;                  // the event being written
  std::vector<std::uint32_t> order_;   // args in key order (append_args)
  bool first_ = true;
  bool finished_ = false;
};

}  // namespace tband
