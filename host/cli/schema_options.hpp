// --schema and the search path, shared by `tband dump`, `conv`, `stats`, `check` and `report`:
// the run-time schemas a command decodes with besides the compiled one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "input/input_spec.hpp"
#include "schema/schema_set.hpp"

namespace tband::cli {

/// --schema's help, the same for every command that takes it.
inline constexpr const char* kSchemaHelp =
    "A schema for events this tband was not built with: a descriptor (tband_schema.json, as the generator "
    "writes it) or YAML schema files/folders (read with tband-codegen); repeatable. Without it, a trace's "
    "schema_id picks a descriptor from $TBAND_SCHEMA_PATH or tband_schema.json next to the trace";

/// The schemas given with --schema (loaded now; YAML through tband-codegen),
/// and the search path's descriptors ($TBAND_SCHEMA_PATH, tband_schema.json
/// next to each input) for the trace's schema_id to pick from. Throws
/// SchemaLoadError with a message for the user.
[[nodiscard]] std::unique_ptr<SchemaSet> make_schema_set(const std::vector<std::string>& schema_paths,
                                                         const std::vector<std::string>& input_paths);
/// The same for a command's parsed inputs.
[[nodiscard]] std::unique_ptr<SchemaSet> make_schema_set(const std::vector<std::string>& schema_paths,
                                                         const std::vector<InputSpec>& inputs);

}  // namespace tband::cli
