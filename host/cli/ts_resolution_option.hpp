// --ts-resolution-ns NS: the tick length to assume for a trace that does not
// give it, shared by the commands that read tband traces.
#pragma once

#include <cstdint>

namespace CLI {
class App;
}

namespace tband::cli {

/// Adds --ts-resolution-ns to `command`; `ns` stays 0 unless it is given.
void add_ts_resolution_option(CLI::App& command, std::uint64_t& ns);

}  // namespace tband::cli
