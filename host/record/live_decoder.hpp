// Decodes the recorded bytes as they arrive, with the decoder, interpreter
// and diagnostics `tband conv` uses (no output is written), so problems show
// while recording: undecodable frames, events the target dropped, names
// missing. One decoder for all sources: each has its own stream and core.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "import/event_stream.hpp"
#include "import/interpret_item.hpp"
#include "record/source_spec.hpp"
#include "schema/schema_set.hpp"
#include "trace/diagnostics.hpp"
#include "trace/interpreter.hpp"
#include "trace/names.hpp"
#include "trace/timeline.hpp"

namespace tband::record {

class LiveDecoder {
 public:
  /// `schemas` (may be null) must outlive the decoder; so must `observer`
  /// (may be null), told of the model's events as `tband stats` is.
  /// `assumed_ns_per_ts`: InterpreterOptions' (--ts-resolution-ns).
  LiveDecoder(const std::vector<SourceSpec>& sources, TraceMode mode, SchemaSet* schemas,
              TraceObserver* observer = nullptr, std::uint64_t assumed_ns_per_ts = 0);

  /// Bytes of source `index`, in the order they arrived.
  void push(std::size_t index, std::span<const std::uint8_t> bytes);
  /// The source's bytes were interrupted (a lost connection) and the gap is
  /// reported; `cut_frame`: the recorder ended the frame the loss cut short
  /// with a delimiter, decoded here too.
  void gap(std::size_t index, bool cut_frame, const std::string& message);
  /// The end of the recording: open frames, names never given, and so on.
  void finish();
  /// Called with each decoded event's name and core (the view's event list).
  void on_event(std::function<void(std::string_view name, std::uint32_t core)> f) { on_event_ = std::move(f); }
  /// Tells the observer the names known so far.
  void observe_names_now() { interpreter_.observe_names_now(); }

  [[nodiscard]] std::uint64_t events() const noexcept { return interpreter_.events(); }
  [[nodiscard]] std::uint64_t decode_errors() const noexcept { return counts_.decode_errors; }
  [[nodiscard]] std::uint64_t dropped_events() const noexcept { return interpreter_.dropped_events(); }
  /// Link integrity over all sources (zero without it): frames lost, corrupt, stale.
  [[nodiscard]] LinkCheck::Totals link_totals() const noexcept {
    LinkCheck::Totals sum;
    for (const auto& s : streams_) {
      const LinkCheck::Totals& t = s->link_totals();
      sum.lost += t.lost;
      sum.corrupt += t.corrupt;
      sum.stale += t.stale;
      sum.resyncs += t.resyncs;
    }
    return sum;
  }
  /// Whether any source announced link integrity.
  [[nodiscard]] bool link_checked() const noexcept {
    for (const auto& s : streams_) {
      if (s->link_active()) {
        return true;
      }
    }
    return false;
  }
  /// The name of the newest decoded event ("" before the first).
  [[nodiscard]] std::string_view last_event() const noexcept { return last_event_; }
  [[nodiscard]] const Diagnostics& diagnostics() const noexcept { return diagnostics_; }
  [[nodiscard]] std::uint64_t first_ts_ns() const noexcept { return interpreter_.first_ts_ns(); }
  [[nodiscard]] std::uint64_t last_ts_ns() const noexcept { return interpreter_.last_ts_ns(); }
  [[nodiscard]] std::uint32_t cores() const noexcept { return cores_; }

 private:
  void deliver(std::size_t index, const StreamItem& item);

  SchemaSet* schemas_;
  std::uint32_t cores_;
  NameTable names_;
  Timeline timeline_{names_};
  Diagnostics diagnostics_;
  TraceInterpreter interpreter_;
  std::vector<std::unique_ptr<EventStream>> streams_;
  std::vector<std::string> names_of_sources_;
  ItemCounts counts_;
  std::string_view last_event_;
  std::function<void(std::string_view, std::uint32_t)> on_event_;
};

}  // namespace tband::record
