// Interned strings: every track, slice and argument name is stored once and
// referred to by a small number, which the writers turn into Perfetto's
// interned names or look up for JSON.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tband {

using NameId = std::uint32_t;

/// Not an interned name: the text travels with the event instead. Used once
/// the table is full, so a trace with ever-new messages (a counter printed
/// into each one) cannot make memory grow without bound.
inline constexpr NameId kLiteralName = 0xFFFFFFFFu;

class NameTable {
 public:
  static constexpr std::size_t kMaxBoundedNames = 1 << 16;

  /// Like intern(), but returns kLiteralName for new text once the table
  /// holds kMaxBoundedNames names. For names that come from event data.
  NameId intern_bounded(std::string_view text) {
    if (const auto it = ids_.find(text); it != ids_.end()) {
      return it->second;
    }
    return strings_.size() < kMaxBoundedNames ? intern(text) : kLiteralName;
  }

  NameId intern(std::string_view text) {
    if (const auto it = ids_.find(text); it != ids_.end()) {
      return it->second;
    }
    const auto id = static_cast<NameId>(strings_.size());
    const std::string& stored = strings_.emplace_back(text);
    ids_.emplace(stored, id);
    return id;
  }
  [[nodiscard]] std::string_view get(NameId id) const { return strings_[id]; }
  [[nodiscard]] std::size_t size() const noexcept { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // a deque keeps the views in ids_ valid
  std::unordered_map<std::string_view, NameId> ids_;
};

/// A name that changes rarely (a marker's message): one comparison per use
/// instead of a hash lookup.
class CachedName {
 public:
  NameId get(NameTable& names, std::string_view text) {
    if (!valid_ || text != text_) {
      id_ = names.intern_bounded(text);
      valid_ = id_ != kLiteralName;
      if (valid_) {
        text_.assign(text);
      }
    }
    return id_;
  }

 private:
  std::string text_;
  NameId id_ = 0;
  bool valid_ = false;
};

}  // namespace tband
