// tband completion: shell completion scripts written from the CLI11 command
// tree itself, so they never fall behind the options.
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace tband::cli {

namespace {

struct Command {
  std::string name;
  std::string description;
  std::vector<std::string> flags;  // "--format", "-f", ...
  std::vector<std::pair<std::string, std::string>> described;  // (long or short flag, description)
};

std::vector<Command> describe(const CLI::App& app) {
  std::vector<Command> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    Command c{sub->get_name(), sub->get_description(), {}, {}};
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_positional()) {
        continue;
      }
      for (const std::string& l : opt->get_lnames()) {
        c.flags.push_back("--" + l);
        c.described.emplace_back("--" + l, opt->get_description());
      }
      for (const std::string& s : opt->get_snames()) {
        c.flags.push_back("-" + s);
      }
    }
    commands.push_back(std::move(c));
  }
  return commands;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  for (char& ch : line) {
    if (ch == '\'' || ch == '"') ch = ' ';
  }
  return line;
}

void bash(const std::vector<Command>& commands) {
  std::cout << "# bash completion for tband: source <(tband completion bash)\n_tband() {\n"
               "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmd=\"${COMP_WORDS[1]}\"\n"
               "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W \"";
  for (const Command& c : commands) std::cout << c.name << ' ';
  std::cout << "--help --version --verbose\" -- \"$cur\"))\n    return\n  fi\n  case \"$cmd\" in\n";
  for (const Command& c : commands) {
    std::cout << "    " << c.name << ") COMPREPLY=($(compgen -W \"";
    for (const std::string& f : c.flags) std::cout << f << ' ';
    std::cout << "\" -- \"$cur\") $(compgen -f -- \"$cur\")) ;;\n";
  }
  std::cout << "  esac\n}\ncomplete -F _tband tband\n";
}

void zsh(const std::vector<Command>& commands) {
  std::cout << "#compdef tband\n# zsh completion for tband: tband completion zsh > \"${fpath[1]}/_tband\"\n"
               "_tband() {\n  local -a commands\n  commands=(\n";
  for (const Command& c : commands) std::cout << "    '" << c.name << ":" << first_line(c.description) << "'\n";
  std::cout << "  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n"
               "  case \"$words[2]\" in\n";
  for (const Command& c : commands) {
    std::cout << "    " << c.name << ") _arguments";
    for (const auto& [flag, text] : c.described) std::cout << " '" << flag << "[" << first_line(text) << "]'";
    std::cout << " '*:file:_files' ;;\n";
  }
  std::cout << "  esac\n}\n_tband \"$@\"\n";
}

void fish(const std::vector<Command>& commands) {
  std::cout << "# fish completion for tband: tband completion fish > ~/.config/fish/completions/tband.fish\n";
  for (const Command& c : commands) {
    std::cout << "complete -c tband -n __fish_use_subcommand -a " << c.name << " -d '" << first_line(c.description)
              << "'\n";
    for (const auto& [flag, text] : c.described) {
      std::cout << "complete -c tband -n '__fish_seen_subcommand_from " << c.name << "' -l " << flag.substr(2)
                << " -d '" << first_line(text) << "'\n";
    }
  }
}

}  // namespace

int run_completion(const CLI::App& app, const std::string& shell) {
  const std::vector<Command> commands = describe(app);
  if (shell == "bash") {
    bash(commands);
  } else if (shell == "zsh") {
    zsh(commands);
  } else {
    fish(commands);
  }
  return kExitOk;
}

}  // namespace tband::cli
