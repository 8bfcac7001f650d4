// --allow KIND (repeatable): the diagnostic kinds a check tolerates, shared by
// `conv --strict` and `check`.
#pragma once

#include <string>
#include <vector>

#include "trace/diagnostics.hpp"

namespace CLI {
class App;
}

namespace tband::cli {

/// Adds --allow to `command`, checked against the diagnostic identifiers.
void add_allow_option(CLI::App& command, std::vector<std::string>& kinds, const std::string& what);

/// The kinds named (already checked by CLI11).
[[nodiscard]] AllowedDiagnostics allowed_diagnostics(const std::vector<std::string>& kinds);

}  // namespace tband::cli
