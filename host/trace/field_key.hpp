// The values of some fields of a decoded event, as a key: what a display
// rule's track or name template, or a span's key fields, depend on. Numbers
// are compared as words, without a string built per event; string fields and
// rare overflow go to a byte string. RecentKeys remembers the last few keys
// and what they stood for, so runs of alternating values skip the hash map.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "decode/field_value.hpp"

namespace tband {

/// The fields a key is made of: where each is in the event and how its value
/// is held, worked out once per display rule rather than per event.
struct KeyFields {
  struct Field {
    std::uint32_t index;
    ValueKind kind;
    bool optional;
    std::uint8_t offset;  // of the FieldValue member that holds a number (u, s or f), as one word
  };
  std::vector<Field> fields;
  bool any_optional = false;
  bool words_only = true;  // no string and no optional field: a word per field, nothing else

  KeyFields() = default;
  KeyFields(std::span<const FieldInfo> infos, const std::vector<int>& indices) {
    for (const int index : indices) {
      const FieldInfo& info = infos[static_cast<std::size_t>(index)];
      const ValueKind kind = value_kind(info.type);
      const std::size_t offset = kind == ValueKind::kSigned  ? offsetof(FieldValue, s)
                                 : kind == ValueKind::kFloat ? offsetof(FieldValue, f)
                                                             : offsetof(FieldValue, u);
      fields.push_back({static_cast<std::uint32_t>(index), kind, info.optional, static_cast<std::uint8_t>(offset)});
      any_optional |= info.optional;
      words_only &= !info.optional && kind != ValueKind::kStr;
    }
  }
};

struct FieldKey {
  static constexpr std::size_t kWords = 6;  // a parent, the presence bits and four values
  std::array<std::uint64_t, kWords> words{};
  std::uint32_t count = 0;
  std::string spill;  // string fields (length, then bytes) and words beyond kWords

  void clear() noexcept {
    count = 0;
    spill.clear();
  }
  void add(std::uint64_t word) {
    if (count < kWords) {
      words[count++] = word;
    } else {
      spill.append(reinterpret_cast<const char*>(&word), sizeof word);
    }
  }
  /// Adds the fields' values (and which of them are present, if any may be absent).
  void add_fields(std::span<const FieldValue> values, const KeyFields& key);
  bool operator==(const FieldKey& other) const noexcept {
    if (count != other.count) {
      return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      if (words[i] != other.words[i]) {
        return false;
      }
    }
    return spill == other.spill;
  }
  /// The whole key as bytes, for a hash map.
  [[nodiscard]] std::string bytes() const {
    std::string out(reinterpret_cast<const char*>(words.data()), count * sizeof(std::uint64_t));
    out += spill;
    return out;
  }
};

/// The last N keys looked up and their values, replaced round-robin.
template <class V, std::size_t N = 4>
class RecentKeys {
 public:
  V* find(const FieldKey& key) noexcept {
    for (std::size_t i = 0; i < size_; ++i) {
      if (keys_[i] == key) {
        return &values_[i];
      }
    }
    return nullptr;
  }
  void put(const FieldKey& key, V value) {
    keys_[next_] = key;
    values_[next_] = value;
    next_ = (next_ + 1) % N;
    size_ = size_ < N ? size_ + 1 : N;
  }
  void clear() noexcept {
    size_ = 0;
    next_ = 0;  // find() looks at the first size_ slots
  }

 private:
  std::array<FieldKey, N> keys_{};
  std::array<V, N> values_{};
  std::size_t size_ = 0;
  std::size_t next_ = 0;
};

inline void FieldKey::add_fields(std::span<const FieldValue> values, const KeyFields& key) {
  if (key.words_only) {  // the usual key: each field's number as it is held (the same words as below)
    for (const KeyFields::Field& f : key.fields) {
      std::uint64_t word = 0;
      std::memcpy(&word, reinterpret_cast<const char*>(&values[f.index]) + f.offset, sizeof word);
      add(word);
    }
    return;
  }
  std::uint64_t present = 0;
  for (std::size_t i = 0; i < key.fields.size(); ++i) {
    const KeyFields::Field& f = key.fields[i];
    const FieldValue& v = values[f.index];
    if (f.optional) {
      present |= (v.present ? 1ull : 0ull) << (i % 64);
    }
    switch (f.kind) {
      case ValueKind::kStr:
        add(v.str.size());
        spill.append(v.str);
        break;
      case ValueKind::kSigned:
        add(static_cast<std::uint64_t>(v.s));
        break;
      case ValueKind::kFloat:
        add(std::bit_cast<std::uint64_t>(v.f));
        break;
      case ValueKind::kUnsigned:
      case ValueKind::kBool:
      case ValueKind::kEnum:
        add(v.u);
        break;
    }
  }
  if (key.any_optional) {
    add(present);
  }
}

}  // namespace tband
