#include "cli/ts_resolution_option.hpp"

#include <CLI/CLI.hpp>

#include "trace/interpreter.hpp"

namespace tband::cli {

void add_ts_resolution_option(CLI::App& command, std::uint64_t& ns) {
  command
      .add_option("--ts-resolution-ns", ns,
                  "Nanoseconds per timestamp tick for a trace that does not say (no ts_resolution_ns event: a "
                  "recording begun after the target started streaming, a snapshot taken without "
                  "tband_gather_system_metadata); the trace's own value wins. Without it: 1, with a warning. "
                  "For tband traces; a ThreadX buffer's rate is --threadx-clock-hz")
      ->check(CLI::Range(std::uint64_t{1}, InterpreterOptions::kMaxAssumedNsPerTs))
      ->type_name("NS");
}

}  // namespace tband::cli
