#include "cli/allow_option.hpp"

#include <CLI/CLI.hpp>

namespace tband::cli {

void add_allow_option(CLI::App& command, std::vector<std::string>& kinds, const std::string& what) {
  std::vector<std::string> ids;
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    ids.emplace_back(diagnostic_id(static_cast<DiagnosticKind>(k)));
  }
  command.add_option("--allow", kinds, what + " (repeatable): " + diagnostic_id_list())
      ->check(CLI::IsMember(ids))
      ->type_name("KIND");
}

AllowedDiagnostics allowed_diagnostics(const std::vector<std::string>& kinds) {
  AllowedDiagnostics allowed;
  for (const std::string& id : kinds) {
    if (const auto kind = parse_diagnostic_id(id)) {
      allowed.allow(*kind);
    }
  }
  return allowed;
}

}  // namespace tband::cli
