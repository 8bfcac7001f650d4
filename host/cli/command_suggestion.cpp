#include "cli/command_suggestion.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>

namespace tband::cli {

namespace {

// Letters inserted, deleted, replaced or two neighbours swapped ("sever").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
    for (const std::string& alias : sub->get_aliases()) {
      names.push_back(alias);
    }
  }
  return names;
}

}  // namespace

std::vector<std::string> nearest_names(std::string_view word, const std::vector<std::string>& candidates) {
  // A typo: about a third of the word wrong (at least one letter); or the start of a name.
  const std::size_t allowed = std::max<std::size_t>(1, (word.size() + 1) / 3);
  std::vector<std::pair<std::size_t, std::string>> close;
  for (const std::string& name : candidates) {
    const bool prefix = word.size() >= 2 && name.starts_with(word);
    const std::size_t distance = prefix ? 0 : edit_distance(word, name);
    if (distance <= allowed) {
      close.emplace_back(distance, name);
    }
  }
  std::stable_sort(close.begin(), close.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (auto& [distance, name] : close) {
    names.push_back(std::move(name));
  }
  return names;
}

std::string unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.empty() || arg[0] == '-') {
      continue;  // the top level has flags only, so no option takes this word as its value
    }
    const std::vector<std::string> names = command_names(app);
    return std::find(names.begin(), names.end(), arg) == names.end() ? arg : std::string{};
  }
  return {};
}

std::string unknown_command_message(const CLI::App& app, const std::string& word) {
  std::string message = "unknown command '" + word + "'";
  const std::vector<std::string> nearest = nearest_names(word, command_names(app));
  for (std::size_t i = 0; i < nearest.size(); ++i) {
    message += (i == 0 ? "; did you mean '" : i + 1 == nearest.size() ? "' or '" : "', '") + nearest[i];
  }
  message += nearest.empty() ? "\n" : "'?\n";
  message += "Commands:";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    message += " " + sub->get_name();
  }
  return message + "\nRun 'tband --help' for more.\n";
}

}  // namespace tband::cli
