// Malformed input is reported as a value: what went wrong, in which event and
// field, and where. Decoding never throws and never stops at a bad frame.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace tband {

enum class DecodeErrorKind : std::uint8_t {
  kBadCobs,           // a COBS block promised more bytes than the frame holds
  kEmptyFrame,        // a frame with no content (two delimiters in a row, or "01 00")
  kFrameTooLong,      // more bytes than the deframer's limit before a delimiter
  kTruncatedFrame,    // the stream ended in the middle of a frame
  kUnknownEventId,    // no event in the schema has this id
  kMissingField,      // the frame ended before a required field
  kTruncatedField,    // the frame ended inside a varlen field
  kVarlenTooLong,     // a varlen field with more bytes than its type allows
  kVarlenOverflow,    // a varlen field whose value does not fit its type
  kTrailingBytes,     // bytes left after the last field
  kInvalidEnumValue,  // an enum field holding a value the enum does not define
  kInvalidBoolValue,  // a bool field holding a byte other than 0 or 1
  kValueOutOfRange,   // an s16 or s32 field whose magnitude the type cannot hold
  // Link integrity (decode/link_check.hpp): link_core says whose frames.
  kLinkLost,     // value frames missing from the core's sequence (lost on the link)
  kLinkCorrupt,  // a frame whose CRC failed or that did not deframe: discarded
  kLinkStale,    // value = the frame's sequence number, behind the core's: a duplicate or late frame, discarded
  // Compact timestamps (decode/compact_ts.hpp): link_core says whose frames.
  kTimestampUnknown,  // a time relative to an absolute timestamp the host did not get: the event is left out
};

[[nodiscard]] std::string_view to_string(DecodeErrorKind kind) noexcept;

struct DecodeError {
  DecodeErrorKind kind;
  bool has_event_id = false;
  std::uint8_t event_id = 0;
  std::int16_t field_index = -1;  // index into the event's EventInfo::fields, -1 if none
  std::uint32_t offset = 0;       // byte offset inside the decoded frame content
  std::uint64_t value = 0;        // the offending value: enum value, byte count, code byte...
  std::uint32_t link_core = 0;    // link errors: the core whose sequence the frame belongs to

  bool operator==(const DecodeError&) const = default;
};

struct EventInfo;

/// One line that says what is wrong, naming the event and field when known.
[[nodiscard]] std::string describe(const DecodeError& error);
/// The same, naming the event and field from `info` (the event of
/// error.event_id, e.g. from a schema loaded at run time; nullptr: unknown).
[[nodiscard]] std::string describe(const DecodeError& error, const EventInfo* info);

/// Either a decoded value or the error that prevented it.
template <class T>
class Decoded {
 public:
  Decoded(const T& value) noexcept : result_(value) {}               // NOLINT(google-explicit-constructor)
  Decoded(const DecodeError& error) noexcept : result_(error) {}     // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const noexcept { return result_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const T& value() const noexcept { return *std::get_if<0>(&result_); }
  [[nodiscard]] const DecodeError& error() const noexcept { return *std::get_if<1>(&result_); }

  /// Makes this hold T's alternative A, value-initialised, and returns it:
  /// for a decoder that fills the event in place (T is a variant).
  template <class A>
  A& emplace_value() noexcept {
    // From an A, not in_place_type<A>: that constructor is noexcept, so the
    // variant is built in place instead of through a temporary.
    return *std::get_if<A>(&result_.template emplace<0>(A{}));
  }

 private:
  std::variant<T, DecodeError> result_;
};

}  // namespace tband
