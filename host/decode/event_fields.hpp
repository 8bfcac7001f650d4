// Generic access to any event's fields, for tools that print or serialise
// events without a case per event type.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>

#include "decode/field_value.hpp"
#include "decode/schema_info.hpp"
#include "tband_events.hpp"

namespace tband {

namespace detail {

template <class T>
void store_field_value(FieldValue& out, const T& value) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    out.str = value;
  } else if constexpr (std::is_floating_point_v<T>) {
    out.f = value;
  } else if constexpr (std::is_enum_v<T>) {
    out.u = static_cast<std::uint64_t>(value);
  } else if constexpr (std::is_signed_v<T>) {
    out.s = value;
  } else {
    static_assert(std::is_unsigned_v<T>, "unexpected field type");  // bool is unsigned
    out.u = value;
  }
}

/// An optional field: present, or absent with its default (if it has one)
/// in the value members.
template <class T>
void store_field_value(FieldValue& out, const std::optional<T>& value) {
  out.present = value.has_value();
  if (value) {
    store_field_value(out, *value);
  } else {
    out.u = out.info->default_value.u;
    out.s = out.info->default_value.s;
    out.f = out.info->default_value.f;
  }
}

}  // namespace detail

/// Calls f(const FieldValue&) for every field of the event, in wire order.
template <class F>
void visit_fields(const Event& event, F&& f) {
  std::visit(
      [&](const auto& e) {
        const EventInfo& info = e.info();
        e.for_each_field([&](std::size_t index, const auto& value) {
          FieldValue field;
          field.info = &info.fields[index];
          detail::store_field_value(field, value);
          f(static_cast<const FieldValue&>(field));
        });
      },
      event);
}

}  // namespace tband
