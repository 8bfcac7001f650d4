// The tband command line: one function per subcommand, called after CLI11
// parsed the arguments into the option structs below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/conversion.hpp"

namespace CLI {
class App;
}

namespace tband::cli {

/// Exit codes, listed in --help.
enum ExitCode : int {
  kExitOk = 0,
  kExitWarnings = 1,  // --strict and the trace had warnings; a `check` rule failed
  kExitUsage = 2,     // bad options or arguments
  kExitInput = 3,     // unreadable input
  kExitOutput = 4,    // an output could not be written, or the server failed
};

struct GlobalOptions {
  int verbose = 0;     // -v: notes on the inputs; -vv: also the time taken and the rate
  bool quiet = false;  // -q: only errors on stderr
};

struct ConvOptions {
  std::vector<std::string> inputs;
  std::string format = "auto";
  std::string mode = "freertos";
  std::uint32_t core_count = 1;
  std::string output;
  std::string json;
  std::string vcd;  // --vcd: Value Change Dump, and its translate filter at <vcd>.filter
  bool vcd_logic = false;  // --vcd-logic: its 1-bit signals only
  bool open = false;
  bool serve = false;
  int port = 9001;  // kPerfettoPort (serve/trace_server.hpp)
  bool strict = false;
  std::vector<std::string> allow;  // diagnostic kinds --strict tolerates
  bool no_progress = false;
  std::vector<std::string> schemas;  // --schema: descriptors or YAML files/folders
  std::string threads = "auto";      // --threads: auto, 1 or 2
  std::uint64_t threadx_clock_hz = 0;  // --threadx-clock-hz; 0: not given
  std::uint64_t ts_resolution_ns = 0;  // --ts-resolution-ns; 0: not given
};

struct DumpCmdOptions {
  std::vector<std::string> inputs;
  std::string format = "auto";
  std::string mode = "freertos";  // accepted like the other commands'; events are dumped as decoded
  bool json = false;
  bool stats = false;
  bool strict = false;
  std::vector<std::string> schemas;
  std::uint64_t ts_resolution_ns = 0;  // --ts-resolution-ns; 0: not given
};

struct ServeCmdOptions {
  std::string file;
  int port = 9001;  // kPerfettoPort (serve/trace_server.hpp)
  bool once = false;
  bool open = false;
  bool web = false;     // --web: serve the web converter's directory instead of a trace
  std::string web_dir;  // --web DIR; empty: the installed or built page
  std::string ui_url = "https://ui.perfetto.dev";  // --ui-url (hidden, for tests): the UI the page opens
};

/// --threads of the commands that convert: its help text, and its value.
inline constexpr const char* kThreadsHelp =
    "auto, 1 or 2: decode in a thread of its own while interpreting and writing (2), or all in one (1, and "
    "auto: two threads were slower on the machines measured). The output is the same";
/// --threadx-clock-hz of the commands that convert.
inline constexpr const char* kThreadxClockHelp =
    "Ticks per second of a ThreadX trace buffer's time stamps (its TX_TRACE_TIME_SOURCE); default 1000000";
[[nodiscard]] inline std::optional<std::uint64_t> threadx_clock(std::uint64_t hz) {
  return hz != 0 ? std::optional<std::uint64_t>{hz} : std::nullopt;
}
[[nodiscard]] inline ConversionThreads parse_threads(const std::string& threads) {
  return threads == "1" ? ConversionThreads::kOne : threads == "2" ? ConversionThreads::kTwo : ConversionThreads::kAuto;
}

/// The --format choices and their help text, shared by the commands that read traces.
std::vector<std::string> format_names();
std::string format_help();

int run_conv(const ConvOptions& options, const GlobalOptions& global);
int run_dump(const DumpCmdOptions& options, const GlobalOptions& global);
/// Serves `file` and prints the link; `open` also starts a browser on it.
int serve_file(const ServeCmdOptions& options);
/// Prints the completion script for `shell` (bash, zsh, fish) of `app`.
int run_completion(const CLI::App& app, const std::string& shell);

}  // namespace tband::cli
