// A timeline sink with no faster way to write the common calls than the
// general ones: it forwards them (JSON, the tests' in-memory recording).
// Kept out of timeline_sink.hpp so that the model, which calls sinks it does
// not know, sees no default to guess and test for on every event.
#pragma once

#include "trace/timeline_sink.hpp"

namespace tband {

class PlainSink : public TimelineSink {
 public:
  void simple_slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name) override {
    slice_begin(ts_ns, track, name, {}, {});
  }
  void simple_slice_end(std::uint64_t ts_ns, const TrackInfo& track) override { slice_end(ts_ns, track, {}); }
  void simple_instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name) override {
    instant(ts_ns, track, name, {}, {});
  }
};

}  // namespace tband
