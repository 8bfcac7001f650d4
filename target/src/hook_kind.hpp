// What a hook hands the shared hook body about its event: the "kind", one
// 32-bit constant per hook. Its low bits are the generated event's compact
// spec (enc::<Event>::kSpec: id and field widths, read by encode_fields());
// the bits above those say where the hook's arguments go. Built-in hooks
// write kKind<enc::Event, kShape>: the shape names the argument layout, and
// it is checked at compile time against the generated event's fields, so a
// schema change that the hook does not follow fails to build.
#pragma once

#include "runtime.hpp"

namespace tband::rt::hook {

using Width = enc::FieldWidth;

// Flags, above the spec bits encode_fields() reads.
inline constexpr unsigned kFieldsFromShift = 26;
enum : std::uint32_t {
  kString = 1u << 25,  // a C string follows the integer fields (payload is the pointer)
  // Metadata (no timestamp): the fields begin at kValueSlot (the hook's value,
  // or a generated user hook's first field).
  kFromValue = 1u << kFieldsFromShift,
  kFromPayload = 2u << kFieldsFromShift,  // metadata: the one field is the 64-bit payload (kPayloadSlot)
  kSigned = 1u << 28,                     // the payload is an s64 field (valmarker's value)
  kCurrentTask = 1u << 29,                // FreeRTOS: the running task's id goes between value and the string
};
inline constexpr std::uint32_t kFieldsFrom = 3u << kFieldsFromShift;  // 0: from kTsSlot; else metadata
inline constexpr std::uint32_t kWidths = 0xFFFFu << 8;                // the spec's field widths
inline constexpr std::uint32_t kIdBits = 0xFFu;
static_assert(((kString | kFieldsFrom | kSigned | kCurrentTask) & ((enc::kStrLenGiven << 1) - 1)) == 0,
              "hook flags must lie above the spec bits encode_fields() reads");

/// The slot of the core's scratch (CoreFrames::fields) where the fields of a
/// kind begin: kTsSlot, or kValueSlot / kPayloadSlot for metadata.
constexpr std::size_t first_slot(std::uint32_t kind) noexcept { return (kind & kFieldsFrom) >> kFieldsFromShift; }

// The built-in hooks' shapes (spec widths and flags, no id). ts: the hook's
// timestamp; value: the first integer field; payload: the second integer
// field, or the string's address.
inline constexpr std::uint32_t kTsValue = enc::field_spec(Width::kU64, Width::kU32);
inline constexpr std::uint32_t kTsValueU32 = enc::field_spec(Width::kU64, Width::kU32, Width::kU32);
inline constexpr std::uint32_t kTsValueStr = kTsValue | kString;
inline constexpr std::uint32_t kTsValueS64 = enc::field_spec(Width::kU64, Width::kU32, Width::kU64) | kSigned;
inline constexpr std::uint32_t kMetaValue = enc::field_spec(Width::kU32) | kFromValue;
inline constexpr std::uint32_t kMetaValueU32 = enc::field_spec(Width::kU32, Width::kU32) | kFromValue;
inline constexpr std::uint32_t kMetaValueU8 = enc::field_spec(Width::kU32, Width::kU8) | kFromValue;
inline constexpr std::uint32_t kMetaValueStr = enc::field_spec(Width::kU32) | kFromValue | kString;
inline constexpr std::uint32_t kMetaValueTaskStr =
    enc::field_spec(Width::kU32, Width::kU32) | kFromValue | kString | kCurrentTask;
inline constexpr std::uint32_t kMetaU64 = enc::field_spec(Width::kU64) | kFromPayload;

/// Whether a shape describes Event as the generator wrote it: the same field
/// widths, metadata or not, a string or not.
template <class Event>
constexpr bool shape_fits(std::uint32_t shape) noexcept {
  return (shape & kIdBits) == 0 && (shape & kWidths) == (Event::kSpec & kWidths) &&
         ((shape & kFieldsFrom) != 0) == Event::kIsMetadata && ((shape & kString) != 0) == Event::kHasString;
}

template <class Event, std::uint32_t kShape>
constexpr std::uint32_t checked_kind() noexcept {
  static_assert(shape_fits<Event>(kShape),
                "tband: a built-in hook's shape does not match its generated event's fields (tband_encode.hpp)");
  return Event::kSpec | kShape;
}

/// A built-in hook's kind: Event's spec with kShape's flags, checked. A
/// variable, so that it is a constant even in an unoptimised build.
template <class Event, std::uint32_t kShape>
inline constexpr std::uint32_t kKind = checked_kind<Event, kShape>();

}  // namespace tband::rt::hook
