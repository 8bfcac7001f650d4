// Runs a conversion into a temporary .pftrace and reads it back.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "app/conversion.hpp"
#include "perfetto_view.hpp"
#include "trace_builder.hpp"

namespace tband::test {

struct Converted {
  ConversionResult result;
  PerfettoView view;
};

inline Converted convert_files(const std::vector<std::string>& inputs, const std::string& out_name,
                               TraceMode mode = TraceMode::kFreeRtos, std::uint32_t cores = 1) {
  ConversionOptions options;
  for (const std::string& in : inputs) {
    options.inputs.push_back(parse_input_spec(in));
  }
  options.interpreter.mode = mode;
  options.interpreter.core_count = cores;
  const std::string out_path = temp_path(out_name + ".pftrace");
  std::FILE* out = std::fopen(out_path.c_str(), "wb");
  options.perfetto = {out, out_path};
  Converted c;
  c.result = convert(options);
  std::fclose(out);
  c.view = read_perfetto(out_path);
  return c;
}

inline Converted convert_trace(const TraceBuilder& trace, const std::string& name,
                               TraceMode mode = TraceMode::kFreeRtos) {
  return convert_files({trace.write(name + ".bin")}, name, mode);
}

}  // namespace tband::test
