// --schema and the search path, shared by `tband dump` and `tband conv`:
// the run-time schemas a command decodes with besides the compiled one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "schema/schema_set.hpp"

namespace tband::cli {

/// The schemas given with --schema (loaded now; YAML through tband-codegen),
/// and the search path's descriptors ($TBAND_SCHEMA_PATH, tband_schema.json
/// next to each input) for the trace's schema_id to pick from. Throws
/// SchemaLoadError with a message for the user.
[[nodiscard]] std::unique_ptr<SchemaSet> make_schema_set(const std::vector<std::string>& schema_paths,
                                                         const std::vector<std::string>& input_paths);

}  // namespace tband::cli
