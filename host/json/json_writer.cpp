#include "json/json_writer.hpp"

#include <algorithm>
#include <cmath>

#include "json/json_text.hpp"

namespace tband {

// Each event is written as text with its keys in sorted order, the bytes a
// nlohmann::json object of the same keys dumps to (the writer built one per
// event before, at a tenth of the speed; tests/host/json checks the bytes).

namespace {

using json_text::append_double;
using json_text::append_int;
using json_text::append_string;
using json_text::append_uint;

void append_ts(std::string& out, std::uint64_t ts_ns) {
  out += ",\"ts\":";
  json_text::append_microseconds(out, ts_ns);
}

}  // namespace

JsonWriter::JsonWriter(BufferedOutput& out, const NameTable& names) : out_(out), names_(names) {
  out_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

void JsonWriter::finish() {
  if (!finished_) {
    out_.write("\n]}\n");
    finished_ = true;
  }
}

std::int64_t JsonWriter::pid_of(const TrackInfo& track) const {
  if (track.kind == TrackKind::kProcess) {
    return track.pid;
  }
  if (track.parent != 0 && track.parent - 1 < process_pid_.size()) {
    return process_pid_[track.parent - 1];
  }
  return 0;
}

std::string& JsonWriter::begin_event() {
  event_.clear();
  if (!first_) {
    event_ += ",\n";
  }
  first_ = false;
  event_ += '{';
  return event_;
}

void JsonWriter::end_event() {
  event_ += '}';
  out_.write(event_);
}

// "args":{...}, with the keys sorted and, for a name given twice, the last
// value (as assigning into a JSON object keeps it).
void JsonWriter::append_args(std::span<const Arg> args) {
  order_.clear();
  for (std::uint32_t i = 0; i < args.size(); ++i) {
    order_.push_back(i);
  }
  std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return names_.get(args[a].name) < names_.get(args[b].name);
  });
  event_ += "\"args\":{";
  bool first = true;
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const std::string_view name = names_.get(args[order_[k]].name);
    if (k + 1 < order_.size() && names_.get(args[order_[k + 1]].name) == name) {
      continue;  // a later value of the same name wins
    }
    if (!first) {
      event_ += ',';
    }
    first = false;
    append_string(event_, name);
    event_ += ':';
    json_text::append_field(event_, *args[order_[k]].value);
  }
  event_ += "},";
}

void JsonWriter::describe_track(const TrackInfo& track) {
  if (process_pid_.size() < track.id) {
    process_pid_.resize(track.id, 0);
  }
  if (track.kind == TrackKind::kCounter) {
    return;  // counters are named by their events
  }
  const bool process = track.kind == TrackKind::kProcess;
  if (process) {
    process_pid_[track.id - 1] = track.pid;
  }
  std::string& e = begin_event();
  e += "\"args\":{\"name\":";
  append_string(e, track.name);
  e += process ? "},\"name\":\"process_name\",\"ph\":\"M\",\"pid\":"
               : "},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":";
  append_int(e, pid_of(track));
  if (!process) {
    e += ",\"tid\":";
    append_uint(e, track.id);
  }
  end_event();
}

// {"args":..,"name":..,"ph":..,"pid":..,"s":"t","tid":..,"ts":..}: the keys an
// event on a track has (args when there are some, name but for "E", s for "i").
void JsonWriter::write_track_event(char phase, std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args,
                                   const std::string_view* name) {
  std::string& e = begin_event();
  if (!args.empty()) {
    append_args(args);
  }
  if (name != nullptr) {
    e += "\"name\":";
    append_string(e, *name);
    e += ',';
  }
  e += "\"ph\":\"";
  e += phase;
  e += "\",\"pid\":";
  append_int(e, pid_of(track));
  e += phase == 'i' ? ",\"s\":\"t\",\"tid\":" : ",\"tid\":";
  append_uint(e, track.id);
  append_ts(e, ts_ns);
  end_event();
}

void JsonWriter::slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                             std::string_view literal) {
  const std::string_view text = name == kLiteralName ? literal : names_.get(name);
  write_track_event('B', ts_ns, track, args, &text);
}

void JsonWriter::slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) {
  write_track_event('E', ts_ns, track, args, nullptr);
}

void JsonWriter::instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                         std::string_view literal) {
  const std::string_view text = name == kLiteralName ? literal : names_.get(name);
  write_track_event('i', ts_ns, track, args, &text);
}

void JsonWriter::counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) {
  std::string& e = begin_event();
  e += "\"args\":{\"value\":";
  append_int(e, value);
  write_counter_rest(ts_ns, track);
}

void JsonWriter::counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) {
  if (!std::isfinite(value)) {
    return;  // JSON has no inf or nan; Chrome's counter format has no way to say "no value" either
  }
  std::string& e = begin_event();
  e += "\"args\":{\"value\":";
  append_double(e, value);
  write_counter_rest(ts_ns, track);
}

void JsonWriter::write_counter_rest(std::uint64_t ts_ns, const TrackInfo& track) {
  event_ += "},\"name\":";
  append_string(event_, track.name);
  event_ += ",\"ph\":\"C\",\"pid\":";
  append_int(event_, pid_of(track));
  append_ts(event_, ts_ns);
  end_event();
}

}  // namespace tband
