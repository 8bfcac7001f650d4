// tband ctl: sends commands to a running target over its control channel
// (tcp:, serial:) and waits for each acknowledgement: for scripts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace tband::cli {

/// tband ctl's own exit code: a command was not acknowledged in time.
inline constexpr int kExitNoAck = 5;

class CtlCommand {
 public:
  void add_to(CLI::App& app);
  /// Runs it when it was parsed; nullopt otherwise.
  std::optional<int> run(const GlobalOptions& global);

 private:
  CLI::App* cmd_ = nullptr;
  std::string source_;
  std::vector<std::string> commands_;
  std::string timeout_ = "2s";
  std::string connect_timeout_ = "10s";
};

}  // namespace tband::cli
