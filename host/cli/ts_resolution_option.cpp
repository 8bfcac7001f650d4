#include "cli/ts_resolution_option.hpp"

#include <CLI/CLI.hpp>

namespace tband::cli {

void add_ts_resolution_option(CLI::App& command, std::uint64_t& ns) {
  // A tick of 1 ns up to one hour: beyond that, times of a few ticks would
  // leave the 64-bit nanosecond range the outputs use.
  constexpr std::uint64_t kMaxNs = 3'600'000'000'000;
  command
      .add_option("--ts-resolution-ns", ns,
                  "Nanoseconds per timestamp tick for a trace that does not say (no ts_resolution_ns event: a "
                  "recording begun after the target started streaming, a snapshot taken without "
                  "tband_gather_system_metadata); the trace's own value wins. Without it: 1, with a warning")
      ->check(CLI::Range(std::uint64_t{1}, kMaxNs))
      ->type_name("NS");
}

}  // namespace tband::cli
