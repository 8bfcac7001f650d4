#include "cli/record_command.hpp"
#include "common/output_file.hpp"

#include <charconv>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "app/conversion.hpp"
#include "ctl/protocol.hpp"
#include "cli/schema_options.hpp"
#include "cli/ts_resolution_option.hpp"
#include "cli/view_hookup.hpp"
#include "record/recorder.hpp"
#include "record/recording_file.hpp"
#include "record/source.hpp"
#include "stats/quantity.hpp"

namespace tband::cli {

std::chrono::milliseconds parse_duration(const std::string& option, const std::string& text) {
  std::string error;
  const std::optional<Quantity> q = parse_quantity(text, error);
  if (!q || (q->kind != QuantityKind::kDuration && q->kind != QuantityKind::kPlain) || q->value <= 0) {
    throw UsageError(option + " " + text + ": give a duration such as 30s or 500ms (a plain number is seconds)");
  }
  const double ms = q->kind == QuantityKind::kPlain ? q->value * 1e3 : q->value / 1e6;
  return std::chrono::milliseconds{static_cast<std::int64_t>(ms + 0.5)};
}

namespace {

constexpr const char* kRecordFooter = R"(
Sources:
  serial:DEVICE[,baud=N][,flow=rtscts]  a serial port, raw 8N1 (default 115200 baud, no flow control)
  tcp:HOST:PORT                         a TCP server: OpenOCD/pyOCD RTT server, J-Link RTT (port 19021),
                                        QEMU -serial tcp:HOST:PORT,server
  file:PATH                             a file another program appends to, followed as it grows
  -                                     stdin (a pipe)
  SOURCE@N                              the source carries the events of core N only

Examples:
  tband record tcp:localhost:9090 -o trace.bin --pftrace trace.pftrace
  tband record serial:/dev/ttyUSB0,baud=921600 -o uart.bin --rotate 64M
  tband record tcp:localhost:9090@0 tcp:localhost:9091@1 -o trace.bin   trace.core0.bin, trace.core1.bin
  tband record tcp:localhost:19021 -o rtt.bin --reconnect --duration 60s
  tband record tcp:localhost:9090 -o trace.bin --compress                trace.bin.zst
  tband record tcp:localhost:9090 -o trace.bin --send metadata           names of a running target

With stdin a terminal and a tcp: or serial: source, a line typed while it records (stop, start,
metadata, ...) goes to the target as a command (target/README.md, "Control channel").

It ends on Ctrl-C (SIGINT), SIGTERM, --duration, --max-bytes or when every source has
ended; whatever arrived is on disk. See host/RECORDING.md for OpenOCD, J-Link and USB serial.

Exit codes: 0 recorded, 2 bad usage or source, 3 a source could not be opened or did not
connect, 4 an output could not be written.)";

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, ec] = std::from_chars(text.data(), end, value);
  std::uint64_t unit = 1;
  const std::string_view suffix{rest, static_cast<std::size_t>(end - rest)};
  if (suffix == "k" || suffix == "K" || suffix == "KiB") {
    unit = 1ull << 10;
  } else if (suffix == "M" || suffix == "MiB") {
    unit = 1ull << 20;
  } else if (suffix == "G" || suffix == "GiB") {
    unit = 1ull << 30;
  } else if (!suffix.empty()) {
    unit = 0;
  }
  if (ec != std::errc{} || rest == text.data() || unit == 0 || value == 0 || value > UINT64_MAX / unit) {
    throw UsageError(option + " " + text + ": give a size in bytes, e.g. 1000000, 512k, 64M or 2G");
  }
  return value * unit;
}


// One output per source: as given, or derived from one -o: per core when
// every source has @N (trace.core0.bin), else per source (trace.0.bin).
std::vector<std::string> output_paths(const std::vector<std::string>& given,
                                      const std::vector<record::SourceSpec>& sources) {
  if (given.size() == sources.size()) {
    return given;
  }
  if (given.size() != 1) {
    throw UsageError("give one -o for all sources, or one -o per source (" + std::to_string(sources.size()) +
                     " sources, " + std::to_string(given.size()) + " outputs)");
  }
  const bool by_core = std::all_of(sources.begin(), sources.end(), [](const auto& s) { return s.core.has_value(); });
  std::vector<std::string> paths;
  const std::string& base = given.front();
  const std::size_t slash = base.rfind('/');
  std::size_t dot = base.rfind('.');
  if (dot == std::string::npos || dot == 0 || (slash != std::string::npos && dot <= slash + 1)) {
    dot = base.size();
  }
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string tag = by_core ? "core" + std::to_string(*sources[i].core) : std::to_string(i);
    paths.push_back(base.substr(0, dot) + "." + tag + base.substr(dot));
  }
  return paths;
}

// --compress: the outputs end in .zst (added when not given), derived per
// source and per part before it (trace.core0.bin.zst, trace.1.bin.zst).
std::vector<std::string> compressed_output_paths(std::vector<std::string> given,
                                                 const std::vector<record::SourceSpec>& sources) {
  constexpr std::string_view kZst = ".zst";
  for (std::string& path : given) {
    if (path.size() > kZst.size() && path.ends_with(kZst)) {
      path.resize(path.size() - kZst.size());
    }
  }
  std::vector<std::string> paths = output_paths(given, sources);
  for (std::string& path : paths) {
    path += kZst;
  }
  return paths;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  return a == b || std::filesystem::equivalent(a, b, error);
}

void check_sources(const std::vector<record::SourceSpec>& sources, const std::vector<std::string>& outputs) {
  std::size_t stdin_count = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (const std::string& output : outputs) {
      if (sources[i].kind == record::SourceKind::kFile && same_file(sources[i].path, output)) {
        throw UsageError(sources[i].text + " is also an output (" + output + "): it would record itself");
      }
    }
    stdin_count += sources[i].kind == record::SourceKind::kStdin ? 1u : 0u;
    for (std::size_t j = 0; j < i; ++j) {
      if (sources[i].core && sources[i].core == sources[j].core) {
        throw UsageError(sources[j].text + " and " + sources[i].text + " are both core " +
                         std::to_string(*sources[i].core));
      }
      if (outputs[i] == outputs[j]) {
        throw UsageError(sources[j].text + " and " + sources[i].text + " would both record to " + outputs[i]);
      }
    }
  }
  if (stdin_count > 1) {
    throw UsageError("stdin ('-') can be given only once");
  }
  if (stdin_count == 1 && ::isatty(STDIN_FILENO) != 0) {
    throw UsageError("stdin is a terminal: pipe the trace in (e.g. `nc host port | tband record - -o t.bin`)");
  }
}

// Parts numbered on from this recording's last one are an earlier, longer
// recording's: not this one's, and not removed (tband removes only what it
// made). Said, so that a glob of the parts does not mix the two.
void warn_of_earlier_parts(const std::vector<std::string>& outputs,
                           const std::vector<std::vector<std::string>>& parts) {
  for (std::size_t i = 0; i < outputs.size() && i < parts.size(); ++i) {
    if (parts[i].empty()) {
      continue;  // nothing recorded from this source
    }
    std::vector<std::string> earlier;
    for (std::size_t n = parts[i].size(); earlier.size() < 1000; ++n) {
      const std::string path = record::RecordingFile::part_path(outputs[i], n);
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) {
        break;
      }
      earlier.push_back(path);
    }
    if (!earlier.empty()) {
      std::cerr << "tband record: warning: " << earlier.front();
      if (earlier.size() > 1) {
        std::cerr << " to " << earlier.back() << " (" << earlier.size() << " files)";
      }
      std::cerr << (earlier.size() > 1 ? " are" : " is") << " left from an earlier recording: not part of this one, "
                << "which ends with " << parts[i].back() << "\n";
    }
  }
}

std::string end_message(const record::RecordingResult& r) {
  char text[128];
  std::snprintf(text, sizeof text, "%llu bytes in %.1f s (%s); ", static_cast<unsigned long long>(r.bytes),
                r.seconds, r.end_reason.c_str());
  std::string line = std::string{"recorded "} + text + std::to_string(r.events) + " events";
  if (r.decode_errors != 0) {
    line += ", " + std::to_string(r.decode_errors) + " undecodable frame(s)";
  }
  line += "; " + std::to_string(r.dropped_events) + " dropped on the target";
  if (r.link_checked) {
    line += "; link: " + std::to_string(r.link.lost) + " frame(s) lost, " + std::to_string(r.link.corrupt) +
            " corrupt, " + std::to_string(r.link.stale) + " stale, " + std::to_string(r.link.resyncs) +
            " resynchronisation(s)";
  }
  if (r.gaps != 0) {
    line += "; " + std::to_string(r.gaps) + " gap(s)";
  }
  return line;
}

// --pftrace / --json: the recording converted as `tband conv` would.
int convert_recording(const RecordCmdOptions& options, const std::vector<record::SourceSpec>& sources,
                      const record::RecordingResult& recorded, SchemaSet* schemas) {
  ConversionOptions conversion;
  conversion.interpreter.mode = options.mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
  conversion.interpreter.assumed_ns_per_ts = options.ts_resolution_ns;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    InputSpec in;
    in.path = recorded.parts[i].front();
    in.core = sources[i].core;
    conversion.interpreter.core_count = std::max(conversion.interpreter.core_count, in.core.value_or(0) + 1);
    conversion.inputs.push_back(in);
  }
  conversion.format = "bin";
  conversion.schemas = schemas;
  try {
    OutputFile perfetto{options.pftrace};
    OutputFile json{options.json};
    conversion.perfetto = {perfetto.file(), perfetto.display_name()};
    conversion.json = {json.file(), json.display_name()};
    const ConversionResult result = convert(conversion);
    perfetto.commit();
    json.commit();
    std::cerr << "tband record: converted " << result.events << " events";
    if (!options.pftrace.empty()) {
      std::cerr << "; " << options.pftrace << ": " << result.perfetto_bytes << " bytes";
    }
    if (!options.json.empty()) {
      std::cerr << "; " << options.json << ": " << result.json_bytes << " bytes";
    }
    std::cerr << "\n";
    return kExitOk;
  } catch (const InputError& e) {
    std::cerr << "tband record: error: converting the recording: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitOutput;
  }
}

// --send's frames, and the interactive command line when stdin is a
// terminal and a source takes commands. Throws ctl::CommandError, UsageError.
void set_control_channel(const RecordCmdOptions& o, record::RecorderOptions& recorder) {
  const bool writable = std::any_of(recorder.sources.begin(), recorder.sources.end(), [](const auto& spec) {
    return spec.kind == record::SourceKind::kTcp || spec.kind == record::SourceKind::kSerial;
  });
  for (const std::string& text : o.send) {
    recorder.send_on_connect.push_back(ctl::encode_frame(ctl::parse_command(text)));
  }
  if (!o.send.empty() && !writable) {
    throw UsageError("--send: commands go to the target over tcp: or serial: sources only");
  }
  if (writable && ::isatty(STDIN_FILENO) == 1) {
    recorder.command_line = [](const std::string& line) { return ctl::encode_frame(ctl::parse_command(line)); };
  }
}

}  // namespace

void RecordCommand::add_to(CLI::App& app) {
  cmd_ = app.add_subcommand("record", "Record a live trace from serial ports, TCP (RTT servers, QEMU), stdin or files");
  cmd_->footer(kRecordFooter);
  cmd_->add_option("sources", options_.sources, "What to record (see Sources below); several at once are fine")
      ->required()
      ->type_name("SOURCE");
  cmd_->add_option("-o,--output", options_.outputs,
                   "The recording; with several sources one per source, or one name that each source's "
                   "core (trace.core0.bin) or position (trace.0.bin) is added to")
      ->required()
      ->type_name("FILE");
  cmd_->add_option("--rotate", options_.rotate,
                   "Start a new file (trace.1.bin, trace.2.bin, ...) at the first frame boundary after this "
                   "size (of trace bytes, before --compress), e.g. 64M")
      ->type_name("SIZE");
  cmd_->add_flag("--compress", options_.compress,
                 "Write zstd (fast, level 1) in independent frames, ended every 1 MiB or 1 s: a killed recording "
                 "keeps all but its last second; .zst is added to the file name unless given");
  cmd_->add_option("--duration", options_.duration, "Stop after this long, e.g. 30s")->type_name("TIME");
  cmd_->add_option("--max-bytes", options_.max_bytes, "Stop after this many bytes (all sources), e.g. 10M")
      ->type_name("SIZE");
  cmd_->add_option("--connect-timeout", options_.connect_timeout,
                   "How long to keep trying to reach a source that is not there yet (refused, no device)")
      ->type_name("TIME")
      ->capture_default_str();
  cmd_->add_flag("--reconnect", options_.reconnect,
                 "When a source goes away, keep trying to reconnect and record the gap instead of ending");
  cmd_->add_flag("--quiet", options_.quiet, "No status line or progress messages (warnings and errors still show)");
  cmd_->add_option("--status-interval", options_.status_interval,
                   "How often to print a status line when stderr is not a terminal")
      ->type_name("TIME")
      ->capture_default_str();
  cmd_->add_option("-m,--mode", options_.mode, "How to interpret the trace: bare-metal or freertos")
      ->transform(CLI::IsMember({"bare-metal", "freertos", "free-rtos"}))
      ->capture_default_str();
  add_ts_resolution_option(*cmd_, options_.ts_resolution_ns);
  cmd_->add_option("--pftrace", options_.pftrace, "When the recording ends, convert it to this Perfetto trace")
      ->type_name("FILE");
  cmd_->add_option("--json", options_.json, "When the recording ends, convert it to Chrome trace-event JSON here")
      ->type_name("FILE");
  cmd_->add_option("--schema", options_.schemas, kSchemaHelp)->type_name("FILE")->allow_extra_args(false);
  cmd_->add_option("--send", options_.send,
                   "Send this command to the target over its control channel each time a tcp: or serial: source "
                   "connects (repeatable, in order): start, stop, restart, metadata, snapshot, dropped, rejected")
      ->type_name("CMD")
      ->allow_extra_args(false);
  view_ = cmd_->add_option("--view", options_.view_at,
                           "Serve a live view of the recording (a page with the running task, ISRs, CPU load, values) "
                           "at http://127.0.0.1:<free port>/, or at --view=ADDR:PORT; the URL is printed")
              ->expected(0, 1)
              ->type_name("[ADDR:]PORT");
}

std::optional<int> RecordCommand::run(const GlobalOptions& global) {
  if (cmd_ == nullptr || !cmd_->parsed()) {
    return std::nullopt;
  }
  const RecordCmdOptions& o = options_;
  record::RecorderOptions recorder;
  try {
    for (const std::string& arg : o.sources) {
      recorder.sources.push_back(record::parse_source_spec(arg));
    }
    recorder.outputs =
        o.compress ? compressed_output_paths(o.outputs, recorder.sources) : output_paths(o.outputs, recorder.sources);
    recorder.compress = o.compress;
    check_sources(recorder.sources, recorder.outputs);
    std::vector<std::string> read;
    for (const record::SourceSpec& source : recorder.sources) {
      read.push_back(source.path);
    }
    std::vector<std::string> written = recorder.outputs;
    written.push_back(o.pftrace);
    written.push_back(o.json);
    check_output_paths(read, written);
    if (!o.rotate.empty()) {
      recorder.rotate_bytes = parse_size("--rotate", o.rotate);
      if (!o.pftrace.empty() || !o.json.empty()) {
        throw UsageError("--pftrace/--json convert one file per source, not --rotate parts; convert the parts "
                         "with `cat trace.bin trace.1.bin ... | tband conv -`");
      }
    }
    if (!o.max_bytes.empty()) {
      recorder.max_bytes = parse_size("--max-bytes", o.max_bytes);
    }
    if (!o.duration.empty()) {
      recorder.duration = parse_duration("--duration", o.duration);
    }
    recorder.connect_timeout = parse_duration("--connect-timeout", o.connect_timeout);
    set_control_channel(o, recorder);
    recorder.status_interval = parse_duration("--status-interval", o.status_interval);
  } catch (const record::SourceSpecError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const OutputPathError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const OutputWriteError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitOutput;
  } catch (const UsageError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const ctl::CommandError& e) {
    std::cerr << "tband record: error: --send: " << e.what() << "\n";
    return kExitUsage;
  }
  recorder.mode = o.mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
  recorder.assumed_ns_per_ts = o.ts_resolution_ns;
  recorder.reconnect = o.reconnect;
  recorder.status = o.quiet ? record::StatusMode::kQuiet : record::StatusMode::kAuto;

  std::unique_ptr<SchemaSet> schemas;
  try {
    schemas = make_schema_set(o.schemas, recorder.outputs);
  } catch (const SchemaLoadError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitUsage;
  }
  recorder.schemas = schemas.get();

  std::unique_ptr<ViewHookup> view;
  if (view_ != nullptr && view_->count() != 0) {
    int code = kExitOk;
    view = start_view(o.view_at, "record", "tband record", code);
    if (!view) {
      return code;
    }
    view->attach(recorder);
    std::cerr << "tband record: live view at " << view->url() << std::endl;
  }

  record::RecordingResult result;
  try {
    result = record::record(recorder);
  } catch (const record::NotConnectedError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const record::SourceError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const record::OutputError& e) {
    std::cerr << "tband record: error: " << e.what() << "\n";
    return kExitOutput;
  }

  if (view) {
    view->finish();
    view.reset();
  }
  std::cerr << "tband record: " << end_message(result) << "\n";
  for (std::size_t i = 0; i < result.parts.size(); ++i) {
    std::cerr << "tband record: " << recorder.sources[i].text << ":";
    for (const std::string& part : result.parts[i]) {
      std::cerr << " " << part;
    }
    std::cerr << "\n";
  }
  if (recorder.rotate_bytes != 0) {
    warn_of_earlier_parts(recorder.outputs, result.parts);
  }
  if (global.verbose > 0 || !o.quiet || result.diagnostics.total() != 0) {
    std::cerr << result.diagnostics.summary();
  }
  if (!o.pftrace.empty() || !o.json.empty()) {
    return convert_recording(o, recorder.sources, result, schemas.get());
  }
  return kExitOk;
}

}  // namespace tband::cli
