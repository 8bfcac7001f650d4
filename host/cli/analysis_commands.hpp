// The commands that analyse a trace instead of converting it: `stats`
// (figures as tables, JSON or CSV), `check` (rules over the figures, for CI)
// and `report` (one self-contained HTML page with plots). They share the
// input options of `conv` and run the same interpreter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tband::cli {

struct TraceInputOptions {
  std::vector<std::string> inputs;
  std::string format = "auto";
  std::string mode = "freertos";
  std::uint32_t core_count = 1;
  std::string gap = "10ms";
  bool no_progress = false;
  std::vector<std::string> schemas;  // --schema: descriptors or YAML files/folders
  std::string threads = "auto";      // --threads: auto, 1 or 2
  std::uint64_t threadx_clock_hz = 0;  // --threadx-clock-hz; 0: not given
  std::uint64_t ts_resolution_ns = 0;  // --ts-resolution-ns; 0: not given
};

struct StatsCmdOptions {
  TraceInputOptions in;
  bool json = false;
  bool csv = false;
  std::string output = "-";
};

struct CheckCmdOptions {
  TraceInputOptions in;
  std::string rules;
  std::vector<std::string> allow;
  std::string junit;
};

struct ReportCmdOptions {
  TraceInputOptions in;
  std::string output;
  std::string title;
};

class AnalysisCommands {
 public:
  /// Adds stats, check and report to `app`.
  void add_to(CLI::App& app);
  /// Runs the one that was parsed; nullopt when none was.
  std::optional<int> run(const GlobalOptions& global);

 private:
  CLI::App* stats_cmd_ = nullptr;
  CLI::App* check_cmd_ = nullptr;
  CLI::App* report_cmd_ = nullptr;
  StatsCmdOptions stats_;
  CheckCmdOptions check_;
  ReportCmdOptions report_;
};

}  // namespace tband::cli
