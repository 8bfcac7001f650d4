// A live recording: sources polled together, each one's bytes written to its
// own file as they arrive and decoded on the way, until a signal (SIGINT,
// SIGTERM), the end of every source, --duration or --max-bytes ends it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "decode/link_check.hpp"
#include "record/source_spec.hpp"
#include "record/status_line.hpp"
#include "schema/schema_set.hpp"
#include "trace/diagnostics.hpp"
#include "trace/interpreter.hpp"

namespace tband::record {

/// A source that did not connect within the connect timeout; one line.
class NotConnectedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What on_progress gets: the status line's figures and more.
struct RecordingProgress {
  StatusFigures figures;
  double seconds = 0;
  std::uint64_t gaps = 0;
  std::uint64_t first_ts_ns = 0, last_ts_ns = 0;  // of the decoded events
  std::uint32_t cores = 1;
  const Diagnostics* diagnostics = nullptr;  // the live decoder's, valid during the call
  std::vector<std::string> files;  // the part each source writes to now
  std::uint64_t rotate_bytes = 0;
  bool compress = false;
  bool ended = false;  // the last call: the recording ended, everything decoded
};

struct RecorderOptions {
  std::vector<SourceSpec> sources;
  std::vector<std::string> outputs;  // one file per source
  std::uint64_t rotate_bytes = 0;    // 0: no rotation
  bool compress = false;             // zstd frames (record/recording_file.hpp)
  std::optional<std::chrono::milliseconds> duration;
  std::optional<std::uint64_t> max_bytes;  // over all sources
  std::chrono::milliseconds connect_timeout{10000};
  bool reconnect = false;
  TraceMode mode = TraceMode::kFreeRtos;
  std::uint64_t assumed_ns_per_ts = 0;  // --ts-resolution-ns (InterpreterOptions'); 0: not given
  SchemaSet* schemas = nullptr;  // may be null
  StatusMode status = StatusMode::kAuto;
  std::chrono::milliseconds status_interval{10000};  // plain lines when not on a terminal
  /// Control-channel frames (ctl/protocol.hpp) sent to every writable source
  /// each time it connects (--send), in order.
  std::vector<std::vector<std::uint8_t>> send_on_connect;
  /// The interactive command line: a line typed on stdin (a terminal) to the
  /// frame sent to every connected writable source; throws
  /// std::invalid_argument, whose message is shown, for a line that is no
  /// command. Unset: stdin is not read.
  std::function<std::vector<std::uint8_t>(const std::string&)> command_line;
  bool write_files = true;  // false: decode only (tband serve --live: the file is someone else's)
  // The live view (tband record --view): told of the model's events, of each
  // event's name, and every progress_interval of the recording's progress, on
  // the recording's thread (so each must be quick and must never wait).
  TraceObserver* observer = nullptr;
  std::function<void(std::string_view name, std::uint32_t core)> on_event;
  std::function<void(const RecordingProgress&)> on_progress;
  std::chrono::milliseconds progress_interval{200};
};


enum class RecordingEnd : std::uint8_t { kInputEnded, kSignal, kDuration, kMaxBytes };

struct RecordingResult {
  RecordingEnd end = RecordingEnd::kInputEnded;
  std::string end_reason;  // "SIGINT", "every source ended", ...
  std::vector<std::vector<std::string>> parts;  // per source: its files, rotation parts in order
  std::uint64_t bytes = 0;
  double seconds = 0;
  std::uint64_t events = 0;
  std::uint64_t decode_errors = 0;
  bool link_checked = false;  // a source announced link integrity
  LinkCheck::Totals link;     // what it found, over all sources
  std::uint64_t dropped_events = 0;
  std::uint64_t gaps = 0;
  Diagnostics diagnostics;
};

/// Records until the end. Throws NotConnectedError, SourceError (a source
/// that cannot work) and OutputError (a file that cannot be written); what
/// was recorded until then stays on disk.
[[nodiscard]] RecordingResult record(const RecorderOptions& options);

}  // namespace tband::record
