// `tband dump`: every decoded event as one line (core, time, event, fields),
// or as JSON Lines for scripts, or only per-event counts (--stats, as text or
// one JSON object). Several inputs are dumped one after the other, each an
// independent trace with its own schema identity.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "input/input_spec.hpp"
#include "schema/schema_set.hpp"

namespace tband {

enum class DumpStyle : std::uint8_t { kText, kJsonLines, kStats, kStatsJson };

struct DumpOptions {
  std::vector<InputSpec> inputs;
  std::string format = "auto";
  DumpStyle style = DumpStyle::kText;
  /// Decodes what the binary was not compiled with (may be null); reset
  /// between inputs.
  SchemaSet* schemas = nullptr;
  /// Nanoseconds per tick until an input says (InterpreterOptions'); 0: 1.
  std::uint64_t assumed_ns_per_ts = 0;
};

struct DumpInputResult {
  std::string input;
  std::uint64_t events = 0;
  std::uint64_t decode_errors = 0;   // frames that did not decode, unknown ids included
  std::uint64_t unknown_frames = 0;  // of those, frames whose id no schema knows
  std::uint64_t input_bytes = 0;
  /// Said once each: the schema identity's problem, then the unknown ids with their counts.
  std::vector<std::string> problems;
  std::vector<std::string> notes;  // which descriptor the schema_id picked, ...
};

struct DumpResult {
  std::vector<DumpInputResult> inputs;

  [[nodiscard]] std::uint64_t events() const noexcept;
  [[nodiscard]] std::uint64_t decode_errors() const noexcept;
  /// Nothing a strict check would fail on: no decode error, unknown id or schema problem.
  [[nodiscard]] bool clean() const noexcept;
};

/// Throws InputError for unreadable input, std::runtime_error if `out` fails.
DumpResult dump_trace(const DumpOptions& options, std::FILE* out);

}  // namespace tband
