#include "schema/runtime_decoder.hpp"

#include "decode/field_reader.hpp"

namespace tband {

namespace {

// Reads one present field into `out`.
bool read_field(FieldReader& r, const FieldInfo& info, int index, FieldValue& out) {
  switch (info.type) {
    case FieldType::kU8: {
      std::uint8_t v = 0;
      if (!r.read(v, index)) return false;
      out.u = v;
      return true;
    }
    case FieldType::kU16: {
      std::uint16_t v = 0;
      if (!r.read(v, index)) return false;
      out.u = v;
      return true;
    }
    case FieldType::kU32: {
      std::uint32_t v = 0;
      if (!r.read(v, index)) return false;
      out.u = v;
      return true;
    }
    case FieldType::kU64:
      return r.read(out.u, index);
    case FieldType::kS8: {
      std::int8_t v = 0;
      if (!r.read(v, index)) return false;
      out.s = v;
      return true;
    }
    case FieldType::kS16: {
      std::int16_t v = 0;
      if (!r.read(v, index)) return false;
      out.s = v;
      return true;
    }
    case FieldType::kS32: {
      std::int32_t v = 0;
      if (!r.read(v, index)) return false;
      out.s = v;
      return true;
    }
    case FieldType::kS64:
      return r.read(out.s, index);
    case FieldType::kBool: {
      bool v = false;
      if (!r.read(v, index)) return false;
      out.u = v ? 1 : 0;
      return true;
    }
    case FieldType::kF32: {
      float v = 0;
      if (!r.read(v, index)) return false;
      out.f = v;
      return true;
    }
    case FieldType::kF64:
      return r.read(out.f, index);
    case FieldType::kStr:
      out.str = r.read_str();
      return true;
    case FieldType::kEnum: {
      std::uint8_t v = 0;
      if (!r.read_enum(v, index, *info.enum_info)) return false;
      out.u = v;
      return true;
    }
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
      return true;
    }
    if (!read_field(r, info, static_cast<int>(i), value)) {
      error = r.error();
      return false;
    }
    has_str |= info.type == FieldType::kStr;
  }
  if (!has_str && !r.at_end()) {
    error = r.trailing_bytes();
    return false;
  }
  return true;
}

}  // namespace tband
