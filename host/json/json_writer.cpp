#include "json/json_writer.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "json/field_json.hpp"

namespace tband {

namespace {

using nlohmann::json;

double to_us(std::uint64_t ts_ns) { return static_cast<double>(ts_ns) / 1000.0; }

// Field values as JSON: numbers as numbers, enums by name, strings as text
// (invalid UTF-8 replaced rather than failing the whole file).
json args_json(const NameTable& names, std::span<const Arg> args) {
  json out = json::object();
  for (const Arg& arg : args) {
    json value = field_json(*arg.value);
    out[std::string{names.get(arg.name)}] = std::move(value);
  }
  return out;
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

void JsonWriter::write_event(const void* event) {
  if (!first_) {
    out_.write(",\n");
  }
  first_ = false;
  out_.write(static_cast<const json*>(event)->dump(-1, ' ', false, json::error_handler_t::replace));
}

void JsonWriter::describe_track(const TrackInfo& track) {
  if (process_pid_.size() < track.id) {
    process_pid_.resize(track.id, 0);
  }
  if (track.kind == TrackKind::kProcess) {
    process_pid_[track.id - 1] = track.pid;
    const json e = {{"ph", "M"}, {"name", "process_name"}, {"pid", track.pid}, {"args", {{"name", track.name}}}};
    write_event(&e);
    return;
  }
  if (track.kind == TrackKind::kCounter) {
    return;  // counters are named by their events
  }
  const json e = {{"ph", "M"},
                  {"name", "thread_name"},
                  {"pid", pid_of(track)},
                  {"tid", track.id},
                  {"args", {{"name", track.name}}}};
  write_event(&e);
}

void JsonWriter::slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                             std::string_view literal) {
  json e = {{"ph", "B"}, {"name", name == kLiteralName ? literal : names_.get(name)}, {"ts", to_us(ts_ns)}, {"pid", pid_of(track)}, {"tid", track.id}};
  if (!args.empty()) {
    e["args"] = args_json(names_, args);
  }
  write_event(&e);
}

void JsonWriter::slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) {
  json e = {{"ph", "E"}, {"ts", to_us(ts_ns)}, {"pid", pid_of(track)}, {"tid", track.id}};
  if (!args.empty()) {
    e["args"] = args_json(names_, args);
  }
  write_event(&e);
}

void JsonWriter::instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                         std::string_view literal) {
  json e = {{"ph", "i"}, {"s", "t"},         {"name", name == kLiteralName ? literal : names_.get(name)},
            {"ts", to_us(ts_ns)}, {"pid", pid_of(track)}, {"tid", track.id}};
  if (!args.empty()) {
    e["args"] = args_json(names_, args);
  }
  write_event(&e);
}

void JsonWriter::counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) {
  write_counter(ts_ns, track, value);
}

void JsonWriter::counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) {
  if (!std::isfinite(value)) {
    return;  // JSON has no inf or nan; Chrome's counter format has no way to say "no value" either
  }
  write_counter(ts_ns, track, value);
}

template <class T>
void JsonWriter::write_counter(std::uint64_t ts_ns, const TrackInfo& track, T value) {
  const json e = {{"ph", "C"},
                  {"name", track.name},
                  {"ts", to_us(ts_ns)},
                  {"pid", pid_of(track)},
                  {"args", {{"value", value}}}};
  write_event(&e);
}

}  // namespace tband
