// Events of schemas loaded at run time, shown as their display rules say:
// instants, spans paired by key fields, counters; on tracks named from
// templates, at the top level or under the core or the running task.
//
// A name rule (a metadata event's) labels one value of a field: track and
// name templates of the other rules that refer to a field of that name show
// the label in place of the value from then on; tracks made before are
// renamed (their template pieces are kept for that).
//
// Per event, tracks and names are found from the raw values of the fields
// their templates use (the last ones first, then a hash map), so the text is
// built once per distinct value; open spans are found by a backwards search
// of their span's open list, which is as deep as the spans are nested.
#include <algorithm>

#include "decode/event_format.hpp"
#include "trace/interpreter.hpp"

namespace tband {

namespace {

constexpr std::string_view kOtherEvents = "Other events";

// A field's value as template text: like dump's, but strings unquoted.
std::string template_text(const FieldValue& field) {
  if (field.present && field.info->type == FieldType::kStr) {
    return std::string{field.str};
  }
  return format_field_value(field);
}

std::string format_template(const NameTemplate& t, const DynamicEvent& e) {
  std::string out;
  for (const NameTemplate::Part& part : t.parts) {
    out += part.field < 0 ? part.text : template_text(e.fields[static_cast<std::size_t>(part.field)]);
  }
  return out;
}

std::string label_key(std::string_view field, std::string_view value) {
  std::string key{field};
  key.push_back('\0');
  key += value;
  return key;
}

std::vector<int> fields_of(const std::optional<NameTemplate>& t) {
  std::vector<int> fields;
  if (t) {
    for (const NameTemplate::Part& part : t->parts) {
      if (part.field >= 0) {
        fields.push_back(part.field);
      }
    }
  }
  return fields;
}

}  // namespace

const std::string* TraceInterpreter::label_of(std::string_view field, std::string_view value) const {
  if (labels_.empty()) {
    return nullptr;
  }
  const auto it = labels_.find(std::string_view{label_key(field, value)});
  return it == labels_.end() ? nullptr : &it->second;
}

std::string TraceInterpreter::format_with_labels(const NameTemplate& t, const DynamicEvent& e) const {
  std::string out;
  for (const NameTemplate::Part& part : t.parts) {
    if (part.field < 0) {
      out += part.text;
      continue;
    }
    const FieldValue& v = e.fields[static_cast<std::size_t>(part.field)];
    const std::string text = template_text(v);
    const std::string* label = label_of(v.info->name, text);
    out += label != nullptr ? *label : text;
  }
  return out;
}

std::string TraceInterpreter::render_pieces(const std::vector<NamePiece>& pieces) const {
  std::string out;
  for (const NamePiece& piece : pieces) {
    const std::string* label = piece.field.empty() ? nullptr : label_of(piece.field, piece.text);
    out += label != nullptr ? *label : piece.text;
  }
  return out;
}

void TraceInterpreter::apply_name_rule(const DynamicEvent& e) {
  const DisplayRule& rule = e.event->display;
  const FieldValue& key = e.fields[static_cast<std::size_t>(rule.key_fields.front())];
  const std::string value = template_text(key);
  std::string label = format_template(*rule.name, e);
  const auto [it, added] = labels_.try_emplace(label_key(key.info->name, value), label);
  if (!added) {
    if (it->second == label) {
      return;
    }
    it->second = std::move(label);  // named again: the newest name holds
  }
  // Slice and instant names made from now on use the label (those shown
  // already keep theirs); tracks are renamed.
  for (auto& [event, state] : rule_states_) {
    const std::optional<NameTemplate>& name = event->display.name;
    const auto& rule_event = event;  // a lambda cannot capture a structured binding before clang 16 (emscripten)
    const bool uses = name && std::any_of(name->parts.begin(), name->parts.end(), [&](const NameTemplate::Part& p) {
      return p.field >= 0 && rule_event->info.fields[static_cast<std::size_t>(p.field)].name == key.info->name;
    });
    if (uses && !state.names.empty()) {
      state.names.clear();
      state.recent_names.clear();
    }
  }
  const auto users = tracks_by_value_.find(std::string_view{label_key(key.info->name, value)});
  if (users == tracks_by_value_.end()) {
    return;
  }
  for (DisplayTrack* const t : users->second) {
    DisplayTrack& track = *t;
    std::string base = render_pieces(track.pieces);
    std::string name = track.unit.empty() ? base : base + " (" + track.unit + ")";
    std::string global_key{reinterpret_cast<const char*>(&track.parent), sizeof track.parent};
    global_key += static_cast<char>(track.kind);
    global_key += name;
    display_tracks_by_name_.try_emplace(std::move(global_key), &track);  // events of other rules find it by the new name
    timeline_.rename(track.id, std::move(name));
    if (track.kind == TrackKind::kCounter) {
      observer_.name_counter(track.obs_id, std::move(base));
    }
  }
}

TraceInterpreter::RuleState& TraceInterpreter::rule_state(const RuntimeEvent& event) {
  auto& cached = rule_by_id_[event.info.id];
  if (cached.first == &event) {
    return *cached.second;
  }
  const auto [it, created] = rule_states_.try_emplace(&event);
  RuleState& state = it->second;
  if (created) {
    const DisplayRule& rule = event.display;
    const bool span = rule.kind == DisplayKind::kSpanBegin;
    state.default_name = names_.intern(span ? std::string_view{rule.span_name} : event.info.name);
    for (const FieldInfo& field : event.info.fields) {
      state.field_names.push_back(names_.intern(field.name));
    }
    state.track_key = KeyFields{event.info.fields, fields_of(rule.track)};
    state.name_key = KeyFields{event.info.fields, fields_of(rule.name)};
    state.span_key = KeyFields{event.info.fields, rule.key_fields};
    for (std::size_t i = 0; i < event.info.fields.size(); ++i) {
      // A span_end's key fields equal its span_begin's, which the slice already has.
      const bool key = rule.kind == DisplayKind::kSpanEnd &&
                       std::find(rule.key_fields.begin(), rule.key_fields.end(), static_cast<int>(i)) !=
                           rule.key_fields.end();
      if (!event.info.fields[i].implicit && !key) {
        state.arg_fields.push_back(static_cast<std::uint32_t>(i));
      }
    }
    if (rule.kind == DisplayKind::kSpanBegin || rule.kind == DisplayKind::kSpanEnd) {
      state.open = &open_spans_[rule.span_name];  // map values stay where they are
    }
    if (rule.kind == DisplayKind::kSpanBegin || rule.kind == DisplayKind::kSpanEnd) {
      const auto [found, added] = span_obs_ids_.try_emplace(rule.span_name, TraceObserver::kNone);
      if (added) {
        found->second = observer_.add_schema_span(rule.span_name);
      }
      state.obs_id = found->second;
    } else if (rule.kind == DisplayKind::kInstant && !event.info.is_metadata) {
      state.obs_id = observer_.add_schema_event(std::string{event.info.name});
    }
  }
  cached = {&event, &state};
  return state;
}

TraceInterpreter::DisplayTrack& TraceInterpreter::display_track(const DynamicEvent& e, RuleState& state, Context& c,
                                                                TrackKind kind) {
  const DisplayRule& rule = e.event->display;
  TrackId parent = 0;
  if (rule.place == DisplayPlace::kCore) {
    parent = c.core.process;
  } else if (rule.place == DisplayPlace::kTask) {
    parent = c.core.process;
    if (options_.mode == TraceMode::kFreeRtos) {
      if (Task* t = current_task(c, e.info().name)) {
        parent = t->process;
      }
    }
  }
  key_.clear();
  key_.add(parent);
  key_.add_fields(e.fields, state.track_key);
  if (DisplayTrack** recent = state.recent_tracks.find(key_)) {
    return **recent;
  }
  std::string key_bytes = key_.bytes();
  DisplayTrack* track = nullptr;
  if (const auto it = state.tracks.find(std::string_view{key_bytes}); it != state.tracks.end()) {
    track = it->second;
  } else {
    std::string name;
    std::vector<NamePiece> pieces;
    if (rule.track) {
      for (const NameTemplate::Part& part : rule.track->parts) {
        if (part.field < 0) {
          pieces.push_back({part.text, {}});
        } else {
          const FieldValue& v = e.fields[static_cast<std::size_t>(part.field)];
          pieces.push_back({template_text(v), v.info->name});
        }
      }
      name = render_pieces(pieces);
    } else {
      name = kind == TrackKind::kCounter ? std::string{e.info().name} : std::string{kOtherEvents};
    }
    const std::string counter_name = name;  // rules name a counter without its unit
    if (kind == TrackKind::kCounter && !rule.unit.empty()) {
      name += " (" + rule.unit + ")";
    }
    // Events of other rules may name the same track.
    std::string global_key{reinterpret_cast<const char*>(&parent), sizeof parent};
    global_key += static_cast<char>(kind);
    global_key += name;
    if (const auto found = display_tracks_by_name_.find(std::string_view{global_key});
        found != display_tracks_by_name_.end()) {
      track = found->second;
    } else {
      track = &display_tracks_.emplace_back();
      if (parent == c.core.process && kind == TrackKind::kSlices && name == kOtherEvents) {
        // The same track generic instants of this core use.
        if (c.core.events_track == 0) {
          c.core.events_track = timeline_.add_track(c.core.process, TrackKind::kSlices, name);
        }
        track->id = c.core.events_track;
      } else {
        track->id = timeline_.add_track(parent, kind, name);
      }
      if (kind == TrackKind::kCounter) {
        track->obs_id = observer_.add_counter(counter_name);
      }
      if (rule.track && rule.track->has_fields()) {  // a name rule may rename it
        track->pieces = std::move(pieces);
        track->unit = kind == TrackKind::kCounter ? rule.unit : std::string{};
        track->parent = parent;
        track->kind = kind;
        for (const NamePiece& piece : track->pieces) {
          if (!piece.field.empty()) {
            std::vector<DisplayTrack*>& users = tracks_by_value_[label_key(piece.field, piece.text)];
            if (users.empty() || users.back() != track) {  // a field twice in one template: once
              users.push_back(track);
            }
          }
        }
      }
      display_tracks_by_name_.emplace(std::move(global_key), track);
    }
    state.tracks.emplace(std::move(key_bytes), track);
  }
  state.recent_tracks.put(key_, track);
  return *track;
}

NameId TraceInterpreter::display_name(const DynamicEvent& e, RuleState& state, std::string& literal) {
  const DisplayRule& rule = e.event->display;
  if (!rule.name) {
    return state.default_name;
  }
  key_.clear();
  key_.add_fields(e.fields, state.name_key);
  if (const NameId* recent = state.recent_names.find(key_)) {
    return *recent;
  }
  std::string key_bytes = key_.bytes();
  NameId id = kLiteralName;
  if (const auto it = state.names.find(std::string_view{key_bytes}); it != state.names.end()) {
    id = it->second;
  } else {
    std::string text = format_with_labels(*rule.name, e);
    id = names_.intern_bounded(text);
    if (id == kLiteralName) {
      literal = std::move(text);  // the name table is full: the text goes with the event
      return id;
    }
    if (state.names.size() < NameTable::kMaxBoundedNames) {
      state.names.emplace(std::move(key_bytes), id);
    }
  }
  state.recent_names.put(key_, id);
  return id;
}

std::string TraceInterpreter::span_label(const DynamicEvent& e) const {
  const DisplayRule& rule = e.event->display;
  std::string out = "span '" + rule.span_name + "'";
  if (!rule.key_fields.empty()) {
    out += " (";
    for (std::size_t i = 0; i < rule.key_fields.size(); ++i) {
      const FieldValue& v = e.fields[static_cast<std::size_t>(rule.key_fields[i])];
      out += (i == 0 ? "" : ", ") + std::string{v.info->name} + "=" + format_field_value(v);
    }
    out += ")";
  }
  return out;
}

void TraceInterpreter::show_dynamic(const DynamicEvent& e, Context& c) {
  const std::uint64_t ts_ns = c.ts_ns;
  RuleState& state = rule_state(*e.event);
  const DisplayRule& rule = e.event->display;
  if (rule.kind == DisplayKind::kCounter) {
    display_counter(e, state, c);
    return;
  }
  if (rule.kind == DisplayKind::kName) {
    apply_name_rule(e);  // shown in the names it gives, not as an instant at time 0
    return;
  }
  args_.clear();
  for (const std::uint32_t i : state.arg_fields) {
    if (e.fields[i].present) {
      args_.push_back({state.field_names[i], &e.fields[i]});
    }
  }
  if (rule.kind == DisplayKind::kSpanEnd) {
    display_span_end(e, state, c);
    return;
  }
  DisplayTrack& track = display_track(e, state, c, TrackKind::kSlices);
  std::string literal;
  const NameId name = display_name(e, state, literal);
  if (rule.kind == DisplayKind::kInstant) {
    timeline_.instant(ts_ns, track.id, name, args_, literal);
    if (state.obs_id != TraceObserver::kNone) {  // not a metadata event
      observer_.schema_event(state.obs_id, ts_ns);
    }
    return;
  }
  timeline_.slice_begin(ts_ns, track.id, name, args_, literal);
  OpenSpan& span = track.open.emplace_back();
  span.serial = ++next_span_serial_;
  span.name = name;
  span.literal = std::move(literal);
  OpenRef& ref = state.open->emplace_back();
  ref.key.clear();
  ref.key.add_fields(e.fields, state.span_key);
  ref.track = &track;
  ref.serial = span.serial;
  ref.begin_ns = ts_ns;
  observer_.schema_span_begin(state.obs_id);
}

void TraceInterpreter::display_span_end(const DynamicEvent& e, RuleState& state, Context& c) {
  key_.clear();
  key_.add_fields(e.fields, state.span_key);
  std::vector<OpenRef>& open = *state.open;
  std::size_t at = open.size();
  while (at > 0 && open[at - 1].key != key_) {
    --at;  // the newest open span with this key
  }
  if (at == 0) {
    diagnose(DiagnosticKind::kEndWithoutBegin, c.ts_ns,
             std::string{e.info().name} + ": " + span_label(e) + " ends with no such span open (" + where(c.origin) +
                 ")");
    return;
  }
  DisplayTrack& track = *open[at - 1].track;
  const std::uint64_t serial = open[at - 1].serial;
  observer_.schema_span_end(state.obs_id, open[at - 1].begin_ns, c.ts_ns);
  open.erase(open.begin() + static_cast<std::ptrdiff_t>(at - 1));
  std::size_t index = track.open.size() - 1;
  while (track.open[index].serial != serial) {
    --index;  // it is open on this track: found before index reaches 0
  }
  if (index + 1 == track.open.size()) {
    timeline_.slice_end(c.ts_ns, track.id, args_);
    track.open.pop_back();
    return;
  }
  // Spans begun inside this one are still open: on one track slices must
  // nest, so they end here with it and begin again right away.
  for (std::size_t j = track.open.size() - 1; j > index; --j) {
    timeline_.slice_end(c.ts_ns, track.id);
  }
  timeline_.slice_end(c.ts_ns, track.id, args_);
  for (std::size_t j = index + 1; j < track.open.size(); ++j) {
    timeline_.slice_begin(c.ts_ns, track.id, track.open[j].name, {}, track.open[j].literal);
  }
  track.open.erase(track.open.begin() + static_cast<std::ptrdiff_t>(index));
  diagnose(DiagnosticKind::kSpansNotNested, c.ts_ns,
           std::string{e.info().name} + ": " + span_label(e) + " ends while " +
               std::to_string(track.open.size() - index) + " span(s) begun after it are still open on track '" +
               timeline_.track(track.id).name + "'; those are split in two here (put a key field in the track "
               "name to give each its own track; " + where(c.origin) + ")");
}

void TraceInterpreter::display_counter(const DynamicEvent& e, RuleState& state, Context& c) {
  const FieldValue& v = e.fields[static_cast<std::size_t>(e.event->display.value_field)];
  if (!v.present && !v.info->default_value.present) {
    return;  // an optional value left out, with no default: no sample
  }
  const DisplayTrack& track = display_track(e, state, c, TrackKind::kCounter);
  double sample = 0;
  switch (value_kind(v.info->type)) {
    case ValueKind::kFloat:
      timeline_.counter_double(c.ts_ns, track.id, v.f);
      sample = v.f;
      break;
    case ValueKind::kSigned:
      timeline_.counter(c.ts_ns, track.id, v.s);
      sample = static_cast<double>(v.s);
      break;
    default:
      if (v.u <= static_cast<std::uint64_t>(INT64_MAX)) {
        timeline_.counter(c.ts_ns, track.id, static_cast<std::int64_t>(v.u));
      } else {
        timeline_.counter_double(c.ts_ns, track.id, static_cast<double>(v.u));
      }
      sample = static_cast<double>(v.u);
      break;
  }
  observer_.counter(track.obs_id, c.ts_ns, sample);
}

}  // namespace tband
