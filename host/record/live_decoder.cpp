#include "record/live_decoder.hpp"

#include <algorithm>

namespace tband::record {

namespace {

std::uint32_t core_count(const std::vector<SourceSpec>& sources) {
  std::uint32_t count = 1;
  for (const SourceSpec& s : sources) {
    count = std::max(count, s.core.value_or(0) + 1);
  }
  return count;
}

}  // namespace

LiveDecoder::LiveDecoder(const std::vector<SourceSpec>& sources, TraceMode mode, SchemaSet* schemas,
                         TraceObserver* observer, std::uint64_t assumed_ns_per_ts)
    : schemas_(schemas),
      cores_(core_count(sources)),
      interpreter_(timeline_, diagnostics_, InterpreterOptions{mode, cores_, observer, assumed_ns_per_ts}) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    streams_.push_back(
        std::make_unique<EventStream>(sources[i].core.value_or(0), static_cast<std::uint32_t>(i), schemas));
    names_of_sources_.push_back(sources[i].text);
  }
}

void LiveDecoder::deliver(std::size_t index, const StreamItem& item) {
  const EventOrigin origin{item.core, &names_of_sources_[index], item.at, item.has_ts, item.ts};
  interpret_item(interpreter_, item, origin, schemas_, counts_);
  if (item.dynamic || item.result.ok()) {
    last_event_ = item_info(item).name;
    if (on_event_) {
      on_event_(last_event_, item.core);
    }
  }
}

void LiveDecoder::push(std::size_t index, std::span<const std::uint8_t> bytes) {
  streams_[index]->push(bytes, [&](const StreamItem& item) { deliver(index, item); });
}

void LiveDecoder::gap(std::size_t index, bool cut_frame, const std::string& message) {
  if (cut_frame) {
    static constexpr std::uint8_t kDelimiter[1] = {0};
    push(index, kDelimiter);
  }
  interpreter_.report(DiagnosticKind::kCaptureGap, message);
}

void LiveDecoder::finish() {
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    streams_[i]->finish([&](const StreamItem& item) { deliver(i, item); });
  }
  finish_interpretation(interpreter_, schemas_);
}

}  // namespace tband::record
