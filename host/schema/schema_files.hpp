// Where run-time schemas come from: descriptor files (JSON), YAML schema files
// read through the generator (`tband-codegen describe`, so that they are
// checked by the same code, with the same file:line messages, as in a
// firmware build), and the search path.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/runtime_schema.hpp"

namespace tband {

/// Reads a descriptor file. Throws SchemaLoadError.
[[nodiscard]] std::shared_ptr<const RuntimeSchema> read_descriptor_file(const std::string& path);

/// How to run the generator: the command's words, before its arguments.
struct CodegenCommand {
  std::vector<std::string> argv;
};

/// The generator for YAML schemas: $TBAND_CODEGEN, else tband-codegen next to
/// this executable (`exe_dir`), else on PATH; none if there is none.
[[nodiscard]] std::optional<CodegenCommand> find_codegen(const std::string& exe_dir);

/// The schemas the user named: descriptors (*.json, or a generator output
/// folder holding descriptor/tband_schema.json) read directly, YAML files and
/// folders composed together with the built-in groups by one generator run
/// (its messages go to stderr as they come). Throws SchemaLoadError.
[[nodiscard]] std::vector<std::shared_ptr<const RuntimeSchema>> load_schema_files(
    const std::vector<std::string>& paths, const std::optional<CodegenCommand>& codegen);

/// Descriptor files on the search path: each entry of `search_path` (the
/// value of TBAND_SCHEMA_PATH, entries separated by ':') that is a file, the
/// *.json files of each entry that is a folder (and of its descriptor/
/// subfolder), then tband_schema.json next to each input file.
[[nodiscard]] std::vector<std::string> search_path_candidates(std::string_view search_path,
                                                              const std::vector<std::string>& input_paths);

}  // namespace tband
