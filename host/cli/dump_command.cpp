// tband dump: decoded events as text or JSON Lines on stdout.
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "input/input_reader.hpp"
#include "trace/dump.hpp"

namespace tband::cli {

int run_dump(const DumpCmdOptions& options, const GlobalOptions& global) {
  DumpOptions dump;
  try {
    dump.input = parse_input_spec(options.input);
  } catch (const std::invalid_argument& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitUsage;
  }
  dump.format = options.format;
  dump.style = options.stats ? DumpStyle::kStats : options.json ? DumpStyle::kJsonLines : DumpStyle::kText;
  try {
    const DumpResult result = dump_trace(dump, stdout);
    if (global.verbose > 0 || result.decode_errors != 0) {
      std::cerr << "tband dump: " << result.events << " events, " << result.decode_errors
                << " undecodable frame(s), " << result.input_bytes << " bytes\n";
    }
  } catch (const InputError& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace tband::cli
