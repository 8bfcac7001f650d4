// Events whose strings are not valid UTF-8, made showable: a copy of the
// event whose string fields view escaped text (escape_invalid_utf8()), for
// the interpreter, so that every output (Perfetto, JSON, stats) gets text it
// can hold while still saying what each byte was.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "decode/utf8_text.hpp"
#include "schema/runtime_decoder.hpp"
#include "tband_events.hpp"

namespace tband {

namespace detail {

template <class T>
inline constexpr bool kIsStringField =
    std::is_same_v<T, std::string_view> || std::is_same_v<T, std::optional<std::string_view>>;

inline const std::string_view* string_of(const std::string_view& s) { return &s; }
inline const std::string_view* string_of(const std::optional<std::string_view>& s) { return s ? &*s : nullptr; }

/// Calls f(name of the field, its string) for each string field of the event
/// that is not valid UTF-8. Events without string fields compile to nothing.
template <class E, class F>
void each_invalid_string(const E& e, F&& f) {
  e.for_each_field([&](std::size_t index, const auto& value) {
    if constexpr (kIsStringField<std::decay_t<decltype(value)>>) {
      if (const std::string_view* s = string_of(value); s != nullptr && !is_valid_utf8(*s)) {
        f(e.info().fields[index].name, *s);
      }
    }
  });
}

}  // namespace detail

/// The first string field of the event that is not valid UTF-8 (its name), if any.
[[nodiscard]] inline std::optional<std::string_view> first_invalid_utf8_field(const Event& event) {
  std::optional<std::string_view> found;
  std::visit([&](const auto& e) {
    detail::each_invalid_string(e, [&](std::string_view name, std::string_view) {
      if (!found) {
        found = name;
      }
    });
  }, event);
  return found;
}

[[nodiscard]] inline std::optional<std::string_view> first_invalid_utf8_field(const DynamicEvent& event) {
  if (!event.has_str) {
    return std::nullopt;
  }
  for (const FieldValue& field : event.fields) {
    if (field.present && value_kind(field.info->type) == ValueKind::kStr && !is_valid_utf8(field.str)) {
      return field.info->name;
    }
  }
  return std::nullopt;
}

/// A copy of the event whose invalid strings view their escaped text, kept in
/// `storage` (which must outlive the copy).
[[nodiscard]] inline Event with_escaped_strings(const Event& event, std::deque<std::string>& storage) {
  Event copy = event;
  std::visit([&](auto& e) {
    detail::each_invalid_string(e, [&](std::string_view, const std::string_view& s) {
      storage.push_back(escape_invalid_utf8(s));
      // for_each_field hands out const references; the member is the copy's own.
      const_cast<std::string_view&>(s) = storage.back();
    });
  }, copy);
  return copy;
}

[[nodiscard]] inline DynamicEvent with_escaped_strings(const DynamicEvent& event, std::deque<std::string>& storage) {
  DynamicEvent copy = event;
  for (FieldValue& field : copy.fields) {
    if (field.present && value_kind(field.info->type) == ValueKind::kStr && !is_valid_utf8(field.str)) {
      field.str = storage.emplace_back(escape_invalid_utf8(field.str));
    }
  }
  return copy;
}

}  // namespace tband
