// State per user-chosen 32-bit id (marker, ISR, task, queue). Small ids, the
// usual case, are found by indexing an array; others through a hash map.
// Entries never move, so references to them stay valid.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace tband {

template <class T>
class IdMap {
 public:
  static constexpr std::uint32_t kDirect = 4096;

  IdMap() = default;
  // direct_ points into items_: a copy would point into the original.
  IdMap(const IdMap&) = delete;
  IdMap& operator=(const IdMap&) = delete;
  IdMap(IdMap&&) = default;  // a deque's elements stay where they are when it moves
  IdMap& operator=(IdMap&&) = default;

  T* find(std::uint32_t id) {
    if (id < kDirect) {
      return id < direct_.size() ? direct_[id] : nullptr;
    }
    const auto it = others_.find(id);
    return it == others_.end() ? nullptr : &items_[it->second].second;
  }

  /// The entry for id; `created` tells whether it was just made.
  T& get(std::uint32_t id, bool& created) {
    created = false;
    if (T* found = find(id)) {
      return *found;
    }
    created = true;
    const std::size_t index = items_.size();
    items_.emplace_back(id, T{});
    if (id < kDirect) {
      if (direct_.size() <= id) {
        direct_.resize(id + 1u, nullptr);
      }
      direct_[id] = &items_.back().second;
    } else {
      others_.emplace(id, index);
    }
    return items_.back().second;
  }

  /// (id, entry) pairs in the order they were created.
  [[nodiscard]] std::deque<std::pair<std::uint32_t, T>>& entries() noexcept { return items_; }
  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }

 private:
  std::deque<std::pair<std::uint32_t, T>> items_;
  std::vector<T*> direct_;  // small ids: the entry, or nullptr
  std::unordered_map<std::uint32_t, std::size_t> others_;
};

}  // namespace tband
