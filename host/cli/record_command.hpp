// tband record: live capture from serial ports, TCP servers (RTT, QEMU),
// stdin and growing files into trace files, decoded while it runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tband::cli {

struct RecordCmdOptions {
  std::vector<std::string> sources;
  std::vector<std::string> outputs;
  std::string rotate;
  bool compress = false;
  std::string duration;
  std::string max_bytes;
  std::string connect_timeout = "10s";
  bool reconnect = false;
  bool quiet = false;
  std::string status_interval = "10s";
  std::string mode = "freertos";
  std::uint64_t ts_resolution_ns = 0;  // --ts-resolution-ns; 0: not given
  std::string pftrace;
  std::string json;
  std::vector<std::string> schemas;
  std::vector<std::string> send;  // control-channel commands sent on connecting
  bool view = false;       // --view given
  std::string view_at;     // its [ADDR:]PORT, "" for 127.0.0.1 and a free port
};

/// A duration option ("30s", "500ms", a plain number of seconds). Throws UsageError.
std::chrono::milliseconds parse_duration(const std::string& option, const std::string& text);

class RecordCommand {
 public:
  /// Adds `record` to `app`.
  void add_to(CLI::App& app);
  /// Runs it when it was parsed; nullopt otherwise.
  std::optional<int> run(const GlobalOptions& global);

 private:
  CLI::App* cmd_ = nullptr;
  CLI::Option* view_ = nullptr;
  RecordCmdOptions options_;
};

}  // namespace tband::cli
