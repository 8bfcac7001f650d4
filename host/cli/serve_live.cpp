#include "cli/serve_live.hpp"

#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/ts_resolution_option.hpp"
#include "cli/view_hookup.hpp"
#include "record/recorder.hpp"
#include "record/source.hpp"

namespace tband::cli {

void add_serve_live_options(CLI::App& serve, ServeLiveOptions& options) {
  serve.add_flag("--live", options.live,
                 "FILE is a raw trace that is still growing (another tband record writes it): follow and decode "
                 "it as it grows, and show it with --view");
  options.view = serve.add_option("--view", options.view_at,
                                  "With --live: serve the live view at http://127.0.0.1:<free port>/, or at "
                                  "--view=ADDR:PORT; the URL is printed")
                     ->expected(0, 1)
                     ->type_name("[ADDR:]PORT");
  serve.add_option("-m,--mode", options.mode, "With --live: how to interpret the trace, bare-metal or freertos")
      ->transform(CLI::IsMember({"bare-metal", "freertos", "free-rtos"}))
      ->capture_default_str();
  add_ts_resolution_option(serve, options.ts_resolution_ns);
}

bool serve_live_wanted(const ServeLiveOptions& options) {
  return options.live || (options.view != nullptr && options.view->count() != 0);
}

int serve_live(const std::string& file, const ServeLiveOptions& options) {
  if (!options.live || options.view == nullptr || options.view->count() == 0) {
    std::cerr << "tband serve: error: --live and --view go together (tband serve --live FILE --view)\n";
    return kExitUsage;
  }
  record::RecorderOptions recorder;
  try {
    recorder.sources.push_back(record::parse_source_spec("file:" + file));
  } catch (const record::SourceSpecError& e) {
    std::cerr << "tband serve: error: " << e.what() << "\n";
    return kExitUsage;
  }
  recorder.write_files = false;
  recorder.mode = options.mode == "bare-metal" ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
  recorder.assumed_ns_per_ts = options.ts_resolution_ns;
  int code = kExitOk;
  const std::unique_ptr<ViewHookup> view = start_view(options.view_at, "follow", "tband serve", code);
  if (!view) {
    return code;
  }
  view->attach(recorder);
  std::cerr << "tband serve: following " << file << "; live view at " << view->url() << " (Ctrl+C to stop)"
            << std::endl;
  record::RecordingResult result;
  try {
    result = record::record(recorder);
  } catch (const record::SourceError& e) {
    std::cerr << "tband serve: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const record::NotConnectedError& e) {
    std::cerr << "tband serve: error: " << e.what() << "\n";
    return kExitInput;
  }
  view->finish();
  std::cerr << "tband serve: followed " << result.bytes << " bytes, " << result.events << " events ("
            << result.end_reason << ")\n";
  return kExitOk;
}

}  // namespace tband::cli
