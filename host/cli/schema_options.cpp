#include "cli/schema_options.hpp"

#include <cstdlib>
#include <filesystem>

#include "schema/schema_files.hpp"
#include "tband_events.hpp"

namespace tband::cli {

namespace {

// The folder of the running executable, where an installed tband-codegen sits too.
std::string executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string{} : exe.parent_path().string();
}

}  // namespace

std::unique_ptr<SchemaSet> make_schema_set(const std::vector<std::string>& schema_paths,
                                           const std::vector<std::string>& input_paths) {
  auto schemas = std::make_unique<SchemaSet>(CompiledSchema{all_event_infos(), kSchemaTraceId});
  if (!schema_paths.empty()) {
    for (auto& schema : load_schema_files(schema_paths, find_codegen(executable_dir()))) {
      schemas->add_given(std::move(schema));
    }
  }
  const char* env = std::getenv("TBAND_SCHEMA_PATH");
  const std::string search_path = env != nullptr ? env : "";
  for (std::string& candidate : search_path_candidates(search_path, input_paths)) {
    schemas->add_candidate(std::move(candidate));
  }
  schemas->set_search_description(
      (search_path.empty() ? std::string{"TBAND_SCHEMA_PATH is not set"} : "TBAND_SCHEMA_PATH=" + search_path) +
      ", tband_schema.json next to the trace");
  return schemas;
}

std::unique_ptr<SchemaSet> make_schema_set(const std::vector<std::string>& schema_paths,
                                           const std::vector<InputSpec>& inputs) {
  std::vector<std::string> paths;
  for (const InputSpec& in : inputs) {
    paths.push_back(in.path);
  }
  return make_schema_set(schema_paths, paths);
}

}  // namespace tband::cli
