// The distribution of a series of durations (nanoseconds) in bounded memory:
// count, total, min and max (each with where it happened) exactly, and
// percentiles from a log-linear histogram.
//
// Percentiles use the nearest-rank definition: the p-th percentile of n
// values is the value at rank ceil(p/100 * n) in ascending order. They are
// exact while a series has at most kExactSamples values (every value is kept
// until then). Beyond that they come from the histogram, whose buckets are
// 1 ns wide below 256 ns and 1/128 of their lower bound above; a percentile is
// its bucket's midpoint (clamped to min and max), so it is within 1/256
// (0.39 %) of the exact value, and exact below 256 ns. The histogram holds
// blocks of 128 counters for the powers of two that occur: at most 58 KiB.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace tband {

class DurationSketch {
 public:
  static constexpr unsigned kSubBucketBits = 7;
  static constexpr std::uint64_t kSubBuckets = 1u << kSubBucketBits;
  static constexpr std::size_t kExactSamples = 1024;
  /// The stated bound on a percentile's relative error beyond kExactSamples.
  static constexpr double kRelativeError = 1.0 / (2.0 * kSubBuckets);

  DurationSketch() = default;
  /// A deep copy (a live view's figures so far, the original going on).
  DurationSketch(const DurationSketch& other);
  DurationSketch& operator=(const DurationSketch& other);
  DurationSketch(DurationSketch&&) noexcept = default;
  DurationSketch& operator=(DurationSketch&&) noexcept = default;
  ~DurationSketch() = default;

  void add(std::uint64_t ns, std::uint64_t at_ns) {
    if (count_ == 0 || ns < min_) {
      min_ = ns;
      min_at_ = at_ns;
    }
    if (count_ == 0 || ns > max_) {
      max_ = ns;
      max_at_ = at_ns;
    }
    ++count_;
    total_ += ns;
    if (exact_.size() < kExactSamples) {
      exact_.push_back(ns);
    }
    const Index i = index_of(ns);
    auto& block = blocks_[i.block];
    if (!block) {
      block = std::make_unique<Block>();
    }
    ++(*block)[i.sub];
  }

  /// Adds all of `other`'s values (an ISR of the same name on another core).
  void merge(const DurationSketch& other);

  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] std::uint64_t total() const noexcept { return total_; }
  [[nodiscard]] std::uint64_t min() const noexcept { return min_; }
  [[nodiscard]] std::uint64_t max() const noexcept { return max_; }
  [[nodiscard]] std::uint64_t min_at() const noexcept { return min_at_; }
  [[nodiscard]] std::uint64_t max_at() const noexcept { return max_at_; }
  [[nodiscard]] double mean() const noexcept {
    return count_ == 0 ? 0.0 : static_cast<double>(total_) / static_cast<double>(count_);
  }
  /// True while percentiles are exact.
  [[nodiscard]] bool exact() const noexcept { return count_ <= exact_.size(); }
  /// The nearest-rank percentile, p in [0, 100]; 0 for an empty series.
  [[nodiscard]] std::uint64_t percentile(double p) const;

  /// A histogram bucket: values lo..hi (inclusive) seen `count` times.
  struct Bucket {
    std::uint64_t lo, hi, count;
  };
  /// The non-empty buckets in ascending order.
  [[nodiscard]] std::vector<Bucket> buckets() const;

 private:
  using Block = std::array<std::uint64_t, kSubBuckets>;
  static constexpr std::size_t kBlocks = 64 - kSubBucketBits + 1;
  struct Index {
    std::size_t block, sub;
  };
  static Index index_of(std::uint64_t v) noexcept {
    if (v < kSubBuckets) {
      return {0, static_cast<std::size_t>(v)};
    }
    const unsigned e = 63u - static_cast<unsigned>(__builtin_clzll(v));  // 2^e <= v < 2^(e+1)
    const unsigned shift = e - kSubBucketBits;
    return {e - kSubBucketBits + 1, static_cast<std::size_t>((v >> shift) - kSubBuckets)};
  }
  static Bucket bucket_of(std::size_t block, std::size_t sub, std::uint64_t count) noexcept;

  std::uint64_t count_ = 0, total_ = 0;
  std::uint64_t min_ = 0, max_ = 0, min_at_ = 0, max_at_ = 0;
  std::vector<std::uint64_t> exact_;
  std::array<std::unique_ptr<Block>, kBlocks> blocks_{};
};

}  // namespace tband
