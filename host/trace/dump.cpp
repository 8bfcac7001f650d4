#include "trace/dump.hpp"

#include <array>
#include <charconv>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/buffered_output.hpp"
#include "decode/event_format.hpp"
#include "json/field_json.hpp"
#include "trace/event_stream.hpp"

namespace tband {

namespace {

void append_number(std::string& line, std::uint64_t value) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  (void)ec;
  line.append(buf, end);
}

}  // namespace

DumpResult dump_trace(const DumpOptions& options, std::FILE* out_file) {
  EventStream stream{std::make_unique<InputReader>(options.input, options.format), 0};
  BufferedOutput out{out_file, "stdout"};
  DumpResult result;
  std::uint64_t ns_per_ts = 1;
  std::array<std::uint64_t, kEventCount> counts{};
  std::string line;

  stream.drain([&](const StreamItem& current) {
    const StreamItem* item = &current;
    if (!item->result.ok()) {
      ++result.decode_errors;
      const std::string message = describe(item->result.error());
      if (options.style == DumpStyle::kJsonLines) {
        const nlohmann::json j = {{"core", item->core}, {"offset", item->at->offset}, {"error", message}};
        out.write(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        out.write("\n");
      } else if (options.style == DumpStyle::kText) {
        line = "core ";
        append_number(line, item->core);
        line += "  error at byte ";
        append_number(line, item->at->offset);
        line += ": " + message + "\n";
        out.write(line);
      }
      return;
    }
    const Event& event = item->result.value();
    ++result.events;
    if (const auto* res = std::get_if<TsResolutionNs>(&event); res != nullptr && res->ns_per_ts != 0) {
      ns_per_ts = res->ns_per_ts;
    }
    const bool has_ts = item->has_ts;
    const std::uint64_t ts = item->ts;
    const EventInfo& info = event_info(event);
    switch (options.style) {
      case DumpStyle::kStats:
        ++counts[event.index()];
        break;
      case DumpStyle::kText:
        line = "core ";
        append_number(line, item->core);
        if (has_ts) {
          line += "  ";
          append_number(line, ts * ns_per_ts);
          line += " ns  ";
        } else {
          line += "  metadata  ";
        }
        line += info.name;
        visit_fields(event, [&](const FieldValue& field) {
          if (field.info->implicit) {
            return;
          }
          line += ' ';
          line += field.info->name;
          line += '=';
          line += format_field_value(field);
        });
        line += '\n';
        out.write(line);
        break;
      case DumpStyle::kJsonLines: {
        nlohmann::json j = {{"core", item->core}, {"event", info.name}, {"offset", item->at->offset}};
        if (has_ts) {
          j["ts"] = ts;
          j["ts_ns"] = ts * ns_per_ts;
        }
        nlohmann::json fields = nlohmann::json::object();
        visit_fields(event, [&](const FieldValue& field) {
          if (!field.info->implicit && field.present) {
            fields[std::string{field.info->name}] = field_json(field);
          }
        });
        j["fields"] = std::move(fields);
        out.write(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        out.write("\n");
        break;
      }
    }
  });
  if (options.style == DumpStyle::kStats) {
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] != 0) {
        line = std::string{all_event_infos()[i].name} + " " + std::to_string(counts[i]) + "\n";
        out.write(line);
      }
    }
    line = "events " + std::to_string(result.events) + "\ndecode_errors " + std::to_string(result.decode_errors) + "\n";
    out.write(line);
  }
  result.input_bytes = stream.reader().raw_bytes_read();
  out.flush();
  if (out.failed()) {
    throw std::runtime_error("writing the dump failed");
  }
  if (result.events == 0 && result.decode_errors != 0) {
    throw InputError("no valid events in the input: all " + std::to_string(result.decode_errors) +
                     " frame(s) failed to decode (is it a tband trace? is --format right?)");
  }
  return result;
}

}  // namespace tband
