// What to say when the first word is no subcommand: the nearest names, from
// the CLI11 command tree, so that new subcommands are suggested too.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace tband::cli {

/// The candidates closest to `word` (by edit distance, a prefix counting as
/// close), best first; empty if none is close enough to be a likely typo.
std::vector<std::string> nearest_names(std::string_view word, const std::vector<std::string>& candidates);

/// The first argument that is no option, if it names no subcommand of `app`
/// (the parse failed on it); empty otherwise.
std::string unknown_command(const CLI::App& app, int argc, const char* const* argv);

/// "unknown command 'cnv'; did you mean 'conv'?" and the list of commands.
std::string unknown_command_message(const CLI::App& app, const std::string& word);

}  // namespace tband::cli
