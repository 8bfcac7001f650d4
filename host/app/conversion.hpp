// A whole conversion: inputs -> decoded, merged events -> interpreter ->
// Perfetto and/or JSON output, streamed chunk by chunk.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "input/input_reader.hpp"
#include "input/input_spec.hpp"
#include "schema/schema_set.hpp"
#include "trace/diagnostics.hpp"
#include "trace/interpreter.hpp"
#include "vcd/vcd_writer.hpp"

namespace tband {

/// Options that contradict each other or the inputs; the message is one line.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OutputTarget {
  std::FILE* file = nullptr;  // nullptr: no such output
  std::string name;
};

/// How many threads convert (besides the one writing each output's buffers).
enum class ConversionThreads : std::uint8_t {
  kAuto,  // one: see use_pipeline() in conversion.cpp
  kOne,   // read, decode, interpret and encode in the caller's thread
  kTwo,   // read and decode in a thread of their own (import/decode_pipeline.hpp)
};

struct ConversionOptions {
  std::vector<InputSpec> inputs;
  std::string format = "auto";
  InterpreterOptions interpreter;
  OutputTarget perfetto;
  OutputTarget json;
  OutputTarget vcd;
  /// Where the VCD writer spools value changes until the end (the VCD's folder).
  std::string vcd_spool_dir = ".";
  /// Only the VCD's 1-bit signals (VcdWriter's logic_only).
  bool vcd_logic_only = false;
  /// The files the VCD's GTKWave save file names; vcd empty: no save file.
  VcdWriter::SaveFilePaths vcd_save_paths;
  /// Decodes the events the binary was not compiled with (may be null).
  SchemaSet* schemas = nullptr;
  /// Called now and then with (bytes read, total bytes if known); from the
  /// decoding thread when there are two.
  std::function<void(std::uint64_t, std::optional<std::uint64_t>)> progress;
  /// The output is the same whatever this says.
  ConversionThreads threads = ConversionThreads::kAuto;
  /// Ticks per second of a ThreadX buffer's time stamps (--threadx-clock-hz); unset: threadx::kDefaultClockHz.
  std::optional<std::uint64_t> threadx_clock_hz;
  /// The most --threadx-clock-hz takes (10 GHz): more is a typo, not a timer.
  static constexpr std::uint64_t kMaxThreadxClockHz = 10'000'000'000;
};

/// A tick option given with inputs it does nothing for: each format gives its
/// tick length its own way, and a user who gave the other's expects it to
/// count. Each front end says it in its own terms (a flag, a field).
struct UnusedTickOption {
  enum class Option : std::uint8_t {
    kTsResolution,  // the tick length of tband traces, given with a ThreadX buffer
    kThreadxClock,  // a ThreadX buffer's clock rate, given with tband traces
  };
  Option option;
  std::string input;  // the input it does nothing for, as the user named it
};

struct ConversionResult {
  std::uint64_t events = 0;         // decoded events
  std::uint64_t decode_errors = 0;  // frames that did not decode (unknown ids included)
  std::uint64_t unknown_frames = 0; // of those, frames whose id no schema knows
  std::uint64_t input_bytes = 0;    // bytes read from the inputs
  std::uint64_t perfetto_bytes = 0;
  std::uint64_t json_bytes = 0;
  std::uint64_t vcd_bytes = 0;
  std::string vcd_translate_filter;  // GTKWave translate filter for the VCD's *_name codes
  std::string vcd_task_filter;       // ... for its Running_task_id signals
  std::string vcd_isr_filter;        // ... for its isr.active signals
  std::string vcd_save_file;         // GTKWave save file (options.vcd_save_paths)
  std::uint64_t vcd_clamped = 0;     // VCD value changes moved forward to keep time from going back
  std::uint64_t tracks = 0;
  std::uint64_t interned_names = 0;  // bounded, see NameTable::intern_bounded
  std::uint64_t first_ts_ns = 0;     // the trace's time span
  std::uint64_t last_ts_ns = 0;
  std::uint64_t dropped_events = 0;  // the target's newest dropped_evt_cnt total
  Diagnostics diagnostics;
  std::vector<std::string> notes;  // e.g. per-input format and skipped log lines
  std::vector<UnusedTickOption> unused_options;  // said as warnings
};

/// Checks the inputs against each other and the core count. Throws UsageError.
void check_inputs(const std::vector<InputSpec>& inputs, std::uint32_t core_count);

/// Runs the conversion. Throws InputError for unreadable input (missing, empty,
/// wrong format, nothing but undecodable bytes), UsageError for bad options,
/// std::runtime_error when an output cannot be written.
[[nodiscard]] ConversionResult convert(const ConversionOptions& options);

}  // namespace tband
