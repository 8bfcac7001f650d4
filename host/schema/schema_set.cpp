#include "schema/schema_set.hpp"

#include <algorithm>
#include <cstdio>

#include "common/text_place.hpp"
#include "schema/schema_files.hpp"

namespace tband {

namespace {

std::string hex_id(unsigned id) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", id);
  return text;
}

bool same_enum(const EnumInfo* a, const EnumInfo* b) noexcept {
  if (a == nullptr || b == nullptr) {
    return a == b;
  }
  if (a->name != b->name || a->values.size() != b->values.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a->values.size(); ++i) {
    if (a->values[i].value != b->values[i].value || a->values[i].name != b->values[i].name) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool same_wire_layout(const EventInfo& a, const EventInfo& b) noexcept {
  if (a.id != b.id || a.name != b.name || a.is_metadata != b.is_metadata || a.fields.size() != b.fields.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    const FieldInfo& x = a.fields[i];
    const FieldInfo& y = b.fields[i];
    if (x.name != y.name || x.type != y.type || x.optional != y.optional || !same_enum(x.enum_info, y.enum_info)) {
      return false;
    }
  }
  return true;
}

SchemaSet::SchemaSet(CompiledSchema compiled) : compiled_(compiled) {
  for (const EventInfo& info : compiled_.events) {
    compiled_by_id_[info.id] = &info;
  }
}

void SchemaSet::activate(const RuntimeSchema& schema, bool replace) {
  if (replace) {
    table_.fill(nullptr);
    active_.clear();
    active_count_ = 0;
  }
  for (const RuntimeEvent& event : schema.events()) {
    const std::uint8_t id = event.info.id;
    if (const EventInfo* built_in = compiled_by_id_[id]) {
      if (!same_wire_layout(*built_in, event.info)) {
        std::string conflict = schema.source() + " defines id " + hex_id(id) + " as '" +
                               clip(event.info.name) + "', which this tband decodes as its own '" +
                               std::string{built_in->name} +
                               "' (another tband version?); the built-in decoding applies";
        if (std::find(conflicts_.begin(), conflicts_.end(), conflict) == conflicts_.end()) {
          conflicts_.push_back(std::move(conflict));  // once, however often the schema is picked
        }
      }
      continue;
    }
    if (const RuntimeEvent* other = table_[id]) {
      if (!same_wire_layout(other->info, event.info)) {
        throw SchemaLoadError(schema.source() + ": id " + hex_id(id) + " is event '" + clip(event.info.name) +
                              "' here but '" + clip(other->info.name) + "' in a schema given before");
      }
      continue;
    }
    table_[id] = &event;
    ++active_count_;
  }
}

void SchemaSet::add_given(std::shared_ptr<const RuntimeSchema> schema) {
  activate(*schema, false);
  given_.push_back(schema);
  active_.push_back(std::move(schema));
}

void SchemaSet::add_candidate(std::string path) { candidates_.push_back({std::move(path), nullptr, false}); }

std::string SchemaSet::schema_text(std::uint64_t id, std::string_view groups) const {
  return "schema " + trace_id_hex(id) + ", " +
         (groups.empty() ? std::string{"no user groups"} : "groups " + std::string{groups});
}

void SchemaSet::on_schema_id(std::uint64_t trace_id, std::string_view user_groups) {
  if (trace_id_) {
    if (*trace_id_ != trace_id && !identity_problem_) {
      identity_problem_ = "the trace names two schemas: " + schema_text(*trace_id_, trace_groups_) + " and " +
                          schema_text(trace_id, user_groups) + "; decoding with the first";
    }
    return;
  }
  trace_id_ = trace_id;
  trace_groups_.assign(user_groups);
  if (trace_id == compiled_.trace_id) {
    return;  // the binary was built with this very schema
  }
  const std::string written = "trace written with " + schema_text(trace_id, user_groups);
  if (!given_.empty()) {
    for (const auto& schema : given_) {
      if (schema->trace_id() == trace_id) {
        return;
      }
    }
    std::string given;
    for (const auto& schema : given_) {
      given += (given.empty() ? "" : "; ") + schema->source() + " (schema " + trace_id_hex(schema->trace_id()) + ")";
    }
    identity_problem_ = written + ", but --schema gave " + given + "; decoding with it anyway";
    return;
  }
  for (Candidate& c : candidates_) {
    if (!c.schema && !c.unreadable) {
      try {
        c.schema = read_descriptor_file(c.path);
      } catch (const SchemaLoadError& e) {
        c.unreadable = true;
        notes_.push_back(std::string{"search path: skipped "} + e.what());
        continue;
      }
    }
    if (c.schema && c.schema->trace_id() == trace_id) {
      activate(*c.schema, true);
      active_.push_back(c.schema);
      notes_.push_back("the trace's " + schema_text(trace_id, user_groups) + " matches " + c.path);
      return;
    }
  }
  identity_problem_ = written + "; pass --schema with its descriptor" +
                      (search_description_.empty() ? std::string{} : " (none matches on the search path: " +
                                                                        search_description_ + ")");
}

void SchemaSet::count_unknown(std::uint8_t id, const std::string& input, std::uint64_t offset) {
  if (unknown_counts_[id]++ == 0) {
    unknown_first_[id] = input + " byte " + std::to_string(offset);
    unknown_first_offset_[id] = offset;
  }
}

void SchemaSet::reset_trace() {
  notes_.clear();
  trace_id_.reset();
  trace_groups_.clear();
  identity_problem_.reset();
  unknown_counts_.fill(0);
  if (active_ != given_) {
    table_.fill(nullptr);
    active_.clear();
    active_count_ = 0;
    for (const auto& schema : given_) {
      activate(*schema, false);
      active_.push_back(schema);
    }
  }
}

std::vector<SchemaSet::UnknownId> SchemaSet::unknown_ids() const {
  std::vector<UnknownId> out;
  for (std::size_t id = 0; id < unknown_counts_.size(); ++id) {
    if (unknown_counts_[id] != 0) {
      out.push_back(
          {static_cast<std::uint8_t>(id), unknown_counts_[id], unknown_first_[id], unknown_first_offset_[id]});
    }
  }
  return out;
}

std::string SchemaSet::hint() const {
  if (identity_problem_) {
    return "";  // said once, in the identity problem
  }
  if (trace_id_) {
    return "; the trace's " + schema_text(*trace_id_, trace_groups_) + " does not define it";
  }
  if (active_.empty()) {
    return "; the trace does not name its schema (no schema_id): pass --schema with the firmware's descriptor";
  }
  return "; no schema in use defines it";
}

std::optional<std::string> SchemaSet::unknown_ids_message() const {
  const std::vector<UnknownId> unknown = unknown_ids();
  if (unknown.empty()) {
    return std::nullopt;
  }
  std::uint64_t frames = 0;
  std::string ids;
  const UnknownId* first = &unknown.front();
  for (const UnknownId& u : unknown) {
    frames += u.frames;
    ids += (ids.empty() ? "" : ", ") + hex_id(u.id) + " (" + std::to_string(u.frames) + ")";
    if (u.first_offset < first->first_offset) {
      first = &u;
    }
  }
  return std::to_string(frames) + " frame(s) with unknown event id" + (unknown.size() > 1 ? "s " : " ") + ids +
         "; the first at " + first->first + hint();
}

std::vector<std::string> SchemaSet::active_sources() const {
  std::vector<std::string> out;
  for (const auto& schema : active_) {
    out.push_back(schema->source());
  }
  return out;
}

}  // namespace tband
