// tband stats, check and report.
#include "cli/analysis_commands.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/trace_analysis.hpp"
#include "cli/allow_option.hpp"
#include "cli/progress.hpp"
#include "cli/schema_options.hpp"
#include "cli/tick_option_warning.hpp"
#include "cli/ts_resolution_option.hpp"
#include "common/output_file.hpp"
#include "input/input_reader.hpp"
#include "report/html_report.hpp"
#include "report/rule_check.hpp"
#include "stats/quantity.hpp"
#include "stats/stats_format.hpp"

namespace tband::cli {

namespace {

void add_input_options(CLI::App& cmd, TraceInputOptions& in) {
  cmd.add_option("inputs", in.inputs, "Input files; FILE@N for the events of core N only; - reads stdin")
      ->required()
      ->type_name("INPUT");
  cmd.add_option("-f,--format", in.format, format_help())->check(CLI::IsMember(format_names()))->capture_default_str();
  cmd.add_option("-m,--mode", in.mode, "How to interpret the trace: bare-metal or freertos")
      ->transform(CLI::IsMember({"bare-metal", "freertos", "free-rtos"}))
      ->capture_default_str();
  cmd.add_option("-c,--core-count", in.core_count, "Number of cores of the target")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd.add_option("--gap", in.gap, "A time without any event longer than this counts as a gap (e.g. 10ms)")
      ->capture_default_str();
  cmd.add_flag("--no-progress", in.no_progress, "No progress bar, even on a terminal");
  cmd.add_option("--threads", in.threads, kThreadsHelp)->check(CLI::IsMember({"auto", "1", "2"}))->capture_default_str();
  cmd.add_option("--schema", in.schemas, kSchemaHelp)->type_name("FILE")->allow_extra_args(false);
  add_ts_resolution_option(cmd, in.ts_resolution_ns);
  cmd.add_option("--threadx-clock-hz", in.threadx_clock_hz, kThreadxClockHelp)
      ->check(CLI::Range(std::uint64_t{1}, ConversionOptions::kMaxThreadxClockHz))
      ->type_name("HZ");
}

/// A command's failure with its exit code, reported once where it is caught.
struct CommandError {
  int code;
  std::string message;
};

/// The files a command writes, and what else it reads besides the traces
/// (a rules file): checked against the inputs before anything is read.
struct CommandFiles {
  std::vector<std::string> outputs;
  std::vector<std::string> other_inputs;
};

/// Runs the analysis the options describe; prints the conversion summary and
/// the diagnostics on stderr as conv does. Throws CommandError.
Analysis analyze_inputs(const TraceInputOptions& in, bool time_series, const std::string& command,
                        const GlobalOptions& global, const CommandFiles& files) {
  ConversionOptions conversion;
  StatsOptions stats;
  stats.time_series = time_series;
  try {
    for (const std::string& arg : in.inputs) {
      conversion.inputs.push_back(parse_input_spec(arg));
    }
    conversion.format = in.format;
    conversion.interpreter.mode = in.mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
    conversion.interpreter.core_count = in.core_count;
    conversion.interpreter.assumed_ns_per_ts = in.ts_resolution_ns;
    conversion.threads = parse_threads(in.threads);
    conversion.threadx_clock_hz = threadx_clock(in.threadx_clock_hz);
    check_inputs(conversion.inputs, in.core_count);
    std::string error;
    const auto gap = parse_quantity(in.gap, error);
    if (!gap || gap->kind != QuantityKind::kDuration || gap->value < 0) {
      throw UsageError("--gap " + in.gap + ": " + (gap ? "give a duration such as 10ms" : error));
    }
    stats.gap_threshold_ns = static_cast<std::uint64_t>(gap->value);
  } catch (const std::invalid_argument& e) {
    throw CommandError{kExitUsage, e.what()};
  } catch (const UsageError& e) {
    throw CommandError{kExitUsage, e.what()};
  }
  try {
    check_inputs_readable(conversion.inputs);
  } catch (const InputError& e) {
    throw CommandError{kExitInput, e.what()};
  }
  try {
    std::vector<std::string> read = files.other_inputs;
    for (const InputSpec& spec : conversion.inputs) {
      read.push_back(spec.path);
    }
    check_output_paths(read, files.outputs);
  } catch (const OutputPathError& e) {
    throw CommandError{kExitUsage, e.what()};
  } catch (const OutputWriteError& e) {
    throw CommandError{kExitOutput, e.what()};
  }

  std::unique_ptr<SchemaSet> schemas;
  try {
    schemas = make_schema_set(in.schemas, conversion.inputs);
  } catch (const SchemaLoadError& e) {
    throw CommandError{kExitUsage, e.what()};
  }
  conversion.schemas = schemas.get();

  Analysis analysis;
  const RunTimer timer;
  try {
    ProgressBar progress{!in.no_progress && !global.quiet};
    if (progress.enabled()) {
      conversion.progress = [&](std::uint64_t done, std::optional<std::uint64_t> total) { progress.update(done, total); };
    }
    analysis = analyze(conversion, stats);
  } catch (const InputError& e) {
    throw CommandError{kExitInput, e.what()};
  } catch (const UsageError& e) {
    throw CommandError{kExitUsage, e.what()};
  }
  const ConversionResult& r = analysis.result;
  if (global.quiet) {
    return analysis;
  }
  if (global.verbose > 0) {
    for (const std::string& note : r.notes) {
      std::cerr << "tband " << command << ": " << note << "\n";
    }
    for (const std::string& note : schemas->notes()) {
      std::cerr << "tband " << command << ": note: " << note << "\n";
    }
  }
  std::cerr << "tband " << command << ": " << r.events << " events from " << r.input_bytes << " bytes";
  if (r.decode_errors != 0) {
    std::cerr << ", " << r.decode_errors << " undecodable frame(s)";
  }
  std::cerr << "; " << r.dropped_events << " dropped on the target\n" << r.diagnostics.summary();
  for (const UnusedTickOption& unused : r.unused_options) {
    std::cerr << "tband " << command << ": warning: " << tick_option_warning(unused) << "\n";
  }
  for (const std::string& conflict : schemas->conflicts()) {
    std::cerr << "tband " << command << ": warning: " << conflict << "\n";
  }
  if (global.verbose > 1) {
    std::cerr << "tband " << command << ": " << timer.rate(r.events, r.input_bytes) << "\n";
  }
  return analysis;
}

/// Writes text to a file (through a temporary file renamed into place), or
/// stdout for "-". Throws CommandError.
void write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    if (!std::cout) {
      throw CommandError{kExitOutput, "writing to stdout failed"};
    }
    return;
  }
  try {
    write_output_file(path, text);
  } catch (const OutputPathError& e) {
    throw CommandError{kExitUsage, e.what()};
  } catch (const std::runtime_error& e) {
    throw CommandError{kExitOutput, e.what()};
  }
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) {
    out += (out.empty() ? "" : " ") + s;
  }
  return out;
}

int run_stats(const StatsCmdOptions& o, const GlobalOptions& global) {
  if (o.json && o.csv) {
    throw CommandError{kExitUsage, "--json and --csv exclude each other"};
  }
  const Analysis a = analyze_inputs(o.in, false, "stats", global, {{o.output}, {}});
  write_output(o.output, o.json  ? format_stats_json(a.stats)
                         : o.csv ? format_stats_csv(a.stats)
                                 : format_stats_text(a.stats));
  return kExitOk;
}

int run_check(const CheckCmdOptions& o, const GlobalOptions& global) {
  const auto start = std::chrono::steady_clock::now();
  RulesFile rules;
  try {
    rules = load_rules_file(o.rules);
  } catch (const std::exception& e) {  // RulesError or unreadable: the rules are the user's to fix
    throw CommandError{kExitUsage, e.what()};
  }
  const Analysis a = analyze_inputs(o.in, false, "check", global, {{o.junit}, {o.rules}});
  CheckReport report;
  try {
    report = check_rules(rules, a.stats, a.result.diagnostics, allowed_diagnostics(o.allow));
  } catch (const RulesError& e) {
    throw CommandError{kExitUsage, e.what()};
  }
  write_output("-", format_check_text(report));
  if (!o.junit.empty()) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_output(o.junit, format_junit(report, joined(o.in.inputs), seconds));
  }
  return report.failures() == 0 ? kExitOk : kExitWarnings;
}

int run_report(const ReportCmdOptions& o, const GlobalOptions& global) {
  const Analysis a = analyze_inputs(o.in, true, "report", global, {{o.output}, {}});
  ReportInfo info;
  info.title = o.title.empty() ? "tband report: " + joined(o.in.inputs) : o.title;
  info.inputs = joined(o.in.inputs);
  info.diagnostics_summary = a.result.diagnostics.summary();
  write_output(o.output, format_html_report(a.stats, info));
  if (o.output != "-") {
    std::cerr << "tband report: wrote " << o.output << "\n";
  }
  return kExitOk;
}

}  // namespace

void AnalysisCommands::add_to(CLI::App& app) {
  stats_cmd_ = app.add_subcommand(
      "stats", "Statistics of a trace: ISR and marker durations with percentiles, task CPU load, queues, health");
  add_input_options(*stats_cmd_, stats_.in);
  stats_cmd_->add_flag("--json", stats_.json, "JSON: every figure by the name rules use, and per row with units");
  stats_cmd_->add_flag("--csv", stats_.csv, "CSV: one line per figure (name, value, unit, where)");
  stats_cmd_->add_option("-o,--output", stats_.output, "Write here instead of stdout")->capture_default_str();

  check_cmd_ = app.add_subcommand("check", "Check a trace against rules over its statistics (for CI): exit 1 if any fails");
  check_cmd_->add_option("-r,--rules", check_.rules, "The rules file (YAML): `rules:` and `allow:`")
      ->required()
      ->type_name("FILE");
  add_input_options(*check_cmd_, check_.in);
  add_allow_option(*check_cmd_, check_.allow, "Tolerate diagnostics of this kind besides the rules file's `allow:`");
  check_cmd_->add_option("--junit", check_.junit, "Also write the outcome as JUnit XML here")->type_name("FILE");

  report_cmd_ = app.add_subcommand(
      "report", "One self-contained HTML page: duration histograms, CPU load and values over time, the stats tables");
  add_input_options(*report_cmd_, report_.in);
  report_cmd_->add_option("-o,--output", report_.output, "The HTML file to write (- for stdout)")->required();
  report_cmd_->add_option("--title", report_.title, "The page's title");
}

std::optional<int> AnalysisCommands::run(const GlobalOptions& global) {
  const char* name = stats_cmd_->parsed() ? "stats" : check_cmd_->parsed() ? "check" : "report";
  try {
    if (stats_cmd_->parsed()) {
      return run_stats(stats_, global);
    }
    if (check_cmd_->parsed()) {
      return run_check(check_, global);
    }
    if (report_cmd_->parsed()) {
      return run_report(report_, global);
    }
  } catch (const CommandError& e) {
    std::cerr << "tband " << name << ": error: " << e.message << "\n";
    return e.code;
  }
  return std::nullopt;
}

}  // namespace tband::cli
