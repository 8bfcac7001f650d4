// The WebAssembly converter's entry (web/README.md): one call converts the
// inputs the page put in the virtual file system (emscripten's FS) into the
// outputs asked for, with the statistics, and answers with a JSON summary.
// The same conversion as `tband conv` and `tband stats --json` (app/); the
// page's JavaScript only moves bytes and shows what this returns.
#include <algorithm>
#include <cstdio>
#include <sys/types.h>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/emscripten.h>
#include <nlohmann/json.hpp>

#include "app/trace_analysis.hpp"
#include "input/input_reader.hpp"
#include "input/input_spec.hpp"
#include "schema/runtime_schema.hpp"
#include "schema/schema_files.hpp"
#include "schema/schema_set.hpp"
#include "stats/stats_format.hpp"
#include "tband_events.hpp"
#include "wasm_api.hpp"

// Output bytes to JavaScript: Module.tbandOutput(name, bytes), for an output
// path "js:NAME" (OutFile below). `bytes` is a view of the converter's memory,
// valid during the call only: the callee copies what it keeps (the page's
// worker) or writes it at once (Node's runner), so no copy is made for nothing.
EM_JS(void, tband_web_output, (const char* name, const void* data, std::size_t size), {
  Module["tbandOutput"](UTF8ToString(name), HEAPU8.subarray(data, data + size));
});

// Progress to the page: Module.tbandProgress(bytes read, total or -1).
EM_JS(void, tband_web_progress, (double done, double total), {
  if (Module["tbandProgress"]) {
    Module["tbandProgress"](done, total);
  }
});

namespace tband::web {

namespace {

// The CLI's exit codes (cli/commands.hpp), which the page shows with the message.
constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitInput = 3;
constexpr int kExitOutput = 4;

// An output, closed when done: a file in the virtual file system, or with a
// path "js:NAME" a stream of chunks to Module.tbandOutput(NAME, bytes). The
// stream spares the file system's growth (a copy of the file so far each time
// it grows by an eighth) and the copy out of it at the end (bench/RESULTS.md).
struct OutFile {
  std::FILE* file = nullptr;
  std::string js_name;
  explicit OutFile(const std::string& path) {
    if (path.rfind("js:", 0) == 0) {
      js_name = path.substr(3);
      file = fopencookie(this, "wb", {nullptr, &write_to_js, nullptr, nullptr});
    } else if (!path.empty()) {
      file = std::fopen(path.c_str(), "wb");
    }
    if (!path.empty() && file == nullptr) {
      throw std::runtime_error(path + ": cannot create the output");
    }
  }
  static ssize_t write_to_js(void* cookie, const char* data, std::size_t size) {
    tband_web_output(static_cast<OutFile*>(cookie)->js_name.c_str(), data, size);
    return static_cast<ssize_t>(size);
  }
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  ~OutFile() {
    if (file != nullptr) {
      std::fclose(file);
    }
  }
};

nlohmann::json diagnostics_json(const Diagnostics& diagnostics) {
  nlohmann::json kinds = nlohmann::json::array();
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    const auto kind = static_cast<DiagnosticKind>(k);
    if (diagnostics.count(kind) == 0) {
      continue;
    }
    nlohmann::json first = nlohmann::json::array();
    for (const Diagnostic& d : diagnostics.kept()) {
      if (d.kind == kind) {
        first.push_back(d.message);
      }
    }
    kinds.push_back({{"id", diagnostic_id(kind)},
                     {"kind", to_string(kind)},
                     {"count", diagnostics.count(kind)},
                     {"first", std::move(first)}});
  }
  return kinds;
}

// The tables `tband stats` prints, cell for cell, for the page to show.
nlohmann::json stats_tables_json(const TraceStats& stats) {
  nlohmann::json tables = nlohmann::json::array();
  for (const StatsTable& t : stats_tables(stats)) {
    tables.push_back({{"title", t.title}, {"header", t.header}, {"rows", t.rows}, {"right", t.right}});
  }
  return tables;
}

// The whole number under `key` (e.g. ts_resolution_ns), checked as the CLI
// checks its option (--ts-resolution-ns) but named by the page's field (the
// Tick length), which is what the user typed it into; 0 or absent: not given.
std::uint64_t given_count(const nlohmann::json& request, const std::string& key, const char* field, std::uint64_t max,
                          const char* unit) {
  const auto value = request.find(key);
  if (value == request.end()) {
    return 0;
  }
  if (!value->is_number_unsigned() || value->get<std::uint64_t>() > max) {
    throw UsageError(std::string{"the "} + field + " is " + value->dump() + ": give a whole number of " + unit +
                     " from 1 to " + std::to_string(max));
  }
  return value->get<std::uint64_t>();
}

// A tick option that did nothing, in the page's terms (its Tick and ThreadX
// clock fields); the CLI names its flags instead (cli/tick_option_warning.cpp).
std::string tick_option_warning(const UnusedTickOption& unused) {
  switch (unused.option) {
    case UnusedTickOption::Option::kTsResolution:
      return "the Tick length has no effect on " + unused.input +
             ", a ThreadX trace buffer: give its timer's rate as the ThreadX clock";
    case UnusedTickOption::Option::kThreadxClock:
      return "the ThreadX clock has no effect on tband traces (" + unused.input +
             "): their tick length is in the trace, or given as the Tick length";
  }
  return "a tick option has no effect on " + unused.input;  // not reached: every option is named above
}

nlohmann::json convert_request(const nlohmann::json& request) {
  ConversionOptions conversion;
  std::unique_ptr<SchemaSet> schemas;
  std::uint32_t cores = 1;
  try {
    for (const auto& arg : request.at("inputs")) {
      conversion.inputs.push_back(parse_input_spec(arg.get<std::string>()));
      cores = std::max(cores, conversion.inputs.back().core.value_or(0) + 1);
    }
    conversion.format = request.value("format", std::string{"auto"});
    const std::string mode = request.value("mode", std::string{"freertos"});
    if (mode != "freertos" && mode != "bare-metal") {
      throw UsageError("--mode is '" + mode + "': give freertos or bare-metal");
    }
    conversion.interpreter.mode = mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
    conversion.interpreter.core_count = request.value("core_count", cores);
    // As the CLI's --ts-resolution-ns (cli/ts_resolution_option.cpp) and --threadx-clock-hz.
    conversion.interpreter.assumed_ns_per_ts =
        given_count(request, "ts_resolution_ns", "Tick length", InterpreterOptions::kMaxAssumedNsPerTs, "nanoseconds");
    if (const std::uint64_t hz =
            given_count(request, "threadx_clock_hz", "ThreadX clock", ConversionOptions::kMaxThreadxClockHz,
                        "ticks per second");
        hz != 0) {
      conversion.threadx_clock_hz = hz;
    }
    conversion.threads = ConversionThreads::kOne;
    check_inputs(conversion.inputs, conversion.interpreter.core_count);
  } catch (const std::invalid_argument& e) {
    return {{"exit_code", kExitUsage}, {"error", e.what()}};
  } catch (const UsageError& e) {
    return {{"exit_code", kExitUsage}, {"error", e.what()}};
  }
  std::vector<std::string> input_paths;
  for (const InputSpec& in : conversion.inputs) {
    input_paths.push_back(in.path);
  }
  try {
    schemas = std::make_unique<SchemaSet>(CompiledSchema{all_event_infos(), kSchemaTraceId});
    const auto schema_paths = request.value("schemas", std::vector<std::string>{});
    if (!schema_paths.empty()) {
      for (auto& schema : load_schema_files(schema_paths, std::nullopt)) {
        schemas->add_given(std::move(schema));
      }
    }
    for (std::string& candidate : search_path_candidates("", input_paths)) {
      schemas->add_candidate(std::move(candidate));
    }
    schemas->set_search_description("tband_schema.json next to the trace");
  } catch (const SchemaLoadError& e) {
    return {{"exit_code", kExitUsage}, {"error", e.what()}};
  }
  conversion.schemas = schemas.get();
  conversion.progress = [](std::uint64_t done, std::optional<std::uint64_t> total) {
    tband_web_progress(static_cast<double>(done), total ? static_cast<double>(*total) : -1.0);
  };

  Analysis analysis;
  try {
    const OutFile perfetto{request.value("perfetto", std::string{})};
    const OutFile json{request.value("json", std::string{})};
    conversion.perfetto = {perfetto.file, request.value("perfetto", std::string{})};
    conversion.json = {json.file, request.value("json", std::string{})};
    if (request.value("stats", true)) {
      analysis = analyze(conversion, StatsOptions{});
    } else {
      analysis.result = convert(conversion);  // "stats": false, as `tband conv` (bench/RESULTS.md)
    }
  } catch (const InputError& e) {
    return {{"exit_code", kExitInput}, {"error", e.what()}};
  } catch (const UsageError& e) {
    return {{"exit_code", kExitUsage}, {"error", e.what()}};
  } catch (const std::exception& e) {
    return {{"exit_code", kExitOutput}, {"error", e.what()}};
  }
  const ConversionResult& r = analysis.result;
  std::vector<std::string> unused_options;
  for (const UnusedTickOption& unused : r.unused_options) {
    unused_options.push_back(tick_option_warning(unused));
  }
  return {{"exit_code", kExitOk},
          {"events", r.events},
          {"tracks", r.tracks},
          {"input_bytes", r.input_bytes},
          {"decode_errors", r.decode_errors},
          {"unknown_frames", r.unknown_frames},
          {"first_ts_ns", r.first_ts_ns},
          {"last_ts_ns", r.last_ts_ns},
          {"duration_ns", r.last_ts_ns > r.first_ts_ns ? r.last_ts_ns - r.first_ts_ns : 0},
          {"dropped_events", r.dropped_events},
          {"perfetto_bytes", r.perfetto_bytes},
          {"json_bytes", r.json_bytes},
          {"diagnostics", diagnostics_json(r.diagnostics)},
          {"diagnostics_text", r.diagnostics.summary()},
          {"notes", r.notes},
          {"unused_options", unused_options},
          {"schema_notes", schemas->notes()},
          {"schema_conflicts", schemas->conflicts()},
          {"stats", request.value("stats", true) ? nlohmann::json::parse(format_stats_json(analysis.stats))
                                                  : nlohmann::json{}},
          {"stats_tables", request.value("stats", true) ? stats_tables_json(analysis.stats) : nlohmann::json::array()}};
}

}  // namespace

}  // namespace tband::web

/// Converts as `request_json` says ({"inputs": ["file@core", ...], "schemas":
/// [...], "mode", "format", "core_count", "ts_resolution_ns",
/// "threadx_clock_hz", "perfetto": path, "json": path, "stats": false to skip
/// the statistics});
/// returns the summary as JSON text, valid until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* tband_web_convert(const char* request_json) {
  static std::string answer;
  nlohmann::json reply;
  try {
    reply = tband::web::convert_request(nlohmann::json::parse(request_json));
  } catch (const std::exception& e) {
    reply = {{"exit_code", tband::web::kExitUsage}, {"error", std::string{"bad request: "} + e.what()}};
  }
  answer = reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return answer.c_str();
}
