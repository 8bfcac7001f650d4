// tband completion: shell completion scripts written from the CLI11 command
// tree itself, so they never fall behind the commands and options: names,
// descriptions and what each option's value is (choices from an IsMember
// check, files, or a number, which is not completed).
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace tband::cli {

namespace {

enum class ValueKind { kNone, kChoices, kFile, kNumber };

struct OptionInfo {
  std::vector<std::string> flags;  // "--format", "-f"
  std::string long_name;           // "format" (empty if it has none)
  std::string short_name;          // "f"
  std::string description;
  ValueKind value = ValueKind::kNone;
  std::vector<std::string> choices;
};

struct Command {
  std::string name;
  std::string description;
  std::vector<OptionInfo> options;
  OptionInfo positional;  // what the arguments are: choices, or files
};

// CLI11 writes a set check as "{a,b,c}" after the value's type name: "TEXT:{a,b,c}".
std::vector<std::string> choices_of(const std::string& type_name) {
  const std::size_t open = type_name.rfind('{');
  const std::size_t close = type_name.rfind('}');
  std::vector<std::string> choices;
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return choices;
  }
  std::string item;
  for (const char ch : type_name.substr(open + 1, close - open - 1)) {
    if (ch == ',') {
      choices.push_back(item);
      item.clear();
    } else if (ch != ' ') {
      item += ch;
    }
  }
  choices.push_back(item);
  return choices;
}

OptionInfo describe_option(const CLI::Option& opt) {
  OptionInfo info;
  for (const std::string& l : opt.get_lnames()) {
    info.flags.push_back("--" + l);
    info.long_name = info.long_name.empty() ? l : info.long_name;
  }
  for (const std::string& s : opt.get_snames()) {
    info.flags.push_back("-" + s);
    info.short_name = info.short_name.empty() ? s : info.short_name;
  }
  info.description = opt.get_description();
  if (opt.get_type_size_max() == 0) {
    return info;  // a flag
  }
  const std::string type = opt.get_type_name();
  info.choices = choices_of(type);
  if (!info.choices.empty()) {
    info.value = ValueKind::kChoices;
  } else if (type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT")) {
    info.value = ValueKind::kNumber;
  } else {
    info.value = ValueKind::kFile;  // paths, and text such as "10ms" where files do no harm
  }
  return info;
}

std::vector<Command> describe(const CLI::App& app) {
  std::vector<Command> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    Command c{sub->get_name(), sub->get_description(), {}, {}};
    c.positional.value = ValueKind::kFile;
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_positional()) {
        const OptionInfo info = describe_option(*opt);
        if (info.value == ValueKind::kChoices) {
          c.positional = info;
        }
        continue;
      }
      c.options.push_back(describe_option(*opt));
    }
    commands.push_back(std::move(c));
  }
  return commands;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  for (char& ch : line) {
    if (ch == '\'' || ch == '"' || ch == '[' || ch == ']') ch = ' ';
  }
  return line;
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (const std::string& w : words) {
    text += (text.empty() ? "" : separator) + w;
  }
  return text;
}

void bash(const std::vector<Command>& commands) {
  std::cout << "# bash completion for tband: source <(tband completion bash)\n_tband() {\n"
               "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" i\n"
               "  for ((i = 1; i < COMP_CWORD; ++i)); do\n"
               "    case \"${COMP_WORDS[i]}\" in -*) ;; *) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n"
               "  done\n"
               "  if [ -z \"$cmd\" ]; then\n    COMPREPLY=($(compgen -W \"";
  for (const Command& c : commands) std::cout << c.name << ' ';
  std::cout << "--help --version --verbose --quiet\" -- \"$cur\"))\n    return\n  fi\n  case \"$cmd\" in\n";
  for (const Command& c : commands) {
    std::cout << "    " << c.name << ")\n      case \"$prev\" in\n";
    for (const OptionInfo& o : c.options) {
      if (o.value == ValueKind::kNone) continue;
      std::cout << "        " << joined(o.flags, "|") << ") ";
      if (o.value == ValueKind::kChoices) {
        std::cout << "COMPREPLY=($(compgen -W \"" << joined(o.choices, " ") << "\" -- \"$cur\")); return ;;\n";
      } else if (o.value == ValueKind::kFile) {
        std::cout << "COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
      } else {
        std::cout << "return ;;\n";
      }
    }
    std::cout << "      esac\n      if [[ \"$cur\" == -* ]]; then\n        COMPREPLY=($(compgen -W \"";
    for (const OptionInfo& o : c.options) std::cout << joined(o.flags, " ") << ' ';
    std::cout << "\" -- \"$cur\"))\n      else\n        COMPREPLY=($(compgen ";
    if (c.positional.value == ValueKind::kChoices) {
      std::cout << "-W \"" << joined(c.positional.choices, " ") << "\"";
    } else {
      std::cout << "-f";
    }
    std::cout << " -- \"$cur\"))\n      fi ;;\n";
  }
  std::cout << "  esac\n}\ncomplete -F _tband tband\n";
}

std::string zsh_value(const OptionInfo& o) {
  switch (o.value) {
    case ValueKind::kChoices: return ":" + o.long_name + ":(" + joined(o.choices, " ") + ")";
    case ValueKind::kFile: return ":file:_files";
    case ValueKind::kNumber: return ":" + o.long_name + ":";
    case ValueKind::kNone: break;
  }
  return "";
}

void zsh(const std::vector<Command>& commands) {
  std::cout << "#compdef tband\n# zsh completion for tband: tband completion zsh > \"${fpath[1]}/_tband\"\n"
               "_tband() {\n  local -a commands\n  commands=(\n";
  for (const Command& c : commands) std::cout << "    '" << c.name << ":" << first_line(c.description) << "'\n";
  std::cout << "  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n"
               "  case \"$words[2]\" in\n";
  for (const Command& c : commands) {
    std::cout << "    " << c.name << ") _arguments";
    for (const OptionInfo& o : c.options) {
      for (const std::string& flag : o.flags) {
        std::cout << " '" << flag << "[" << first_line(o.description) << "]" << zsh_value(o) << "'";
      }
    }
    if (c.positional.value == ValueKind::kChoices) {
      std::cout << " '1:value:(" << joined(c.positional.choices, " ") << ")' ;;\n";
    } else {
      std::cout << " '*:file:_files' ;;\n";
    }
  }
  std::cout << "  esac\n}\n_tband \"$@\"\n";
}

void fish(const std::vector<Command>& commands) {
  std::cout << "# fish completion for tband: tband completion fish > ~/.config/fish/completions/tband.fish\n";
  for (const Command& c : commands) {
    const std::string when = "complete -c tband -n '__fish_seen_subcommand_from " + c.name + "'";
    std::cout << "complete -c tband -n __fish_use_subcommand -a " << c.name << " -d '" << first_line(c.description)
              << "'\n";
    for (const OptionInfo& o : c.options) {
      std::cout << when;
      if (!o.long_name.empty()) std::cout << " -l " << o.long_name;
      if (!o.short_name.empty()) std::cout << " -s " << o.short_name;
      std::cout << " -d '" << first_line(o.description) << "'";
      if (o.value == ValueKind::kChoices) {
        std::cout << " -x -a '" << joined(o.choices, " ") << "'";
      } else if (o.value == ValueKind::kFile) {
        std::cout << " -r -F";
      } else if (o.value == ValueKind::kNumber) {
        std::cout << " -x";
      }
      std::cout << "\n";
    }
    if (c.positional.value == ValueKind::kChoices) {
      std::cout << when << " -x -a '" << joined(c.positional.choices, " ") << "'\n";
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
