#include "schema/runtime_schema.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "schema/located_json.hpp"

namespace tband {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "tband-schema-descriptor";
constexpr int kVersion = 1;

struct ScalarName {
  std::string_view name;
  FieldType type;
};
constexpr ScalarName kScalars[] = {
    {"u8", FieldType::kU8},   {"u16", FieldType::kU16}, {"u32", FieldType::kU32},   {"u64", FieldType::kU64},
    {"s8", FieldType::kS8},   {"s16", FieldType::kS16}, {"s32", FieldType::kS32},   {"s64", FieldType::kS64},
    {"bool", FieldType::kBool}, {"f32", FieldType::kF32}, {"f64", FieldType::kF64}, {"str", FieldType::kStr},
};

std::string hex_id(std::uint64_t id) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", static_cast<unsigned>(id));
  return text;
}

// Descriptors nest five levels deep; the limit keeps a hostile one from
// costing stack in nlohmann's recursive walks (dump(), destruction).
constexpr std::size_t kMaxDepth = 64;

/// Reads values of a descriptor; throws with the descriptor's name and the
/// place of the value at fault in front.
class Reader {
 public:
  Reader(std::string source, const LocatedJson& doc) : source_(std::move(source)), doc_(doc) {}

  [[noreturn]] void fail(const json& at, const std::string& what) const {
    throw SchemaLoadError(source_ + ":" + doc_.place(at) + ": " + what);
  }

  const json& member(const json& object, const char* key, const std::string& what) const {
    if (!object.is_object()) {
      fail(object, what + " must be an object");
    }
    const auto it = object.find(key);
    if (it == object.end()) {
      fail(object, what + " has no \"" + key + "\"");
    }
    return *it;
  }
  std::string string(const json& object, const char* key, const std::string& what) const {
    const json& value = member(object, key, what);
    if (!value.is_string()) {
      fail(value, what + ": \"" + key + "\" must be a string, not " + quote(value));
    }
    return value.get<std::string>();
  }
  /// An optional string member, `fallback` when absent.
  std::string string_or(const json& object, const char* key, const std::string& what,
                        const std::string& fallback) const {
    return object.contains(key) ? string(object, key, what) : fallback;
  }
  const json& array(const json& object, const char* key, const std::string& what) const {
    const json& value = member(object, key, what);
    if (!value.is_array()) {
      fail(value, what + ": \"" + key + "\" must be an array, not " + quote(value));
    }
    return value;
  }
  bool flag(const json& object, const char* key, const std::string& what) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      return false;
    }
    if (!it->is_boolean()) {
      fail(*it, what + ": \"" + key + "\" must be true or false, not " + quote(*it));
    }
    return it->get<bool>();
  }

  /// A value as a message shows it, cut short: it may be huge.
  static std::string quote(const json& value) { return clip(value.dump()); }

 private:
  std::string source_;
  const LocatedJson& doc_;
};

FieldDefault parse_default(const Reader& r, const json& value, const FieldInfo& field, const std::string& what) {
  FieldDefault d;
  d.present = true;
  const ValueKind kind = value_kind(field.type);
  if (kind == ValueKind::kEnum) {
    if (value.is_string()) {
      for (const EnumValueInfo& v : field.enum_info->values) {
        if (v.name == value.get<std::string>()) {
          d.u = v.value;
          return d;
        }
      }
    }
    r.fail(value, what + ": default " + Reader::quote(value) + " is not a value of enum '" +
                      std::string{field.enum_info->name} + "'");
  }
  if (kind == ValueKind::kBool) {
    if (!value.is_boolean()) {
      r.fail(value, what + ": default of a bool field must be true or false");
    }
    d.u = value.get<bool>() ? 1 : 0;
    return d;
  }
  if (kind == ValueKind::kFloat) {
    if (value.is_number()) {
      d.f = value.get<double>();
    } else if (value == "inf") {
      d.f = std::numeric_limits<double>::infinity();
    } else if (value == "-inf") {
      d.f = -std::numeric_limits<double>::infinity();
    } else if (value == "nan") {
      d.f = std::numeric_limits<double>::quiet_NaN();
    } else {
      r.fail(value, what + ": default of a float field must be a number, \"inf\", \"-inf\" or \"nan\"");
    }
    return d;
  }
  // An integer default must fit its field's type: read as it is, a larger
  // one would wrap (an s64 default above INT64_MAX became negative).
  const auto out_of_range = [&](const std::string& range) {
    r.fail(value, what + ": default " + Reader::quote(value) + " is out of range for " +
                      std::string{to_string(field.type)} + " (" + range + ")");
  };
  const unsigned bits = field.type == FieldType::kU8 || field.type == FieldType::kS8     ? 8
                        : field.type == FieldType::kU16 || field.type == FieldType::kS16 ? 16
                        : field.type == FieldType::kU32 || field.type == FieldType::kS32 ? 32
                                                                                         : 64;
  if (kind == ValueKind::kSigned) {
    if (!value.is_number_integer()) {
      r.fail(value, what + ": default must be an integer");
    }
    const std::int64_t max = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
    const std::int64_t min = -max - 1;
    if ((value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) ||
        (!value.is_number_unsigned() && (value.get<std::int64_t>() < min || value.get<std::int64_t>() > max))) {
      out_of_range(std::to_string(min) + " to " + std::to_string(max));
    }
    d.s = value.get<std::int64_t>();
    return d;
  }
  if (kind == ValueKind::kUnsigned) {
    if (!value.is_number_unsigned()) {
      r.fail(value, what + ": default must be a non-negative integer");
    }
    const std::uint64_t max = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    if (value.get<std::uint64_t>() > max) {
      out_of_range("0 to " + std::to_string(max));
    }
    d.u = value.get<std::uint64_t>();
    return d;
  }
  r.fail(value, what + ": a str field has no default");
}

/// Parses "{field}" references; "{{" and "}}" are braces.
NameTemplate parse_template(const Reader& r, const json& at, std::span<const FieldInfo> fields,
                            const std::string& what) {
  if (!at.is_string()) {
    r.fail(at, what + " must be a string, not " + Reader::quote(at));
  }
  const std::string text = at.get<std::string>();
  NameTemplate t;
  t.source = text;
  std::string literal;
  const auto flush = [&] {
    if (!literal.empty()) {
      t.parts.push_back({std::move(literal), -1});
      literal.clear();
    }
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      literal.push_back(c);
      ++i;
    } else if (c == '{') {
      const std::size_t end = text.find('}', i + 1);
      if (end == std::string::npos) {
        r.fail(at, what + " \"" + clip(text) + "\": '{' at column " + std::to_string(i + 1) + " is never closed");
      }
      const std::string name = text.substr(i + 1, end - i - 1);
      int index = -1;
      for (std::size_t f = 0; f < fields.size(); ++f) {
        if (!fields[f].implicit && fields[f].name == name) {
          index = static_cast<int>(f);
        }
      }
      if (index < 0) {
        r.fail(at, what + " \"" + clip(text) + "\": '{" + clip(name) + "}' is not a field of the event");
      }
      flush();
      t.parts.push_back({{}, index});
      i = end;
    } else if (c == '}') {
      r.fail(at, what + " \"" + clip(text) + "\": '}' at column " + std::to_string(i + 1) + " closes nothing");
    } else {
      literal.push_back(c);
    }
  }
  flush();
  return t;
}

int field_index(const Reader& r, std::span<const FieldInfo> fields, const json& name, const std::string& what) {
  if (name.is_string()) {
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (!fields[f].implicit && fields[f].name == name.get<std::string>()) {
        return static_cast<int>(f);
      }
    }
  }
  r.fail(name, what + ": " + Reader::quote(name) + " is not a field of the event");
}

}  // namespace

std::string trace_id_hex(std::uint64_t id) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(id));
  return text;
}

std::string_view RuntimeSchema::keep(std::string text) { return strings_.emplace_back(std::move(text)); }

RuntimeSchema RuntimeSchema::from_descriptor(std::string_view json_text, std::string source) {
  try {
    return parse(json_text, source);
  } catch (const json::exception& e) {
    // A value of the wrong JSON type where the checks above did not look.
    throw SchemaLoadError(source + ": malformed descriptor: " + e.what());
  }
}

RuntimeSchema RuntimeSchema::parse(std::string_view json_text, std::string source) {
  RuntimeSchema s;
  s.source_ = source;
  std::optional<LocatedJson> located;
  try {
    located.emplace(json_text, kMaxDepth);
  } catch (const JsonInputError& e) {
    const std::string hint = e.what() == std::string_view{"not valid JSON"} ? " (is it a tband schema descriptor?)" : "";
    throw SchemaLoadError(source + ":" + line_col(json_text, e.offset()) + ": " + e.what() + hint);
  }
  const json& doc = located->root();
  const Reader r{source, *located};
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kFormat) {
    r.fail(doc.is_object() && doc.contains("format") ? doc["format"] : doc,
           "not a tband schema descriptor (no \"format\": \"tband-schema-descriptor\"); the generator writes "
           "one as descriptor/tband_schema.json");
  }
  if (!doc.contains("version") || doc["version"] != kVersion) {
    r.fail(doc.contains("version") ? doc["version"] : doc,
           "descriptor version " + (doc.contains("version") ? Reader::quote(doc["version"]) : std::string{"(none)"}) +
           " is not the one this tband reads (" + std::to_string(kVersion) + "); regenerate it with this tband's "
           "tband-codegen");
  }
  const std::string trace_id = r.string(doc, "trace_id", "the descriptor");
  try {
    std::size_t used = 0;
    s.trace_id_ = std::stoull(trace_id, &used, 16);
    if (used != trace_id.size() || trace_id.size() != 16) {
      throw std::invalid_argument(trace_id);
    }
  } catch (const std::exception&) {
    r.fail(doc["trace_id"], "\"trace_id\" must be 16 hex digits, not \"" + clip(trace_id) + "\"");
  }
  for (const json& g : r.array(doc, "user_groups", "the descriptor")) {
    if (!g.is_string()) {
      r.fail(g, "\"user_groups\" must list names");
    }
    s.user_groups_.push_back(g.get<std::string>());
  }

  std::map<std::string, const EnumInfo*, std::less<>> enums;
  for (const json& e : r.array(doc, "enums", "the descriptor")) {
    const std::string name = r.string(e, "name", "an enum");
    const std::string what = "enum '" + clip(name) + "'";
    auto& values = s.enum_values_.emplace_back();
    for (const json& v : r.array(e, "values", what)) {
      const json& number = r.member(v, "value", what + " value");
      if (!number.is_number_unsigned() || number.get<std::uint64_t>() > 255) {
        r.fail(number, what + ": values must be 0..255");
      }
      values.push_back({static_cast<std::uint8_t>(number.get<std::uint64_t>()),
                        s.keep(r.string(v, "name", what + " value")), s.keep(r.string_or(v, "description", what + " value", {}))});
    }
    const EnumInfo& info =
        s.enums_.emplace_back(EnumInfo{s.keep(name), s.keep(r.string_or(e, "description", what, {})), values});
    enums[name] = &info;
  }

  std::map<std::string, int, std::less<>> spans;
  std::vector<const json*> display_json;  // each event's display rule, for messages about spans
  for (const json& e : r.array(doc, "events", "the descriptor")) {
    const std::string name = r.string(e, "name", "an event");
    const json& id_json = r.member(e, "id", "event '" + clip(name) + "'");
    if (!id_json.is_number_unsigned() || id_json.get<std::uint64_t>() > 255) {
      r.fail(id_json, "event '" + clip(name) + "': id must be 0..255");
    }
    const auto id = static_cast<std::uint8_t>(id_json.get<std::uint64_t>());
    const std::string what = "event '" + clip(name) + "' (" + hex_id(id) + ")";
    if (s.by_id_[id] >= 0) {
      const RuntimeEvent& other = s.events_[static_cast<std::size_t>(s.by_id_[id])];
      r.fail(id_json, what + ": id already used by event '" + std::string{other.info.name} + "'");
    }
    const bool metadata = r.flag(e, "metadata", what);
    auto& fields = s.fields_.emplace_back();
    const json& field_list = r.array(e, "fields", what);
    for (std::size_t i = 0; i < field_list.size(); ++i) {
      const json& f = field_list[i];
      const std::string field_name = r.string(f, "name", what + " field");
      const std::string field_what = what + " field '" + clip(field_name) + "'";
      const std::string type = r.string(f, "type", field_what);
      FieldInfo info{s.keep(field_name), FieldType::kU8, nullptr, r.flag(f, "optional", field_what),
                     r.flag(f, "implicit", field_what), s.keep(r.string_or(f, "description", field_what, {})), {}};
      bool known = false;
      for (const ScalarName& scalar : kScalars) {
        if (scalar.name == type) {
          info.type = scalar.type;
          known = true;
        }
      }
      if (!known) {
        const auto it = enums.find(type);
        if (it == enums.end()) {
          r.fail(f["type"], field_what + ": unknown type '" + clip(type) + "'");
        }
        info.type = FieldType::kEnum;
        info.enum_info = it->second;
      }
      if (info.implicit && (i != 0 || metadata || info.type != FieldType::kU64)) {
        r.fail(f, field_what + ": only a non-metadata event's first field, a u64, is the implicit timestamp");
      }
      if (!metadata && i == 0 && !info.implicit) {
        r.fail(f, what + ": an event that is not metadata starts with the implicit timestamp field");
      }
      if (info.type == FieldType::kStr && i + 1 != field_list.size()) {
        r.fail(f, field_what + ": a str field must be the last field");
      }
      if (!info.optional && i > 0 && fields.back().optional) {
        r.fail(f, field_what + ": a required field after an optional one");
      }
      if (f.contains("default")) {
        if (!info.optional) {
          r.fail(f["default"], field_what + ": only an optional field has a default");
        }
        info.default_value = parse_default(r, f["default"], info, field_what);
      }
      fields.push_back(info);
    }
    if (!metadata && fields.empty()) {
      r.fail(field_list, what + ": an event that is not metadata starts with the implicit timestamp field");
    }
    RuntimeEvent event{EventInfo{id, s.keep(name), s.keep(r.string_or(e, "group", what, {})), metadata, fields,
                                 s.keep(r.string_or(e, "description", what, {}))},
                       {},
                       false};
    if (const auto it = e.find("display"); it != e.end()) {
      const json& d = *it;
      const std::string dwhat = what + " display";
      if (!d.is_object()) {
        r.fail(d, dwhat + " must be an object");
      }
      event.has_display = true;
      DisplayRule& rule = event.display;
      const std::string kind = r.string_or(d, "kind", dwhat, "instant");
      if (kind == "instant") {
        rule.kind = DisplayKind::kInstant;
      } else if (kind == "span_begin") {
        rule.kind = DisplayKind::kSpanBegin;
      } else if (kind == "span_end") {
        rule.kind = DisplayKind::kSpanEnd;
      } else if (kind == "counter") {
        rule.kind = DisplayKind::kCounter;
      } else if (kind == "name") {
        rule.kind = DisplayKind::kName;
      } else {
        r.fail(d["kind"], dwhat + ": unknown kind '" + clip(kind) + "'");
      }
      if (metadata && rule.kind != DisplayKind::kInstant && rule.kind != DisplayKind::kName) {
        r.fail(d["kind"], dwhat + ": a metadata event can only be an instant or a name");
      }
      if (!metadata && rule.kind == DisplayKind::kName) {
        r.fail(d["kind"], dwhat + ": a name rule belongs on a metadata event");
      }
      if (d.contains("track")) {
        rule.track = parse_template(r, d["track"], fields, dwhat + ": track");
      }
      if (d.contains("name")) {
        rule.name = parse_template(r, d["name"], fields, dwhat + ": name");
      }
      const std::string under = r.string_or(d, "under", dwhat, {});
      if (under.empty()) {
        // With a track of its own, an event goes at the top level; without, on its core's "Other events".
        rule.place = rule.track || rule.kind == DisplayKind::kCounter ? DisplayPlace::kGlobal : DisplayPlace::kCore;
      } else if (under == "global") {
        rule.place = DisplayPlace::kGlobal;
      } else if (under == "core") {
        rule.place = DisplayPlace::kCore;
      } else if (under == "task") {
        rule.place = DisplayPlace::kTask;
      } else {
        r.fail(d["under"], dwhat + ": under '" + clip(under) + "' is not one of global, core, task");
      }
      if (rule.kind == DisplayKind::kCounter) {
        const json& value_json = r.member(d, "value", dwhat);
        rule.value_field = field_index(r, fields, value_json, dwhat + ": value");
        const ValueKind value = value_kind(fields[static_cast<std::size_t>(rule.value_field)].type);
        if (value == ValueKind::kStr || value == ValueKind::kEnum) {
          r.fail(value_json, dwhat + ": a counter plots a number, not a " +
                 std::string{to_string(fields[static_cast<std::size_t>(rule.value_field)].type)} + " field");
        }
        rule.unit = r.string_or(d, "unit", dwhat, {});
      }
      if (rule.kind == DisplayKind::kName) {
        const json& key = r.member(d, "key", dwhat);
        if (!key.is_array() || key.size() != 1) {
          r.fail(key, dwhat + ": a name rule's key must be an array of one field name");
        }
        const int field = field_index(r, fields, key[0], dwhat + ": key");
        if (fields[static_cast<std::size_t>(field)].optional ||
            value_kind(fields[static_cast<std::size_t>(field)].type) == ValueKind::kFloat) {
          r.fail(key[0], dwhat + ": key " + Reader::quote(key[0]) + " must be a required field, not a float");
        }
        rule.key_fields.push_back(field);
        if (!rule.name) {
          r.fail(d, dwhat + ": a name rule needs \"name\", the label");
        }
      }
      if (rule.kind == DisplayKind::kSpanBegin || rule.kind == DisplayKind::kSpanEnd) {
        const std::string span = r.string(d, "span", dwhat);
        const auto [found, added] = spans.emplace(span, static_cast<int>(s.span_names_.size()));
        if (added) {
          s.span_names_.push_back(span);
        }
        rule.span = found->second;
        rule.span_name = span;
        if (d.contains("key")) {
          if (!d["key"].is_array()) {
            r.fail(d["key"], dwhat + ": key must be an array of field names");
          }
          for (const json& k : d["key"]) {
            rule.key_fields.push_back(field_index(r, fields, k, dwhat + ": key"));
          }
        }
      }
    }
    display_json.push_back(e.contains("display") ? &e["display"] : &e);
    s.by_id_[id] = static_cast<int>(s.events_.size());
    s.events_.push_back(std::move(event));
  }
  // A span's begin and end events must agree on their key fields' names and types.
  for (std::size_t span = 0; span < s.span_names_.size(); ++span) {
    const RuntimeEvent* first = nullptr;
    bool begins = false, ends = false;
    const json* first_display = nullptr;
    for (std::size_t index = 0; index < s.events_.size(); ++index) {
      const RuntimeEvent& e = s.events_[index];
      if (e.display.span != static_cast<int>(span)) {
        continue;
      }
      begins |= e.display.kind == DisplayKind::kSpanBegin;
      ends |= e.display.kind == DisplayKind::kSpanEnd;
      if (first == nullptr) {
        first = &e;
        first_display = display_json[index];
        continue;
      }
      bool same = e.display.key_fields.size() == first->display.key_fields.size();
      for (std::size_t k = 0; same && k < e.display.key_fields.size(); ++k) {
        const FieldInfo& a = e.info.fields[static_cast<std::size_t>(e.display.key_fields[k])];
        const FieldInfo& b = first->info.fields[static_cast<std::size_t>(first->display.key_fields[k])];
        same = a.name == b.name && a.type == b.type && a.enum_info == b.enum_info;
      }
      if (!same) {
        r.fail(*display_json[index], "event '" + clip(e.info.name) + "' display: its key differs from that of event '" +
                                         clip(first->info.name) + "' for span '" + clip(s.span_names_[span]) + "'");
      }
    }
    if (!begins || !ends) {
      r.fail(*first_display, "span '" + clip(s.span_names_[span]) + "' has no " + (begins ? "span_end" : "span_begin") + " event");
    }
  }
  return s;
}

}  // namespace tband
