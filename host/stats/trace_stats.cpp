#include "stats/trace_stats.hpp"

#include <algorithm>

namespace tband {

std::string_view section_word(Section section) noexcept {
  switch (section) {
    case Section::kTrace: return "";
    case Section::kCore: return "core";
    case Section::kIsr: return "isr";
    case Section::kMarker: return "marker";
    case Section::kValue: return "value";
    case Section::kTask: return "task";
    case Section::kQueue: return "queue";
    case Section::kMutex: return "mutex";
    case Section::kSpan: return "span";
    case Section::kEvent: return "event";
    case Section::kCounter: return "counter";
  }
  return "";
}

std::string_view section_title(Section section) noexcept {
  switch (section) {
    case Section::kTrace: return "Trace";
    case Section::kCore: return "Cores";
    case Section::kIsr: return "ISRs";
    case Section::kMarker: return "Event markers";
    case Section::kValue: return "Value markers";
    case Section::kTask: return "Tasks";
    case Section::kQueue: return "Queues";
    case Section::kMutex: return "Mutexes";
    case Section::kSpan: return "Spans (schema display rules)";
    case Section::kEvent: return "Schema events";
    case Section::kCounter: return "Counters (schema display rules)";
  }
  return "";
}

const Figure* StatRow::figure(std::string_view key) const {
  for (const Figure& f : figures) {
    if (f.key == key) {
      return &f;
    }
  }
  return nullptr;
}

namespace {

std::string keys_of(const StatRow& row) {
  std::string out;
  for (const Figure& f : row.figures) {
    out += (out.empty() ? "" : ", ") + f.key;
  }
  return out;
}

}  // namespace

TraceStats::Lookup TraceStats::find(std::string_view name) const {
  // The longest row prefix that leaves a known key: "task.w.marker.acq" wins
  // over "task.w" for "task.w.marker.acq.count".
  const StatRow* best = nullptr;
  const Figure* best_figure = nullptr;
  for (const StatRow& row : rows) {
    std::string_view key = name;
    if (!row.prefix.empty()) {
      if (name.size() <= row.prefix.size() + 1 || name.substr(0, row.prefix.size()) != row.prefix ||
          name[row.prefix.size()] != '.') {
        continue;
      }
      key = name.substr(row.prefix.size() + 1);
    }
    if (const Figure* f = row.figure(key); f != nullptr && (best == nullptr || row.prefix.size() > best->prefix.size())) {
      best = &row;
      best_figure = f;
    }
  }
  if (best != nullptr) {
    return {best, best_figure, {}};
  }

  // Say what is wrong: an unknown kind of thing, a thing the trace lacks, or
  // a figure the thing does not have.
  const std::string_view word = name.substr(0, name.find('.'));
  std::vector<const StatRow*> same_kind;
  for (const StatRow& row : rows) {
    if (row.section != Section::kTrace && section_word(row.section) == word) {
      same_kind.push_back(&row);
    }
  }
  for (const StatRow* row : same_kind) {  // the row exists: the key is wrong
    if (name.size() > row->prefix.size() && name.substr(0, row->prefix.size()) == row->prefix &&
        name[row->prefix.size()] == '.') {
      return {row, nullptr,
              "'" + row->prefix + "' has no figure '" + std::string{name.substr(row->prefix.size() + 1)} +
                  "'; it has: " + keys_of(*row)};
    }
  }
  static constexpr Section kNamed[] = {Section::kCore,  Section::kIsr,   Section::kMarker, Section::kValue,
                                       Section::kTask,  Section::kQueue, Section::kMutex,  Section::kSpan,
                                       Section::kEvent, Section::kCounter};
  const bool known_word =
      std::any_of(std::begin(kNamed), std::end(kNamed), [&](Section s) { return section_word(s) == word; });
  if (known_word && word.size() < name.size()) {
    std::string names;
    for (const StatRow* row : same_kind) {
      names += (names.empty() ? "'" : ", '") + row->prefix.substr(word.size() + 1) + "'";
    }
    return {nullptr, nullptr,
            "the trace has no " + std::string{word} + " matching '" + std::string{name} + "'" +
                (names.empty() ? " (it has none of that kind)" : "; it has " + names)};
  }
  return {nullptr, nullptr,
          "unknown figure '" + std::string{name} + "': trace figures are " + keys_of(trace_row()) +
              "; others start with core., isr., marker., value., task., queue. or mutex."};
}

}  // namespace tband
