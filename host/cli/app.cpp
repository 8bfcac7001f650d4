#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/allow_option.hpp"
#include "cli/ts_resolution_option.hpp"
#include "cli/analysis_commands.hpp"
#include "cli/command_suggestion.hpp"
#include "cli/commands.hpp"
#include "cli/ctl_command.hpp"
#include "cli/record_command.hpp"
#include "cli/schema_options.hpp"
#include "cli/serve_live.hpp"
#include "input/input_format.hpp"
#include "tband_events.hpp"

namespace tband::cli {

namespace {

// A TCP port to listen on; 0 takes a free one, which the printed link names
// (so scripts and tests need not guess a free port and race for it).
const CLI::Range kPortRange{0, 65535, "PORT"};

constexpr const char* kExamples = R"(
Examples:
  tband conv trace.bin -o trace.pftrace           convert, then open the file in ui.perfetto.dev
  tband conv --mode bare-metal uart.log --json t.json
  tband conv trace.bin --vcd t.vcd                 signals for GTKWave/PulseView (and t.vcd.gtkw, filters)
  tband conv -c 2 core0.bin@0 core1.bin@1 --serve  per-core files; serve the result to ui.perfetto.dev
  cat trace.hex | tband conv --format hex - -o t.pftrace
  tband conv trace.bin.zst -o trace.pftrace       zstd or gzip: decompressed as it is read
  tband conv --strict trace.bin                    CI check: exit 1 on any warning
  tband conv --strict --allow truncated_end t.bin  ... except a capture cut mid-frame
  tband conv --schema gen/descriptor/tband_schema.json app.bin -o app.pftrace
                                                   your own events, without rebuilding tband
  tband dump trace.bin                             one line per event
  tband dump --json trace.bin | jq .event          JSON Lines for scripts
  tband dump --strict --stats --json *.bin         CI check of several traces: exit 1 on any error
  tband serve trace.pftrace                        serve a converted trace
  tband stats trace.bin                            ISR/marker durations, CPU load, queues, health
  tband check --rules rules.yaml trace.bin         CI: exit 1 when a rule fails (--junit out.xml)
  tband report trace.bin -o report.html            one HTML page with histograms and load plots
  source <(tband completion bash)

Exit codes: 0 converted (warnings are printed), 1 warnings with --strict or a
failed check, 2 bad usage or rules file, 3 unreadable input, 4 output or server failure.)";

}  // namespace

std::vector<std::string> format_names() {
  std::vector<std::string> names{"auto"};
  for (const InputFormat& f : input_formats()) {
    names.emplace_back(f.name);
  }
  return names;
}

std::string format_help() {
  std::string help = "Input format:\n  auto: sniff from the first bytes";
  for (const InputFormat& f : input_formats()) {
    help += "\n  " + std::string{f.name} + ": " + std::string{f.description};
  }
  return help + "\nzstd and gzip inputs (.zst, .gz, or any name) are decompressed first, found by their magic";
}

int run(int argc, char** argv) {
  CLI::App app{"tband: decode embedded traces; convert them to Perfetto or JSON, dump, check, serve", "tband"};
  app.set_version_flag("-V,--version",
                       std::string{"tband "} + TBAND_VERSION + " (schema " + std::string{kSchemaHash.substr(0, 16)} + ")");
  app.require_subcommand(1);
  GlobalOptions global;
  CLI::Option* verbose =
      app.add_flag("-v,--verbose", global.verbose, "Notes on the inputs on stderr; -vv also the time taken and the rate");
  app.add_flag("-q,--quiet", global.quiet, "Only errors on stderr: no summary, warnings or progress")->excludes(verbose);

  ConvOptions conv;
  CLI::App* conv_cmd = app.add_subcommand("conv", "Convert trace recordings to Perfetto (.pftrace) and/or JSON");
  conv_cmd->add_option("inputs", conv.inputs,
                       "Input files; FILE@N for the events of core N only; - reads stdin")
      ->required()
      ->type_name("INPUT");
  conv_cmd->add_option("-f,--format", conv.format, format_help())
      ->check(CLI::IsMember(format_names()))
      ->capture_default_str();
  conv_cmd->add_option("-m,--mode", conv.mode, "How to interpret the trace: bare-metal or freertos")
      ->transform(CLI::IsMember({"bare-metal", "freertos", "free-rtos"}))
      ->capture_default_str();
  conv_cmd->add_option("-c,--core-count", conv.core_count, "Number of cores of the target")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  conv_cmd->add_option("-o,--output", conv.output, "Write the Perfetto trace here (- for stdout)");
  conv_cmd->add_option("--json", conv.json, "Write Chrome trace-event JSON here (- for stdout)");
  conv_cmd->add_option("--vcd", conv.vcd,
                       "Write a Value Change Dump for waveform viewers here (- for stdout), and next to it GTKWave "
                       "translate filters naming its *_name codes (FILE.filter), task ids (FILE.tasks.filter) and "
                       "ISR ids (FILE.isrs.filter), and a save file that opens it with them (FILE.gtkw)");
  conv_cmd
      ->add_flag("--vcd-logic", conv.vcd_logic,
                 "Only the VCD's 1-bit signals: for PulseView and sigrok (libsigrok 0.5), whose VCD input stops "
                 "at the first multi-bit value")
      ->needs(conv_cmd->get_option("--vcd"));
  conv_cmd->add_flag("--open", conv.open, "Serve the trace and open it in ui.perfetto.dev in a browser");
  conv_cmd->add_flag("--serve", conv.serve, "Serve the trace to ui.perfetto.dev and print the link");
  conv_cmd->add_option("--port", conv.port, "Port for --serve/--open (0: a free one, named in the printed link)")->check(kPortRange)->capture_default_str();
  CLI::Option* strict = conv_cmd->add_flag("--strict", conv.strict, "Exit with code 1 if the trace has any warning (for CI)");
  add_allow_option(*conv_cmd, conv.allow, "With --strict, tolerate warnings of this kind");
  conv_cmd->get_option("--allow")->needs(strict);
  conv_cmd->add_flag("--no-progress", conv.no_progress, "No progress bar, even on a terminal");
  conv_cmd->add_option("--threads", conv.threads, kThreadsHelp)
      ->check(CLI::IsMember({"auto", "1", "2"}))
      ->capture_default_str();
  conv_cmd->add_option("--schema", conv.schemas, kSchemaHelp)->type_name("FILE")->allow_extra_args(false);
  add_ts_resolution_option(*conv_cmd, conv.ts_resolution_ns);
  conv_cmd->add_option("--threadx-clock-hz", conv.threadx_clock_hz, kThreadxClockHelp)
      ->check(CLI::Range(std::uint64_t{1}, ConversionOptions::kMaxThreadxClockHz))
      ->type_name("HZ");

  DumpCmdOptions dump;
  CLI::App* dump_cmd = app.add_subcommand("dump", "Print every decoded event: core, time in ns, event, fields");
  dump_cmd->add_option("inputs", dump.inputs,
                       "Input files, each dumped as a trace of its own; FILE@N for core N; - reads stdin")
      ->required()
      ->type_name("INPUT");
  dump_cmd->add_option("-f,--format", dump.format, format_help())
      ->check(CLI::IsMember(format_names()))
      ->capture_default_str();
  // Dump prints events as decoded, before any interpretation, so the mode
  // changes nothing; it is accepted so that one command line (a script's
  // "--mode bare-metal") works with every reading command.
  dump_cmd->add_option("-m,--mode", dump.mode,
                       "Accepted as by conv/stats/check/report; the dump is the same in either mode (events as decoded)")
      ->transform(CLI::IsMember({"bare-metal", "freertos", "free-rtos"}))
      ->capture_default_str();
  dump_cmd->add_flag("--json", dump.json, "JSON Lines: one object per event (ts in ticks and ns, fields by name)");
  dump_cmd->add_flag("--stats", dump.stats,
                     "Only count the events of each type (decodes everything, prints little); with --json, "
                     "one JSON object");
  dump_cmd->add_flag("--strict", dump.strict,
                     "Exit with code 1 on any undecodable frame, unknown event id or schema mismatch (for CI)");
  dump_cmd->add_option("--schema", dump.schemas, kSchemaHelp)->type_name("FILE")->allow_extra_args(false);
  add_ts_resolution_option(*dump_cmd, dump.ts_resolution_ns);

  ServeCmdOptions serve;
  CLI::App* serve_cmd = app.add_subcommand(
      "serve", "Serve a converted trace from 127.0.0.1 with a page that opens it in ui.perfetto.dev");
  CLI::Option* serve_file_opt =
      serve_cmd->add_option("file", serve.file, "The .pftrace (or .json) file")->check(CLI::ExistingFile);
  serve_cmd->add_option("-p,--port", serve.port, "Port to listen on (0: a free one, named in the printed link)")->check(kPortRange)->capture_default_str();
  serve_cmd->add_flag("--once", serve.once, "Stop after the trace has been fetched once (by the page)");
  serve_cmd->add_flag("--open", serve.open, "Also open the page in a browser");
  CLI::Option* serve_web_opt =
      serve_cmd
          ->add_option("--web", serve.web_dir,
                       "Serve the web converter page instead of a trace: DIR, or by default the installed "
                       "share/tband/web (or build-web/web next to the build tree)")
          ->expected(0, 1)
          ->type_name("[DIR]")
          ->excludes(serve_file_opt);
  serve_cmd->add_option("--ui-url", serve.ui_url, "For tests: the Perfetto UI the page opens")->group("");
  // tband serve --live FILE --view: the live view of a growing trace (serve_live.hpp).
  ServeLiveOptions serve_live_options;
  add_serve_live_options(*serve_cmd, serve_live_options);

  AnalysisCommands analysis;
  analysis.add_to(app);
  RecordCommand record;
  record.add_to(app);
  CtlCommand ctl;
  ctl.add_to(app);

  std::string shell;
  CLI::App* completion_cmd = app.add_subcommand("completion", "Print a shell completion script");
  completion_cmd->add_option("shell", shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));

  // Set last: a subcommand takes its parent's footer when it is added, and
  // the examples belong to the top-level help only.
  app.footer(kExamples);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0 && app.get_subcommands().empty()) {
      if (const std::string word = unknown_command(app, argc, argv); !word.empty()) {
        std::cerr << "tband: error: " << unknown_command_message(app, word);
        return kExitUsage;
      }
    }
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (conv_cmd->parsed()) {
      return run_conv(conv, global);
    }
    if (dump_cmd->parsed()) {
      return run_dump(dump, global);
    }
    if (const std::optional<int> code = analysis.run(global)) {
      return *code;
    }
    if (const std::optional<int> code = record.run(global)) {
      return *code;
    }
    if (const std::optional<int> code = ctl.run(global)) {
      return *code;
    }
    if (serve_cmd->parsed()) {
      if (serve_live_wanted(serve_live_options)) {
        return serve_live(serve.file, serve_live_options);
      }
      serve.web = serve_web_opt->count() > 0;
      if (!serve.web && serve.file.empty()) {
        std::cerr << "tband serve: error: give the trace file to serve (or --web for the converter page)\n";
        return kExitUsage;
      }
      if (serve.web && serve.once) {
        std::cerr << "tband serve: error: --once serves a trace once; with --web it has no meaning\n";
        return kExitUsage;
      }
      return serve_file(serve);
    }
    if (completion_cmd->parsed()) {
      return run_completion(app, shell);
    }
  } catch (const std::exception& e) {
    std::cerr << "tband: error: " << e.what() << "\n";
    return kExitOutput;
  }
  return kExitUsage;
}

}  // namespace tband::cli
