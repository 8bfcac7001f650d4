// A TimelineSink that keeps what the trace model puts on its timeline as
// plain structs, so tests check the model itself, without writing a
// .pftrace and parsing it back. Tracks are found by name and process like
// in PerfettoView (a renamed track answers to its newest name).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "decode/event_format.hpp"
#include "trace/names.hpp"
#include "trace/plain_sink.hpp"
#include "trace/track.hpp"

namespace tband::test {

struct RecordedSlice {
  std::uint64_t begin_ns = 0;
  std::optional<std::uint64_t> end_ns;  // none while still open
  std::string name;
  std::map<std::string, std::string> args;  // begin and end arguments, values as text
};

struct RecordedInstant {
  std::uint64_t ts_ns = 0;
  std::string name;
  std::map<std::string, std::string> args;
};

struct RecordedTrack {
  TrackInfo info;
  std::vector<RecordedSlice> slices;  // in begin order
  std::vector<std::size_t> open;      // indices into slices, innermost last
  std::vector<RecordedInstant> instants;
  std::vector<std::pair<std::uint64_t, double>> counter;  // (ts_ns, value)

  [[nodiscard]] std::vector<std::string> slice_names() const {
    std::vector<std::string> names;
    for (const RecordedSlice& s : slices) names.push_back(s.name);
    return names;
  }
  [[nodiscard]] std::vector<std::string> instant_names() const {
    std::vector<std::string> names;
    for (const RecordedInstant& i : instants) names.push_back(i.name);
    return names;
  }
  [[nodiscard]] std::vector<double> counter_values() const {
    std::vector<double> values;
    for (const auto& [ts, v] : counter) values.push_back(v);
    return values;
  }
};

class RecordingSink final : public PlainSink {
 public:
  explicit RecordingSink(const NameTable& names) : names_(names) {}

  void describe_track(const TrackInfo& track) override { tracks_[track.id].info = track; }
  void slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                   std::string_view literal) override {
    RecordedTrack& t = tracks_.at(track.id);
    RecordedSlice& s = t.slices.emplace_back();
    s.begin_ns = ts_ns;
    s.name = text(name, literal);
    add_args(s.args, args);
    t.open.push_back(t.slices.size() - 1);
  }
  void slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) override {
    RecordedTrack& t = tracks_.at(track.id);
    if (t.open.empty()) {
      errors.push_back("slice end without a begin on track " + t.info.name);
      return;
    }
    RecordedSlice& s = t.slices[t.open.back()];
    t.open.pop_back();
    s.end_ns = ts_ns;
    add_args(s.args, args);
  }
  void instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
               std::string_view literal) override {
    RecordedInstant& i = tracks_.at(track.id).instants.emplace_back();
    i.ts_ns = ts_ns;
    i.name = text(name, literal);
    add_args(i.args, args);
  }
  void counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) override {
    tracks_.at(track.id).counter.emplace_back(ts_ns, static_cast<double>(value));
  }
  void counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) override {
    tracks_.at(track.id).counter.emplace_back(ts_ns, value);
  }

  /// The track with this name whose process has this name ("" for global
  /// tracks, "*" for any); throws unless there is exactly one.
  [[nodiscard]] const RecordedTrack& track(const std::string& name, const std::string& process = "*") const {
    const RecordedTrack* found = nullptr;
    for (const auto& [id, t] : tracks_) {
      if (t.info.kind != TrackKind::kProcess && t.info.name == name && in_process(t, process)) {
        if (found != nullptr) {
          throw std::runtime_error("more than one track " + name + " in " + process);
        }
        found = &t;
      }
    }
    if (found == nullptr) {
      throw std::runtime_error("no track " + name + " in " + process);
    }
    return *found;
  }
  [[nodiscard]] bool has_track(const std::string& name, const std::string& process = "*") const {
    for (const auto& [id, t] : tracks_) {
      if (t.info.kind != TrackKind::kProcess && t.info.name == name && in_process(t, process)) {
        return true;
      }
    }
    return false;
  }
  [[nodiscard]] std::vector<std::string> process_names() const {
    std::vector<std::string> names;
    for (const auto& [id, t] : tracks_) {
      if (t.info.kind == TrackKind::kProcess) names.push_back(t.info.name);
    }
    return names;
  }

  std::vector<std::string> errors;  // calls that made no sense (an end without a begin)

 private:
  [[nodiscard]] std::string text(NameId name, std::string_view literal) const {
    return name == kLiteralName ? std::string{literal} : std::string{names_.get(name)};
  }
  void add_args(std::map<std::string, std::string>& out, std::span<const Arg> args) const {
    for (const Arg& a : args) {
      out[std::string{names_.get(a.name)}] = format_field_value(*a.value);
    }
  }
  [[nodiscard]] bool in_process(const RecordedTrack& t, const std::string& process) const {
    if (process == "*") return true;
    if (t.info.parent == 0) return process.empty();
    const auto parent = tracks_.find(t.info.parent);
    return parent != tracks_.end() && parent->second.info.name == process;
  }

  const NameTable& names_;
  std::map<TrackId, RecordedTrack> tracks_;
};

}  // namespace tband::test
