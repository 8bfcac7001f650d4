#include "trace/diagnostics.hpp"

namespace tband {

std::string_view to_string(DiagnosticKind kind) noexcept {
  switch (kind) {
    case DiagnosticKind::kDecodeError: return "decode error";
    case DiagnosticKind::kTruncatedEnd: return "truncated end";
    case DiagnosticKind::kDroppedEvents: return "dropped events";
    case DiagnosticKind::kTimestampBackwards: return "timestamp going backwards";
    case DiagnosticKind::kEndWithoutBegin: return "end without begin";
    case DiagnosticKind::kUnnamedId: return "id used but never named";
    case DiagnosticKind::kMetadataOverflow: return "metadata buffer overflow";
    case DiagnosticKind::kNoTimestampResolution: return "no timestamp resolution";
    case DiagnosticKind::kWrongMode: return "wrong mode";
    case DiagnosticKind::kNoCurrentTask: return "no current task";
    case DiagnosticKind::kCoreOutOfRange: return "core out of range";
    case DiagnosticKind::kUnknownEventId: return "unknown event id";
    case DiagnosticKind::kSchemaMismatch: return "schema mismatch";
    case DiagnosticKind::kSpansNotNested: return "spans not nested";
    case DiagnosticKind::kCaptureGap: return "gap in the capture";
    case DiagnosticKind::kInvalidUtf8: return "string not UTF-8";
    case DiagnosticKind::kLinkLost: return "frames lost on the link";
    case DiagnosticKind::kLinkCorrupt: return "corrupt frames on the link";
    case DiagnosticKind::kLinkStale: return "stale frames on the link";
    case DiagnosticKind::kCount: break;
  }
  return "diagnostic";
}

std::string_view diagnostic_id(DiagnosticKind kind) noexcept {
  switch (kind) {
    case DiagnosticKind::kDecodeError: return "decode_error";
    case DiagnosticKind::kTruncatedEnd: return "truncated_end";
    case DiagnosticKind::kDroppedEvents: return "dropped_events";
    case DiagnosticKind::kTimestampBackwards: return "timestamp_backwards";
    case DiagnosticKind::kEndWithoutBegin: return "end_without_begin";
    case DiagnosticKind::kUnnamedId: return "unnamed_id";
    case DiagnosticKind::kMetadataOverflow: return "metadata_overflow";
    case DiagnosticKind::kNoTimestampResolution: return "no_timestamp_resolution";
    case DiagnosticKind::kWrongMode: return "wrong_mode";
    case DiagnosticKind::kNoCurrentTask: return "no_current_task";
    case DiagnosticKind::kCoreOutOfRange: return "core_out_of_range";
    case DiagnosticKind::kUnknownEventId: return "unknown_event_id";
    case DiagnosticKind::kSchemaMismatch: return "schema_mismatch";
    case DiagnosticKind::kSpansNotNested: return "spans_not_nested";
    case DiagnosticKind::kCaptureGap: return "capture_gap";
    case DiagnosticKind::kInvalidUtf8: return "invalid_utf8";
    case DiagnosticKind::kLinkLost: return "link_lost";
    case DiagnosticKind::kLinkCorrupt: return "link_corrupt";
    case DiagnosticKind::kLinkStale: return "link_stale";
    case DiagnosticKind::kCount: break;
  }
  return "diagnostic";
}

std::optional<DiagnosticKind> parse_diagnostic_id(std::string_view id) noexcept {
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    if (diagnostic_id(static_cast<DiagnosticKind>(k)) == id) {
      return static_cast<DiagnosticKind>(k);
    }
  }
  return std::nullopt;
}

std::string diagnostic_id_list() {
  std::string out;
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    out += (k == 0 ? "" : ", ") + std::string{diagnostic_id(static_cast<DiagnosticKind>(k))};
  }
  return out;
}

void Diagnostics::report(DiagnosticKind kind, std::optional<std::uint64_t> ts_ns, std::string message) {
  const std::uint64_t n = ++counts_[static_cast<std::size_t>(kind)];
  if (n <= kKeptPerKind) {
    kept_.push_back({kind, ts_ns, std::move(message)});
  }
}

std::uint64_t Diagnostics::total() const noexcept {
  std::uint64_t sum = 0;
  for (const std::uint64_t n : counts_) {
    sum += n;
  }
  return sum;
}

std::uint64_t Diagnostics::total_not_allowed(const AllowedDiagnostics& allowed) const noexcept {
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    sum += allowed.allows(static_cast<DiagnosticKind>(k)) ? 0 : counts_[k];
  }
  return sum;
}

std::string Diagnostics::summary() const {
  std::string out;
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    if (counts_[k] == 0) {
      continue;
    }
    const auto kind = static_cast<DiagnosticKind>(k);
    out += "warning: " + std::to_string(counts_[k]) + " x " + std::string{to_string(kind)} + " [" +
           std::string{diagnostic_id(kind)} + "]\n";
    for (const Diagnostic& d : kept_) {
      if (d.kind != kind) {
        continue;
      }
      out += "  ";
      if (d.ts_ns) {
        out += "at " + std::to_string(*d.ts_ns) + " ns: ";
      }
      out += d.message + "\n";
    }
    if (counts_[k] > kKeptPerKind) {
      out += "  ... and " + std::to_string(counts_[k] - kKeptPerKind) + " more (see the Diagnostics track)\n";
    }
  }
  return out;
}

}  // namespace tband
