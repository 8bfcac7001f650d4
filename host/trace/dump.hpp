// `tband dump`: every decoded event as one line (core, time, event, fields),
// or as JSON Lines for scripts, or only per-event counts (--stats).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "input/input_spec.hpp"

namespace tband {

enum class DumpStyle : std::uint8_t { kText, kJsonLines, kStats };

struct DumpOptions {
  InputSpec input;
  std::string format = "auto";
  DumpStyle style = DumpStyle::kText;
};

struct DumpResult {
  std::uint64_t events = 0;
  std::uint64_t decode_errors = 0;
  std::uint64_t input_bytes = 0;
};

/// Throws InputError for unreadable input, std::runtime_error if `out` fails.
DumpResult dump_trace(const DumpOptions& options, std::FILE* out);

}  // namespace tband
