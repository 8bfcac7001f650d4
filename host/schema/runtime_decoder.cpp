#include "schema/runtime_decoder.hpp"

#include <bit>
#include <limits>

#include "decode/field_reader.hpp"

namespace tband {

namespace {

// How a field type is read: every varlen type through one loop (with its
// width as data), every one-byte type through another, then a small step per
// type. One shared path instead of a jump per type keeps the branches
// predictable when events of different layouts alternate.
enum class Read : std::uint8_t { kVarlen, kByte, kStr };
enum class Then : std::uint8_t { kUnsigned, kSignMagnitude, kS64, kF32, kF64, kS8, kBool, kEnum };

struct Plan {
  Read read;
  Then then;
  std::uint8_t max_bytes;       // varlen: ceil(bits / 7), as FieldReader::read_varlen<bits>
  std::uint8_t last_byte_bits;  // varlen: value bits the last byte may use
  std::uint64_t max_magnitude;  // s16, s32: the type's largest magnitude
};

constexpr Plan varlen(unsigned bits, Then then, std::uint64_t max_magnitude = 0) {
  const unsigned bytes = (bits + 6) / 7;
  return {Read::kVarlen, then, static_cast<std::uint8_t>(bytes), static_cast<std::uint8_t>(bits - 7 * (bytes - 1)),
          max_magnitude};
}
constexpr Plan byte(Then then) { return {Read::kByte, then, 1, 8, 0}; }

// By FieldType, in its order. s16 and s32 read one bit more than their
// width (the sign), as FieldReader::read_sign_magnitude does.
constexpr Plan kPlans[] = {
    byte(Then::kUnsigned),                                                  // kU8
    varlen(16, Then::kUnsigned),                                            // kU16
    varlen(32, Then::kUnsigned),                                            // kU32
    varlen(64, Then::kUnsigned),                                            // kU64
    byte(Then::kS8),                                                        // kS8
    varlen(17, Then::kSignMagnitude, std::numeric_limits<std::int16_t>::max()),  // kS16
    varlen(33, Then::kSignMagnitude, std::numeric_limits<std::int32_t>::max()),  // kS32
    varlen(64, Then::kS64),                                                 // kS64
    byte(Then::kBool),                                                      // kBool
    varlen(32, Then::kF32),                                                 // kF32
    varlen(64, Then::kF64),                                                 // kF64
    {Read::kStr, Then::kUnsigned, 0, 0, 0},                                 // kStr
    byte(Then::kEnum),                                                      // kEnum
};
static_assert(std::size(kPlans) == static_cast<std::size_t>(FieldType::kEnum) + 1);

// Turns the raw number of a present field into its value, with the checks
// of the generated decoder.
bool finish_value(FieldReader& r, const Plan& plan, const FieldInfo& info, int index, const std::uint8_t* start,
                  std::uint64_t raw, FieldValue& out) {
  switch (plan.then) {
    case Then::kUnsigned:
      out.u = raw;
      return true;
    case Then::kSignMagnitude: {
      const std::uint64_t magnitude = raw >> 1;
      const bool negative = (raw & 1u) != 0;
      if (magnitude > plan.max_magnitude + (negative ? 1u : 0u) || (negative && magnitude == 0)) {
        return r.value_error(DecodeErrorKind::kValueOutOfRange, index, start, raw);
      }
      out.s = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
      return true;
    }
    case Then::kS64: {
      const std::uint64_t magnitude = raw >> 1;
      if ((raw & 1u) == 0) {
        out.s = static_cast<std::int64_t>(magnitude);
      } else {
        out.s = magnitude == 0 ? INT64_MIN : -static_cast<std::int64_t>(magnitude);  // "negative zero" is INT64_MIN
      }
      return true;
    }
    case Then::kF32:
      out.f = std::bit_cast<float>(static_cast<std::uint32_t>(raw));
      return true;
    case Then::kF64:
      out.f = std::bit_cast<double>(raw);
      return true;
    case Then::kS8:
      out.s = static_cast<std::int8_t>(static_cast<std::uint8_t>(raw));
      return true;
    case Then::kBool:
      if (raw > 1) {
        return r.value_error(DecodeErrorKind::kInvalidBoolValue, index, start, raw);
      }
      out.u = raw;
      return true;
    case Then::kEnum:
      if (info.enum_info->find(raw) == nullptr) {
        return r.value_error(DecodeErrorKind::kInvalidEnumValue, index, start, raw);
      }
      out.u = raw;
      return true;
  }
  return false;
}

}  // namespace

bool decode_dynamic(const RuntimeEvent& event, std::span<const std::uint8_t> frame, DynamicEvent& out,
                    DecodeError& error) {
  const std::span<const FieldInfo> fields = event.info.fields;
  out.event = &event;
  if (out.fields.size() != fields.size()) {
    out.fields.resize(fields.size());
  }
  FieldReader r{frame};
  bool has_str = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const FieldInfo& info = fields[i];
    FieldValue& value = out.fields[i];
    value = FieldValue{};
    value.info = &info;
    if (info.optional && r.at_end()) {
      // This and every later field were left out: report their defaults.
      for (std::size_t j = i; j < fields.size(); ++j) {
        FieldValue& absent = out.fields[j];
        absent = FieldValue{};
        absent.info = &fields[j];
        absent.present = false;
        absent.u = fields[j].default_value.u;
        absent.s = fields[j].default_value.s;
        absent.f = fields[j].default_value.f;
      }
      out.has_str = has_str;
      return true;
    }
    const Plan& plan = kPlans[static_cast<std::size_t>(info.type)];
    const std::uint8_t* start = r.position();
    const int index = static_cast<int>(i);
    std::uint64_t raw = 0;
    if (plan.read == Read::kVarlen) {
      if (!r.read_varlen_quick(raw, index, plan.max_bytes, plan.last_byte_bits)) {
        error = r.error();
        return false;
      }
    } else if (plan.read == Read::kByte) {
      std::uint8_t b = 0;
      if (!r.read(b, index)) {
        error = r.error();
        return false;
      }
      raw = b;
    } else {
      value.str = r.read_str();
      has_str = true;
      continue;
    }
    if (!finish_value(r, plan, info, index, start, raw, value)) {
      error = r.error();
      return false;
    }
  }
  if (!has_str && !r.at_end()) {
    error = r.trailing_bytes();
    return false;
  }
  out.has_str = has_str;
  return true;
}

}  // namespace tband
