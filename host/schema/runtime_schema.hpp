// A schema loaded at run time from its descriptor (the JSON the generator
// writes as descriptor/tband_schema.json): every event's reflection entry, in
// the same types the generated tables use (EventInfo, FieldInfo, EnumInfo),
// so printing and serialising work alike for both, plus each event's display
// rule (schema/README.md, "Display rules").
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "decode/schema_info.hpp"

namespace tband {

/// A descriptor that cannot be used; the message names the file and the
/// event or field.
class SchemaLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "motor {motor_id}": literal text and field references, in order.
struct NameTemplate {
  struct Part {
    std::string text;    // literal text, when field < 0
    int field = -1;      // index into the event's fields
  };
  std::vector<Part> parts;
  std::string source;  // as written

  [[nodiscard]] bool has_fields() const noexcept {
    for (const Part& p : parts) {
      if (p.field >= 0) {
        return true;
      }
    }
    return false;
  }
};

/// kName: a metadata event that labels values of its key field (one) in the
/// track and name templates of other rules.
enum class DisplayKind : std::uint8_t { kInstant, kSpanBegin, kSpanEnd, kCounter, kName };
enum class DisplayPlace : std::uint8_t { kGlobal, kCore, kTask };

/// How an event shows in Perfetto and JSON (the schema's `display` mapping,
/// with the defaults of schema/README.md applied).
struct DisplayRule {
  DisplayKind kind = DisplayKind::kInstant;
  /// Track name; none: the core's (or task's) "Other events" track, or for a
  /// counter the event's name.
  std::optional<NameTemplate> track;
  DisplayPlace place = DisplayPlace::kCore;
  std::optional<NameTemplate> name;  // slice or instant name (name rule: the label); none: the event's (or span's)
  int value_field = -1;              // counter: the field plotted
  std::string unit;                  // counter: shown after the track name
  int span = -1;                     // span_begin/span_end: index into RuntimeSchema::span_names()
  std::string span_name;             // and its name
  std::vector<int> key_fields;       // span_begin/span_end: fields that tell spans apart; name: the field named
};

struct RuntimeEvent {
  EventInfo info;
  DisplayRule display;
  bool has_display = false;  // the schema gave a rule (else the defaults: an instant on "Other events")
};

class RuntimeSchema {
 public:
  /// Parses a descriptor. `source` names it in messages. Throws SchemaLoadError.
  static RuntimeSchema from_descriptor(std::string_view json_text, std::string source);

  RuntimeSchema(RuntimeSchema&&) = default;  // containers keep their elements' addresses
  RuntimeSchema& operator=(RuntimeSchema&&) = default;
  RuntimeSchema(const RuntimeSchema&) = delete;
  RuntimeSchema& operator=(const RuntimeSchema&) = delete;

  [[nodiscard]] std::span<const RuntimeEvent> events() const noexcept { return events_; }
  /// The event with this id, or nullptr.
  [[nodiscard]] const RuntimeEvent* find(std::uint8_t id) const noexcept {
    return by_id_[id] < 0 ? nullptr : &events_[static_cast<std::size_t>(by_id_[id])];
  }
  /// What a trace's schema_id carries for this schema.
  [[nodiscard]] std::uint64_t trace_id() const noexcept { return trace_id_; }
  [[nodiscard]] const std::vector<std::string>& user_groups() const noexcept { return user_groups_; }
  [[nodiscard]] const std::string& source() const noexcept { return source_; }
  [[nodiscard]] const std::vector<std::string>& span_names() const noexcept { return span_names_; }

 private:
  RuntimeSchema() = default;
  static RuntimeSchema parse(std::string_view json_text, std::string source);

  std::string_view keep(std::string text);

  std::string source_;
  std::uint64_t trace_id_ = 0;
  std::vector<std::string> user_groups_;
  std::vector<std::string> span_names_;
  std::deque<std::string> strings_;                   // every name and description the infos view
  std::deque<std::vector<EnumValueInfo>> enum_values_;
  std::deque<EnumInfo> enums_;
  std::deque<std::vector<FieldInfo>> fields_;
  std::vector<RuntimeEvent> events_;
  std::vector<int> by_id_ = std::vector<int>(256, -1);
};

/// The hex text of a trace id as descriptors and messages write it (16 digits).
[[nodiscard]] std::string trace_id_hex(std::uint64_t id);

}  // namespace tband
