#include "decode/decode_error.hpp"

#include <cstdio>

#include "tband_events.hpp"

namespace tband {

std::string_view to_string(DecodeErrorKind kind) noexcept {
  switch (kind) {
    case DecodeErrorKind::kBadCobs: return "bad COBS";
    case DecodeErrorKind::kEmptyFrame: return "empty frame";
    case DecodeErrorKind::kFrameTooLong: return "frame too long";
    case DecodeErrorKind::kTruncatedFrame: return "truncated frame";
    case DecodeErrorKind::kUnknownEventId: return "unknown event id";
    case DecodeErrorKind::kMissingField: return "missing field";
    case DecodeErrorKind::kTruncatedField: return "truncated field";
    case DecodeErrorKind::kVarlenTooLong: return "varlen too long";
    case DecodeErrorKind::kVarlenOverflow: return "varlen overflow";
    case DecodeErrorKind::kTrailingBytes: return "trailing bytes";
    case DecodeErrorKind::kInvalidEnumValue: return "invalid enum value";
    case DecodeErrorKind::kInvalidBoolValue: return "invalid bool value";
    case DecodeErrorKind::kValueOutOfRange: return "value out of range";
    case DecodeErrorKind::kLinkLost: return "frames lost on the link";
    case DecodeErrorKind::kLinkCorrupt: return "corrupt frame";
    case DecodeErrorKind::kLinkStale: return "stale frame";
    case DecodeErrorKind::kTimestampUnknown: return "time unknown";
  }
  return "unknown error";
}

namespace {

std::string hex_byte(std::uint64_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", static_cast<unsigned>(value & 0xFFu));
  return text;
}

// "what went wrong" without the event and field context.
std::string detail(const DecodeError& e) {
  switch (e.kind) {
    case DecodeErrorKind::kBadCobs:
      return "COBS block (code " + hex_byte(e.value) + ") cut short by a 0x00 delimiter";
    case DecodeErrorKind::kEmptyFrame:  // the deframer reports empty frames in a row as one, value = how many
      return e.value > 1 ? std::to_string(e.value) + " empty frames in a row" : "empty frame";
    case DecodeErrorKind::kFrameTooLong:
      return "frame longer than " + std::to_string(e.value) + " bytes; skipped to the next delimiter";
    case DecodeErrorKind::kTruncatedFrame:
      return "stream ends inside a frame (" + std::to_string(e.value) + " bytes without delimiter)";
    case DecodeErrorKind::kUnknownEventId:
      return "unknown event id " + hex_byte(e.value);
    case DecodeErrorKind::kMissingField:
      return "frame ends before this field";
    case DecodeErrorKind::kTruncatedField:
      return "frame ends inside this varlen field";
    case DecodeErrorKind::kVarlenTooLong:
      return "varlen longer than " + std::to_string(e.value) + " bytes";
    case DecodeErrorKind::kVarlenOverflow:
      return "varlen value does not fit the field's type (last byte " + hex_byte(e.value) + ")";
    case DecodeErrorKind::kTrailingBytes:
      return std::to_string(e.value) + " byte(s) left after the last field";
    case DecodeErrorKind::kInvalidEnumValue:
      return "value " + std::to_string(e.value) + " is not in the enum";
    case DecodeErrorKind::kInvalidBoolValue:
      return "bool holds " + hex_byte(e.value) + ", not 0x00 or 0x01";
    case DecodeErrorKind::kValueOutOfRange:
      return "sign-magnitude varlen " + std::to_string(e.value) + " is outside the field's type";
    case DecodeErrorKind::kLinkLost:
      return std::to_string(e.value) + " frame(s) of core " + std::to_string(e.link_core) +
             " lost on the link (sequence gap); resynchronised here";
    case DecodeErrorKind::kLinkCorrupt:
      return "corrupt frame on the link (core " + std::to_string(e.link_core) + ": CRC failed" +
             (e.value != 0 ? ", did not deframe" : "") + "); discarded";
    case DecodeErrorKind::kLinkStale:
      return "frame " + std::to_string(e.value) + " of core " + std::to_string(e.link_core) +
             " arrived after later ones (a duplicate or late frame); discarded";
    case DecodeErrorKind::kTimestampUnknown:
      return "time unknown (core " + std::to_string(e.link_core) +
             ": its absolute timestamp was lost); left out until the core's next absolute timestamp";
  }
  return "unknown error";
}

}  // namespace

std::string describe(const DecodeError& e) { return describe(e, e.has_event_id ? find_event_info(e.event_id) : nullptr); }

std::string describe(const DecodeError& e, const EventInfo* info) {
  std::string out;
  if (e.has_event_id && info != nullptr) {
    out = "event '" + std::string{info->name} + "' (" + hex_byte(info->id) + ")";
    if (e.field_index >= 0 && static_cast<std::size_t>(e.field_index) < info->fields.size()) {
      out += " field '" + std::string{info->fields[static_cast<std::size_t>(e.field_index)].name} + "'";
    }
    out += ": ";
  }
  out += detail(e);
  if (e.has_event_id) {
    out += " (at byte " + std::to_string(e.offset) + " of the frame)";
  }
  return out;
}

}  // namespace tband
