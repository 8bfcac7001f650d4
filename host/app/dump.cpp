#include "app/dump.hpp"

#include <array>
#include <charconv>
#include <map>
#include <unordered_map>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/buffered_output.hpp"
#include "decode/event_format.hpp"
#include "decode/utf8_text.hpp"
#include "import/event_stream.hpp"
#include "import/threadx_buffer.hpp"
#include "json/field_json.hpp"

namespace tband {

namespace {

void append_number(std::string& line, std::uint64_t value) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  (void)ec;
  line.append(buf, end);
}

void write_json(BufferedOutput& out, const nlohmann::json& j, int indent = -1) {
  out.write(j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
  out.write("\n");
}

std::string hex_id(unsigned id) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", id);
  return text;
}

/// Events counted by kind, for --stats: compiled ones by variant index,
/// run-time ones by id (with the name they had).
struct EventCounts {
  std::array<std::uint64_t, kEventCount> compiled{};
  std::array<std::uint64_t, 256> dynamic{};
  std::array<std::string_view, 256> dynamic_names{};

  void add(const StreamItem& item) {
    if (item.dynamic) {
      const EventInfo& info = item.dynamic_event.info();
      ++dynamic[info.id];
      dynamic_names[info.id] = info.name;
    } else {
      ++compiled[item.result.value().index()];
    }
  }
  /// (name, count) of every event seen, compiled ones first, each in id order.
  template <class F>
  void each(F&& f) const {
    for (std::size_t i = 0; i < compiled.size(); ++i) {
      if (compiled[i] != 0) {
        f(all_event_infos()[i].name, compiled[i]);
      }
    }
    for (std::size_t id = 0; id < dynamic.size(); ++id) {
      if (dynamic[id] != 0) {
        f(dynamic_names[id], dynamic[id]);
      }
    }
  }
};

class InputDumper {
 public:
  InputDumper(const DumpOptions& options, const InputSpec& input, BufferedOutput& out, bool several)
      : options_(options),
        input_(input),
        out_(out),
        several_(several),
        ns_per_ts_(options.assumed_ns_per_ts != 0 ? options.assumed_ns_per_ts : 1) {}

  DumpInputResult run(nlohmann::json* stats_json);

 private:
  DumpInputResult run_threadx(InputReader& reader, nlohmann::json* stats_json);
  void error_line(const StreamItem& item, const std::string& message);
  void event_line(const StreamItem& item);

  const DumpOptions& options_;
  const InputSpec& input_;
  BufferedOutput& out_;
  bool several_;
  std::uint64_t ns_per_ts_;
  EventCounts counts_;
  std::string line_;
};

void InputDumper::error_line(const StreamItem& item, const std::string& message) {
  if (options_.style == DumpStyle::kJsonLines) {
    nlohmann::json j = {{"core", item.core}, {"offset", item.at->offset}, {"error", message}};
    if (several_) {
      j["input"] = input_.display_name();
    }
    write_json(out_, j);
  } else if (options_.style == DumpStyle::kText) {
    line_ = "core ";
    append_number(line_, item.core);
    line_ += "  error at byte ";
    append_number(line_, item.at->offset);
    line_ += ": " + message + "\n";
    out_.write(line_);
  }
}

void InputDumper::event_line(const StreamItem& item) {
  const EventInfo& info = item_info(item);
  switch (options_.style) {
    case DumpStyle::kStats:
    case DumpStyle::kStatsJson:
      break;  // counted by the caller
    case DumpStyle::kText:
      line_ = "core ";
      append_number(line_, item.core);
      if (item.has_ts) {
        line_ += "  ";
        append_number(line_, item.ts * ns_per_ts_);
        line_ += " ns  ";
      } else {
        line_ += "  metadata  ";
      }
      line_ += info.name;
      visit_item_fields(item, [&](const FieldValue& field) {
        if (field.info->implicit) {
          return;
        }
        line_ += ' ';
        line_ += field.info->name;
        line_ += '=';
        line_ += format_field_value(field);
      });
      line_ += '\n';
      out_.write(line_);
      break;
    case DumpStyle::kJsonLines: {
      nlohmann::json j = {{"core", item.core}, {"event", info.name}, {"offset", item.at->offset}};
      if (several_) {
        j["input"] = input_.display_name();
      }
      if (item.has_ts) {
        j["ts"] = item.ts;
        j["ts_ns"] = item.ts * ns_per_ts_;
      }
      nlohmann::json fields = nlohmann::json::object();
      nlohmann::json bytes_hex;  // the exact bytes of strings that are not UTF-8
      visit_item_fields(item, [&](const FieldValue& field) {
        if (!field.info->implicit && field.present) {
          fields[std::string{field.info->name}] = field_json(field);
          if (value_kind(field.info->type) == ValueKind::kStr && !is_valid_utf8(field.str)) {
            bytes_hex[std::string{field.info->name}] = hex_bytes(field.str);
          }
        }
      });
      j["fields"] = std::move(fields);
      if (!bytes_hex.is_null()) {
        j["bytes_hex"] = std::move(bytes_hex);
      }
      write_json(out_, j);
      break;
    }
  }
}

DumpInputResult InputDumper::run(nlohmann::json* stats_json) {
  SchemaSet* schemas = options_.schemas;
  if (schemas != nullptr) {
    schemas->reset_trace();
  }
  auto reader = std::make_unique<InputReader>(input_, options_.format);
  if (reader->format_name() == "threadx") {
    return run_threadx(*reader, stats_json);
  }
  EventStream stream{std::move(reader), 0, schemas};
  DumpInputResult result;
  result.input = input_.display_name();
  if (several_ && options_.style == DumpStyle::kText) {
    out_.write("# " + result.input + "\n");
  }
  const bool counting = options_.style == DumpStyle::kStats || options_.style == DumpStyle::kStatsJson;
  const bool live = !counting && !stream.reader().raw_size();  // not a regular file
  stream.drain([&](const StreamItem& item) {
    if (!item.dynamic && !item.result.ok()) {
      ++result.decode_errors;
      const DecodeError& error = item.result.error();
      if (error.kind == DecodeErrorKind::kUnknownEventId && schemas != nullptr) {
        ++result.unknown_frames;
        schemas->count_unknown(error.event_id, result.input, item.at->offset);
      }
      error_line(item, describe_error(error, schemas));
      return;
    }
    ++result.events;
    if (counting) {
      counts_.add(item);  // --stats: the decode-only benchmark, so nothing else here
      return;
    }
    if (!item.dynamic) {
      if (const auto* res = std::get_if<TsResolutionNs>(&item.result.value()); res != nullptr && res->ns_per_ts != 0) {
        ns_per_ts_ = res->ns_per_ts;
      }
    }
    event_line(item);
  }, [&] {
    // A pipe or a device (`ssh target cat /dev/ttyACM0 | tband dump -`):
    // show each burst's events as it arrives, not when a buffer fills.
    if (live) {
      out_.flush();
    }
  });
  result.input_bytes = stream.reader().raw_bytes_read();
  if (!stream.reader().truncation().empty()) {
    result.problems.push_back(stream.reader().truncation());
  }
  if (schemas != nullptr) {
    if (schemas->identity_problem()) {
      result.problems.push_back(*schemas->identity_problem());
    }
    if (auto message = schemas->unknown_ids_message()) {
      result.problems.push_back(std::move(*message));
    }
    result.notes = schemas->notes();
  }

  if (options_.style == DumpStyle::kStats) {
    if (several_) {
      out_.write("# " + result.input + "\n");
    }
    counts_.each([&](std::string_view name, std::uint64_t n) {
      line_ = std::string{name} + " " + std::to_string(n) + "\n";
      out_.write(line_);
    });
    line_ = "events " + std::to_string(result.events) + "\ndecode_errors " + std::to_string(result.decode_errors) +
            "\nunknown_frames " + std::to_string(result.unknown_frames) + "\n";
    out_.write(line_);
  } else if (options_.style == DumpStyle::kStatsJson && stats_json != nullptr) {
    nlohmann::json by_event = nlohmann::json::object();
    counts_.each([&](std::string_view name, std::uint64_t n) { by_event[std::string{name}] = n; });
    nlohmann::json unknown = nlohmann::json::array();
    nlohmann::json schema = nlohmann::json::object();
    if (schemas != nullptr) {
      for (const SchemaSet::UnknownId& u : schemas->unknown_ids()) {
        unknown.push_back({{"id", u.id}, {"id_hex", hex_id(u.id)}, {"frames", u.frames}, {"first", u.first}});
      }
      if (const auto id = schemas->trace_schema()) {
        schema["trace_id"] = trace_id_hex(*id);
        schema["user_groups"] = schemas->trace_groups();
      } else {
        schema["trace_id"] = nullptr;
      }
      schema["schemas_used"] = schemas->active_sources();
      schema["problem"] = schemas->identity_problem() ? nlohmann::json(*schemas->identity_problem()) : nullptr;
    }
    *stats_json = {{"input", result.input},
                   {"format", stream.reader().format_name()},
                   {"bytes", result.input_bytes},
                   {"events", result.events},
                   {"decode_errors", result.decode_errors},
                   {"unknown_frames", result.unknown_frames},
                   {"by_event", std::move(by_event)},
                   {"unknown_ids", std::move(unknown)},
                   {"schema", std::move(schema)},
                   {"problems", result.problems}};
  }
  if (result.events == 0 && result.decode_errors != 0) {
    throw InputError(result.input + ": no valid events in the input: all " + std::to_string(result.decode_errors) +
                     " frame(s) failed to decode (is it a tband trace? is --format right?)");
  }
  return result;
}

// A ThreadX trace buffer: its entries as stored, oldest first, times in the
// time source's ticks (unwrapped), the running thread by its registry name.
DumpInputResult InputDumper::run_threadx(InputReader& reader, nlohmann::json* stats_json) {
  namespace tx = threadx;
  DumpInputResult result;
  result.input = input_.display_name();
  std::vector<std::uint8_t> bytes;
  for (auto chunk = reader.next(); !chunk.empty(); chunk = reader.next()) {
    bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  }
  result.input_bytes = reader.raw_bytes_read();
  if (options_.assumed_ns_per_ts != 0) {
    result.problems.push_back("--ts-resolution-ns has no effect on " + result.input +
                              ", a ThreadX trace buffer: its entries show the timer's own counts");
  }
  tx::Buffer buffer;
  try {
    buffer = tx::parse_buffer(bytes);
  } catch (const tx::BufferError& e) {
    throw InputError(result.input + ": " + e.what());
  }
  std::unordered_map<std::uint32_t, std::string> names;
  for (const tx::RegistryEntry& r : buffer.registry) {
    names.emplace(r.pointer, r.name);
  }
  const auto context = [&](std::uint32_t thread) -> std::string {
    if (thread == tx::kIsrContext) {
      return "ISR";
    }
    if (thread == tx::kInitContext) {
      return "initialization";
    }
    const auto it = names.find(thread);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", thread);
    return it != names.end() && !it->second.empty() ? it->second : text;
  };
  if (several_ && options_.style == DumpStyle::kText) {
    out_.write("# " + result.input + "\n");
  }
  std::map<std::string, std::uint64_t> counts;
  for (const tx::Entry& e : buffer.entries) {
    ++result.events;
    const std::string name = tx::event_name(e.event);
    const tx::EventKind* kind = tx::find_event_kind(e.event);
    const auto field = [&](std::size_t i) -> std::string {
      return kind != nullptr ? std::string{kind->fields[i]} : "info" + std::to_string(i + 1);
    };
    switch (options_.style) {
      case DumpStyle::kStats:
      case DumpStyle::kStatsJson:
        ++counts[name];
        break;
      case DumpStyle::kText:
        line_ = "core 0  ";
        append_number(line_, e.time);
        line_ += " ticks  " + name + " thread=" + context(e.thread);
        for (std::size_t i = 0; i < 4; ++i) {
          if (!field(i).empty()) {
            line_ += ' ' + field(i) + '=';
            append_number(line_, e.info[i]);
          }
        }
        line_ += '\n';
        out_.write(line_);
        break;
      case DumpStyle::kJsonLines: {
        nlohmann::json fields = nlohmann::json::object();
        for (std::size_t i = 0; i < 4; ++i) {
          if (!field(i).empty()) {
            fields[field(i)] = e.info[i];
          }
        }
        write_json(out_, {{"core", 0}, {"event", name}, {"id", e.event}, {"offset", e.offset}, {"ts", e.time},
                          {"thread", context(e.thread)}, {"fields", std::move(fields)}});
        break;
      }
    }
  }
  if (options_.style == DumpStyle::kStats) {
    if (several_) {
      out_.write("# " + result.input + "\n");
    }
    for (const auto& [name, n] : counts) {
      out_.write(name + " " + std::to_string(n) + "\n");
    }
    out_.write("events " + std::to_string(result.events) + "\n");
  } else if (options_.style == DumpStyle::kStatsJson && stats_json != nullptr) {
    *stats_json = {{"input", result.input},  {"format", "threadx"}, {"bytes", result.input_bytes},
                   {"events", result.events}, {"decode_errors", 0},  {"unknown_frames", 0},
                   {"by_event", counts},      {"problems", result.problems}};
  }
  return result;
}

}  // namespace

std::uint64_t DumpResult::events() const noexcept {
  std::uint64_t n = 0;
  for (const DumpInputResult& r : inputs) {
    n += r.events;
  }
  return n;
}

std::uint64_t DumpResult::decode_errors() const noexcept {
  std::uint64_t n = 0;
  for (const DumpInputResult& r : inputs) {
    n += r.decode_errors;
  }
  return n;
}

bool DumpResult::clean() const noexcept {
  for (const DumpInputResult& r : inputs) {
    if (r.decode_errors != 0 || !r.problems.empty()) {
      return false;
    }
  }
  return true;
}

DumpResult dump_trace(const DumpOptions& options, std::FILE* out_file) {
  BufferedOutput out{out_file, "stdout"};
  DumpResult result;
  nlohmann::json stats = nlohmann::json::array();
  const bool several = options.inputs.size() > 1;
  for (const InputSpec& input : options.inputs) {
    nlohmann::json one;
    result.inputs.push_back(InputDumper{options, input, out, several}.run(&one));
    if (options.style == DumpStyle::kStatsJson) {
      stats.push_back(std::move(one));
    }
  }
  if (options.style == DumpStyle::kStatsJson) {
    std::uint64_t bytes = 0, unknown = 0;
    for (const DumpInputResult& r : result.inputs) {
      bytes += r.input_bytes;
      unknown += r.unknown_frames;
    }
    write_json(out, {{"inputs", std::move(stats)},
                     {"total",
                      {{"bytes", bytes},
                       {"events", result.events()},
                       {"decode_errors", result.decode_errors()},
                       {"unknown_frames", unknown}}},
                     {"clean", result.clean()}},
               1);
  }
  out.flush();
  if (out.failed()) {
    throw std::runtime_error("writing the dump failed");
  }
  return result;
}

}  // namespace tband
