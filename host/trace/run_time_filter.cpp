// The run-time filter's events (tband_configUSE_FILTERS on the target): each
// change, and the state the metadata gives, as an instant on the core's
// "Filter" track that says in words what is left out or traced again, so
// that a reader of the timeline knows an absent event was filtered.
#include <string>

#include "trace/interpreter.hpp"

namespace tband {

namespace {

constexpr std::size_t kMaxNamesShown = 8;

std::string event_label(unsigned id) {
  if (const EventInfo* info = find_event_info(static_cast<std::uint8_t>(id))) {
    return std::string{info->name};
  }
  static constexpr char kHex[] = "0123456789ABCDEF";
  return std::string{"0x"} + kHex[(id >> 4) & 0xF] + kHex[id & 0xF];
}

/// "isr_enter, isr_exit" for the ids of `bits` in word `word` (the first few, then "and N more").
std::string id_list(std::uint32_t word, std::uint32_t bits) {
  std::string out;
  std::size_t shown = 0;
  std::size_t more = 0;
  for (unsigned b = 0; b < 32; ++b) {
    if ((bits >> b & 1u) == 0) {
      continue;
    }
    if (shown == kMaxNamesShown) {
      ++more;
      continue;
    }
    out += (shown++ == 0 ? "" : ", ") + event_label(word * 32 + b);
  }
  if (more != 0) {
    out += " and " + std::to_string(more) + " more";
  }
  return out;
}

}  // namespace

void TraceInterpreter::filter_instant(Context& c, const std::string& text) {
  if (c.core.filter_track == 0) {
    c.core.filter_track = timeline_.add_track(c.core.process, TrackKind::kSlices, "Filter");
  }
  timeline_.instant(c.ts_ns, c.core.filter_track, names_.intern_bounded(text), {}, text);
}

std::string TraceInterpreter::filter_object_label(std::uint32_t key, std::uint32_t object_id) const {
  const std::string key_name = key < filter_key_names_.size() && !filter_key_names_[key].empty()
                                   ? filter_key_names_[key]
                                   : "key " + std::to_string(key);
  return key_name + " " + std::to_string(object_id);
}

void TraceInterpreter::filter_ids_changed(std::uint32_t word, std::uint32_t enabled, const char* what, Context& c) {
  if (word >= filter_ids_.size()) {
    diagnose(DiagnosticKind::kDecodeError, c.ts_ns,
             std::string{what} + " names word " + std::to_string(word) + " of the 8-word filter set (" +
                 where(c.origin) + ")");
    return;
  }
  const std::uint32_t old = filter_ids_[word];
  filter_ids_[word] = enabled;
  const std::uint32_t now_off = old & ~enabled;
  const std::uint32_t now_on = ~old & enabled;
  std::string text = std::string{what} + ":";
  if (now_off != 0) {
    text += " left out " + id_list(word, now_off);
  }
  if (now_on != 0) {
    text += std::string{now_off != 0 ? ";" : ""} + " traced again " + id_list(word, now_on);
  }
  if (now_off == 0 && now_on == 0) {
    text += enabled == 0xFFFFFFFFu ? " no change" : " still left out " + id_list(word, ~enabled);
  }
  filter_instant(c, text);
}

void TraceInterpreter::handle(const FilterIds& e, Context& c) {
  ++filter_changes_;
  filter_ids_changed(e.word, e.enabled, "filter", c);
}

void TraceInterpreter::handle(const FilterObjectOff& e, Context& c) {
  ++filter_changes_;
  filter_instant(c, "filter: left out " + filter_object_label(e.key, e.object_id));
}

void TraceInterpreter::handle(const FilterObjectOn& e, Context& c) {
  ++filter_changes_;
  filter_instant(c, "filter: traced again " + filter_object_label(e.key, e.object_id));
}

void TraceInterpreter::handle(const FilterIdsInitial& e, Context& c) {
  filter_ids_changed(e.word, e.enabled, "filter at start", c);
}

void TraceInterpreter::handle(const FilterObjectInitial& e, Context& c) {
  filter_instant(c, "filter at start: left out " + filter_object_label(e.key, e.object_id));
}

void TraceInterpreter::handle(const FilterKeyName& e, Context&) {
  if (e.key < 256) {
    if (filter_key_names_.size() <= e.key) {
      filter_key_names_.resize(e.key + 1);
    }
    filter_key_names_[e.key] = e.name;
  }
}

}  // namespace tband
