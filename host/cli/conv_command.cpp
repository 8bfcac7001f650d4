// tband conv: inputs -> Perfetto, JSON and/or VCD, a summary and the diagnostics
// on stderr, then optionally serve the result to ui.perfetto.dev.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "app/conversion.hpp"
#include "cli/allow_option.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "cli/schema_options.hpp"
#include "cli/tick_option_warning.hpp"
#include "common/output_file.hpp"
#include "common/scratch_file.hpp"
#include "input/input_reader.hpp"

namespace tband::cli {

namespace {

// A VCD written to stdout, a FIFO or a device (/dev/null): no files next
// to it, and the spool in $TMPDIR.
bool vcd_is_special(const std::string& vcd) {
  struct stat st{};
  return vcd == "-" || (::stat(vcd.c_str(), &st) == 0 && !S_ISREG(st.st_mode));
}

// The files next to a VCD FILE: translate filters for its name codes, task
// ids and ISR ids, and a GTKWave save file (none for a special file).
struct VcdSideFiles {
  std::string names, tasks, isrs, save;
};
VcdSideFiles vcd_side_files(const std::string& vcd) {
  if (vcd.empty() || vcd_is_special(vcd)) {
    return {};
  }
  return {vcd + ".filter", vcd + ".tasks.filter", vcd + ".isrs.filter", vcd + ".gtkw"};
}

// The same, absolute, as the save file names them (GTKWave may be started
// elsewhere); with its own path, so that a moved folder still opens.
VcdWriter::SaveFilePaths save_file_paths(const std::string& vcd, const VcdSideFiles& side) {
  if (side.save.empty()) {
    return {};
  }
  const auto absolute = [](const std::string& path) {
    return std::filesystem::absolute(path).lexically_normal().string();
  };
  return {absolute(vcd), absolute(side.names), absolute(side.tasks), absolute(side.isrs), absolute(side.save)};
}

// The VCD writer's spool goes beside the VCD (a big trace then needs room
// where its VCD goes, not in /tmp).
std::string spool_dir(const std::string& vcd) {
  if (vcd.empty() || vcd_is_special(vcd)) {
    return temporary_folder();
  }
  const std::size_t slash = vcd.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : vcd.substr(0, slash);
}

std::string per_event(std::uint64_t bytes, std::uint64_t events) {
  if (events == 0) {
    return "";
  }
  char text[64];
  std::snprintf(text, sizeof text, " (%.1f bytes/event)", static_cast<double>(bytes) / static_cast<double>(events));
  return text;
}

// The summary line, the diagnostics and, with -v, the notes on the inputs.
void print_summary(const ConvOptions& options, const GlobalOptions& global, const ConversionResult& result,
                   const SchemaSet& schemas, const std::string& perfetto_path) {
  if (global.verbose > 0) {
    for (const std::string& note : result.notes) {
      std::cerr << "tband conv: " << note << "\n";
    }
    for (const std::string& note : schemas.notes()) {
      std::cerr << "tband conv: note: " << note << "\n";
    }
  }
  std::cerr << "tband conv: " << result.events << " events from " << result.input_bytes << " bytes";
  if (result.decode_errors != 0) {
    std::cerr << ", " << result.decode_errors << " undecodable frame(s)";
  }
  std::cerr << "; " << result.tracks << " tracks";
  if (result.last_ts_ns > result.first_ts_ns) {
    char span[48];
    std::snprintf(span, sizeof span, "; %.3f ms", static_cast<double>(result.last_ts_ns - result.first_ts_ns) / 1e6);
    std::cerr << span;
  }
  std::cerr << "; " << result.dropped_events << " dropped on the target";
  if (!perfetto_path.empty() && perfetto_path != "-") {
    std::cerr << "; " << perfetto_path << ": " << result.perfetto_bytes << " bytes"
              << per_event(result.perfetto_bytes, result.events);
  }
  if (!options.json.empty() && options.json != "-") {
    std::cerr << "; " << options.json << ": " << result.json_bytes << " bytes";
  }
  if (!options.vcd.empty() && options.vcd != "-") {
    std::cerr << "; " << options.vcd << ": " << result.vcd_bytes << " bytes";
  }
  std::cerr << "\n" << result.diagnostics.summary();
  for (const UnusedTickOption& unused : result.unused_options) {
    std::cerr << "tband conv: warning: " << tick_option_warning(unused) << "\n";
  }
  for (const std::string& conflict : schemas.conflicts()) {
    std::cerr << "tband conv: warning: " << conflict << "\n";
  }
  if (result.vcd_clamped != 0) {
    std::cerr << "tband conv: note: " << result.vcd_clamped
              << " VCD value change(s) earlier than the one before were written at the later time\n";
  }
  if (perfetto_path.empty() && options.json.empty() && options.vcd.empty()) {
    std::cerr << "tband conv: checked only, nothing written: add -o FILE.pftrace (Perfetto), --json FILE.json, "
                 "--vcd FILE.vcd or --serve\n";
  }
}

}  // namespace

int run_conv(const ConvOptions& options, const GlobalOptions& global) {
  ConversionOptions conversion;
  try {
    for (const std::string& arg : options.inputs) {
      conversion.inputs.push_back(parse_input_spec(arg));
    }
    conversion.format = options.format;
    conversion.interpreter.mode = options.mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
    conversion.interpreter.core_count = options.core_count;
    conversion.interpreter.assumed_ns_per_ts = options.ts_resolution_ns;
    conversion.threads = parse_threads(options.threads);
    conversion.threadx_clock_hz = threadx_clock(options.threadx_clock_hz);
    check_inputs(conversion.inputs, options.core_count);
    if ((options.output == "-") + (options.json == "-") + (options.vcd == "-") > 1) {
      throw UsageError("only one of -o -, --json - and --vcd - can write to stdout");
    }
    if ((options.serve || options.open) && options.output == "-") {
      throw UsageError("--serve/--open need a file, not -o -");
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitUsage;
  }
  // Inputs first: a missing input must cost no output file, nor wait on a FIFO.
  try {
    check_inputs_readable(conversion.inputs);
  } catch (const InputError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitInput;
  }
  std::unique_ptr<SchemaSet> schemas;
  try {
    schemas = make_schema_set(options.schemas, conversion.inputs);
  } catch (const SchemaLoadError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitUsage;
  }
  conversion.schemas = schemas.get();

  const bool serving = options.serve || options.open;
  std::string perfetto_path = options.output;
  // Without -o the served trace is a scratch file, gone when serving ends
  // (a Ctrl-C included): it piled up in /tmp, one per run.
  std::optional<ScratchFile> served_copy;
  if (serving && perfetto_path.empty()) {
    try {
      served_copy.emplace(".pftrace");
    } catch (const std::runtime_error& e) {
      std::cerr << "tband conv: error: " << e.what() << " for --serve\n";
      return kExitOutput;
    }
    perfetto_path = served_copy->path();
  }

  ConversionResult result;
  const RunTimer timer;
  try {
    std::vector<std::string> input_paths;
    for (const InputSpec& in : conversion.inputs) {
      input_paths.push_back(in.path);
    }
    const VcdSideFiles side = vcd_side_files(options.vcd);
    check_output_paths(input_paths,
                       {perfetto_path, options.json, options.vcd, side.names, side.tasks, side.isrs, side.save});
    OutputFile perfetto_file{perfetto_path};
    OutputFile json_file{options.json};
    OutputFile vcd_file{options.vcd};
    OutputFile names_file{side.names};
    OutputFile tasks_file{side.tasks};
    OutputFile isrs_file{side.isrs};
    OutputFile save_file{side.save};
    conversion.perfetto = {perfetto_file.file(), perfetto_file.display_name()};
    conversion.json = {json_file.file(), json_file.display_name()};
    conversion.vcd = {vcd_file.file(), vcd_file.display_name()};
    conversion.vcd_spool_dir = spool_dir(options.vcd);
    conversion.vcd_logic_only = options.vcd_logic;
    conversion.vcd_save_paths = save_file_paths(options.vcd, side);
    ProgressBar progress{!options.no_progress && !global.quiet};
    if (progress.enabled()) {
      conversion.progress = [&](std::uint64_t done, std::optional<std::uint64_t> total) { progress.update(done, total); };
    }
    result = convert(conversion);
    progress.clear();
    for (const auto& [file, text] : {std::pair<OutputFile*, const std::string*>{&names_file, &result.vcd_translate_filter},
                                     {&tasks_file, &result.vcd_task_filter},
                                     {&isrs_file, &result.vcd_isr_filter},
                                     {&save_file, &result.vcd_save_file}}) {
      if (file->file() != nullptr && std::fwrite(text->data(), 1, text->size(), file->file()) != text->size()) {
        throw OutputWriteError(file->display_name() + ": write failed");
      }
    }
    perfetto_file.commit();
    json_file.commit();
    vcd_file.commit();
    for (OutputFile* file : {&names_file, &tasks_file, &isrs_file, &save_file}) {
      file->commit();
    }
  } catch (const OutputPathError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const UsageError& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "tband conv: error: " << e.what() << "\n";
    return kExitOutput;
  }

  if (!global.quiet) {
    print_summary(options, global, result, *schemas, perfetto_path);
    if (global.verbose > 1) {
      std::cerr << "tband conv: " << timer.rate(result.events, result.input_bytes) << "\n";
    }
  }

  const std::uint64_t warnings = result.diagnostics.total_not_allowed(allowed_diagnostics(options.allow));
  int code = kExitOk;
  if (options.strict && warnings != 0) {
    std::cerr << "tband conv: error: " << warnings << " warning(s)" << (options.allow.empty() ? "" : " not allowed")
              << " and --strict\n";
    code = kExitWarnings;
  }
  if (serving) {
    ServeCmdOptions serve;
    serve.file = perfetto_path;
    serve.port = options.port;
    serve.open = options.open;
    const int served = serve_file(serve);
    if (served != kExitOk) {
      return served;
    }
  }
  return code;
}

}  // namespace tband::cli
