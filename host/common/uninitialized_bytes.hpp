// A byte buffer that read(2) or a decompressor fills: resizing it leaves new
// bytes as they are instead of zeroing them first. A conversion of a small
// input would otherwise spend more on zeroing its 64 KiB chunks (and faulting
// in their pages) than on the input; only bytes written are handed out.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace tband {

class UninitializedBytes {
 public:
  UninitializedBytes() = default;
  explicit UninitializedBytes(std::size_t size) { resize(size); }

  [[nodiscard]] std::uint8_t* data() noexcept { return data_.get(); }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_.get(); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  /// Keeps the first min(size(), size) bytes; the others are unset. Grows
  /// the storage geometrically, as std::vector does, so that growing by a
  /// chunk at a time stays linear.
  void resize(std::size_t size) {
    if (size > capacity_) {
      reallocate(std::max(size, capacity_ * 2));
    }
    size_ = size;
  }
  /// Gives back storage beyond size().
  void shrink_to_fit() {
    if (capacity_ != size_) {
      reallocate(size_);
    }
  }

 private:
  void reallocate(std::size_t capacity) {
    auto storage = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
    if (size_ != 0 && capacity != 0) {
      std::memcpy(storage.get(), data_.get(), std::min(size_, capacity));
    }
    data_ = std::move(storage);
    capacity_ = capacity;
  }

  std::unique_ptr<std::uint8_t[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace tband
