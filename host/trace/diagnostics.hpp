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
  kTruncatedEnd,        // the input ended inside a frame (a capture cut short)
  kDroppedEvents,       // the tracer reported events it had to drop
  kTimestampBackwards,  // an event older than the one before it on the same core
  kEndWithoutBegin,     // an end or exit with nothing open
  kUnnamedId,           // a marker, ISR, task, queue, event group, stream buffer or timer used but never named
  kMetadataOverflow,    // a core's metadata buffer was full: names were lost
  kNoTimestampResolution,
  kWrongMode,           // FreeRTOS events in a bare-metal conversion
  kNoCurrentTask,       // a "current task" event before any task ran on that core
  kCoreOutOfRange,      // events for a core beyond --core-count
  kUnknownEventId,      // frames whose id no schema knows (one report per id, with the count)
  kSchemaMismatch,      // the trace's schema_id matches no schema given or found
  kSpansNotNested,      // a span (display rule) ended while spans begun after it were open
  kCaptureGap,          // a live recording lost its source for a while (tband record --reconnect)
  kInvalidUtf8,         // a string that is not UTF-8 (shown escaped: \xFF)
  kLinkLost,            // link integrity: frames lost on the link (a sequence gap)
  kLinkCorrupt,         // link integrity: a frame whose CRC failed, discarded
  kLinkStale,           // link integrity: a duplicate or late frame, discarded
  kCount
};

[[nodiscard]] std::string_view to_string(DiagnosticKind kind) noexcept;

/// The kind's identifier for options and rules files: "decode_error",
/// "truncated_end", ... (to_string() gives the words for people).
[[nodiscard]] std::string_view diagnostic_id(DiagnosticKind kind) noexcept;
/// The kind with this identifier, if any.
[[nodiscard]] std::optional<DiagnosticKind> parse_diagnostic_id(std::string_view id) noexcept;
/// Every identifier, comma-separated, for error messages and --help.
[[nodiscard]] std::string diagnostic_id_list();

/// A set of diagnostic kinds that a check tolerates (conv --strict --allow,
/// the `allow:` list of a rules file).
class AllowedDiagnostics {
 public:
  void allow(DiagnosticKind kind) noexcept { allowed_[static_cast<std::size_t>(kind)] = true; }
  [[nodiscard]] bool allows(DiagnosticKind kind) const noexcept { return allowed_[static_cast<std::size_t>(kind)]; }

 private:
  std::array<bool, static_cast<std::size_t>(DiagnosticKind::kCount)> allowed_{};
};

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
  /// Diagnostics of the kinds `allowed` does not tolerate.
  [[nodiscard]] std::uint64_t total_not_allowed(const AllowedDiagnostics& allowed) const noexcept;
  [[nodiscard]] const std::vector<Diagnostic>& kept() const noexcept { return kept_; }

  /// Lines for stderr: one per kind with its count, then the kept examples
  /// (all of them when verbose, otherwise kKeptPerKind per kind).
  [[nodiscard]] std::string summary() const;

 private:
  std::array<std::uint64_t, static_cast<std::size_t>(DiagnosticKind::kCount)> counts_{};
  std::vector<Diagnostic> kept_;
};

}  // namespace tband
