// Everything odd about a trace, collected while it converts: counted per kind,
// with the first few occurrences kept word for word for the summary on stderr.
// (The interpreter also puts each one on the trace's "Diagnostics" track.)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tband {

enum class DiagnosticKind : std::uint8_t {
  kDecodeError,         // a frame that could not be decoded (byte offset given)
  kDroppedEvents,       // the tracer reported events it had to drop
  kTimestampBackwards,  // an event older than the one before it on the same core
  kEndWithoutBegin,     // an end or exit with nothing open
  kUnnamedId,           // a marker, ISR, task or queue used but never named
  kMetadataOverflow,    // a core's metadata buffer was full: names were lost
  kNoTimestampResolution,
  kWrongMode,           // FreeRTOS events in a bare-metal conversion
  kNoCurrentTask,       // a "current task" event before any task ran on that core
  kCoreOutOfRange,      // events for a core beyond --core-count
  kUnknownEventId,      // frames whose id no schema knows (one report per id, with the count)
  kSchemaMismatch,      // the trace's schema_id matches no schema given or found
  kSpansNotNested,      // a span (display rule) ended while spans begun after it were open
  kCount
};

[[nodiscard]] std::string_view to_string(DiagnosticKind kind) noexcept;

struct Diagnostic {
  DiagnosticKind kind;
  std::optional<std::uint64_t> ts_ns;
  std::string message;
};

class Diagnostics {
 public:
  static constexpr std::size_t kKeptPerKind = 5;

  void report(DiagnosticKind kind, std::optional<std::uint64_t> ts_ns, std::string message);

  [[nodiscard]] std::uint64_t count(DiagnosticKind kind) const noexcept {
    return counts_[static_cast<std::size_t>(kind)];
  }
  [[nodiscard]] std::uint64_t total() const noexcept;
  [[nodiscard]] const std::vector<Diagnostic>& kept() const noexcept { return kept_; }

  /// Lines for stderr: one per kind with its count, then the kept examples
  /// (all of them when verbose, otherwise kKeptPerKind per kind).
  [[nodiscard]] std::string summary() const;

 private:
  std::array<std::uint64_t, static_cast<std::size_t>(DiagnosticKind::kCount)> counts_{};
  std::vector<Diagnostic> kept_;
};

}  // namespace tband
