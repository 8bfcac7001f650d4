// Which run-time schema decodes the events a tband binary was not compiled
// with. Schemas the user gives (--schema) apply from the start; descriptors
// on the search path apply when the trace's schema_id names them. Events the
// binary knows always take the compiled decoder.
//
// Also keeps, per trace, what the trace said about its schema and the frames
// whose id no schema knows, so each is reported once with its count instead
// of once per frame.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schema/runtime_schema.hpp"

namespace tband {

/// The schema compiled into the binary.
struct CompiledSchema {
  std::span<const EventInfo> events;
  std::uint64_t trace_id = 0;
};

class SchemaSet {
 public:
  explicit SchemaSet(CompiledSchema compiled);

  /// A schema the user gave: its events apply from now on. Throws
  /// SchemaLoadError when one of its run-time events clashes with a schema
  /// given before (the same id, another event).
  void add_given(std::shared_ptr<const RuntimeSchema> schema);
  /// A descriptor file on the search path, read only if a schema_id needs it.
  void add_candidate(std::string path);
  /// How messages describe the search path ("TBAND_SCHEMA_PATH=..., next to the trace").
  void set_search_description(std::string text) { search_description_ = std::move(text); }

  /// The run-time event with this id, or nullptr (ids the binary knows never have one).
  [[nodiscard]] const RuntimeEvent* find(std::uint8_t id) const noexcept { return table_[id]; }
  [[nodiscard]] bool empty() const noexcept { return active_count_ == 0; }

  /// A schema_id from the trace, in stream order: picks the matching
  /// descriptor from the search path when no schema was given.
  void on_schema_id(std::uint64_t trace_id, std::string_view user_groups);
  /// A frame whose id neither the binary nor a schema knows, at `offset` of `input`.
  void count_unknown(std::uint8_t id, const std::string& input, std::uint64_t offset);
  /// Starts the next, unrelated trace: forgets its identity and counts, and
  /// goes back to the given schemas.
  void reset_trace();

  struct UnknownId {
    std::uint8_t id;
    std::uint64_t frames;
    std::string first;  // "trace.bin byte 34"
    std::uint64_t first_offset;
  };
  [[nodiscard]] std::vector<UnknownId> unknown_ids() const;
  /// All unknown ids in one line, with their counts and the first frame:
  /// "18 frame(s) with unknown event ids 0xC0 (1), 0xC7 (2), ...; the first at
  /// trace.bin byte 34", ending with what to pass. None if there were none.
  [[nodiscard]] std::optional<std::string> unknown_ids_message() const;
  /// What is wrong with the trace's schema identity (no matching descriptor,
  /// a given schema that differs, two identities), if anything.
  [[nodiscard]] const std::optional<std::string>& identity_problem() const noexcept { return identity_problem_; }
  /// Worth saying with -v: which descriptor the trace's schema_id picked, and
  /// descriptors on the search path that could not be read.
  [[nodiscard]] const std::vector<std::string>& notes() const noexcept { return notes_; }
  /// Worth saying always: schemas that define an id this binary knows as
  /// another event (the binary's decoding applies).
  [[nodiscard]] const std::vector<std::string>& conflicts() const noexcept { return conflicts_; }
  /// The schema the trace named: trace id and user groups, when it had a schema_id.
  [[nodiscard]] std::optional<std::uint64_t> trace_schema() const noexcept { return trace_id_; }
  [[nodiscard]] const std::string& trace_groups() const noexcept { return trace_groups_; }
  /// Sources of the schemas in use now.
  [[nodiscard]] std::vector<std::string> active_sources() const;

 private:
  struct Candidate {
    std::string path;
    std::shared_ptr<const RuntimeSchema> schema;  // once read
    bool unreadable = false;
  };

  void activate(const RuntimeSchema& schema, bool replace);
  [[nodiscard]] std::string schema_text(std::uint64_t id, std::string_view groups) const;
  [[nodiscard]] std::string hint() const;

  CompiledSchema compiled_;
  std::array<const EventInfo*, 256> compiled_by_id_{};
  std::array<const RuntimeEvent*, 256> table_{};
  std::size_t active_count_ = 0;
  std::vector<std::shared_ptr<const RuntimeSchema>> given_;
  std::vector<std::shared_ptr<const RuntimeSchema>> active_;
  std::vector<Candidate> candidates_;
  std::string search_description_;
  std::optional<std::uint64_t> trace_id_;
  std::string trace_groups_;
  std::optional<std::string> identity_problem_;
  std::vector<std::string> notes_;
  std::vector<std::string> conflicts_;
  std::array<std::uint64_t, 256> unknown_counts_{};
  std::array<std::string, 256> unknown_first_;
  std::array<std::uint64_t, 256> unknown_first_offset_{};
};

/// Whether two events decode alike: the same id, name, metadata flag, and
/// field names, types, enums and optionality in the same order.
[[nodiscard]] bool same_wire_layout(const EventInfo& a, const EventInfo& b) noexcept;

}  // namespace tband
