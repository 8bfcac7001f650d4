// tband dump: decoded events as text or JSON Lines on stdout, or counts.
#include <cstdio>
#include <iostream>

#include "app/dump.hpp"
#include "cli/commands.hpp"
#include "cli/schema_options.hpp"
#include "input/input_reader.hpp"

namespace tband::cli {

int run_dump(const DumpCmdOptions& options, const GlobalOptions& global) {
  DumpOptions dump;
  std::vector<std::string> paths;
  try {
    for (const std::string& arg : options.inputs) {
      dump.inputs.push_back(parse_input_spec(arg));
      paths.push_back(dump.inputs.back().path);
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<SchemaSet> schemas;
  try {
    schemas = make_schema_set(options.schemas, paths);
  } catch (const SchemaLoadError& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitUsage;
  }
  dump.schemas = schemas.get();
  dump.assumed_ns_per_ts = options.ts_resolution_ns;
  dump.format = options.format;
  if (options.stats) {
    dump.style = options.json ? DumpStyle::kStatsJson : DumpStyle::kStats;
  } else {
    dump.style = options.json ? DumpStyle::kJsonLines : DumpStyle::kText;
  }
  DumpResult result;
  try {
    result = dump_trace(dump, stdout);
  } catch (const InputError& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "tband dump: error: " << e.what() << "\n";
    return kExitOutput;
  }
  for (const DumpInputResult& r : result.inputs) {
    const std::string who = result.inputs.size() > 1 ? "tband dump: " + r.input + ": " : "tband dump: ";
    if (global.verbose > 0) {
      for (const std::string& note : r.notes) {
        std::cerr << who << "note: " << note << "\n";
      }
    }
    if (global.verbose > 0 || (r.decode_errors != 0 && !global.quiet)) {
      std::cerr << who << r.events << " events, " << r.decode_errors << " undecodable frame(s), " << r.input_bytes
                << " bytes\n";
    }
    if (!global.quiet) {
      for (const std::string& problem : r.problems) {
        std::cerr << who << "warning: " << problem << "\n";
      }
    }
  }
  if (!global.quiet) {
    for (const std::string& conflict : schemas->conflicts()) {
      std::cerr << "tband dump: warning: " << conflict << "\n";
    }
  }
  if (options.strict && !result.clean()) {
    std::cerr << "tband dump: error: undecodable frames, unknown event ids or a schema mismatch, and --strict\n";
    return kExitWarnings;
  }
  return kExitOk;
}

}  // namespace tband::cli
