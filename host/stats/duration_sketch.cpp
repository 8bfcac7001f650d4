#include "stats/duration_sketch.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tband {

DurationSketch::DurationSketch(const DurationSketch& other)
    : count_(other.count_),
      total_(other.total_),
      min_(other.min_),
      max_(other.max_),
      min_at_(other.min_at_),
      max_at_(other.max_at_),
      exact_(other.exact_) {
  for (std::size_t b = 0; b < kBlocks; ++b) {
    if (other.blocks_[b]) {
      blocks_[b] = std::make_unique<Block>(*other.blocks_[b]);
    }
  }
}

DurationSketch& DurationSketch::operator=(const DurationSketch& other) {
  if (this != &other) {
    DurationSketch copy{other};
    *this = std::move(copy);
  }
  return *this;
}

DurationSketch::Bucket DurationSketch::bucket_of(std::size_t block, std::size_t sub, std::uint64_t count) noexcept {
  if (block == 0) {
    return {sub, sub, count};
  }
  const unsigned shift = static_cast<unsigned>(block) - 1u;  // the bucket's width is 2^shift
  const std::uint64_t lo = (kSubBuckets + sub) << shift;
  return {lo, lo + ((std::uint64_t{1} << shift) - 1u), count};
}

void DurationSketch::merge(const DurationSketch& other) {
  if (other.count_ == 0) {
    return;
  }
  if (count_ == 0 || other.min_ < min_) {
    min_ = other.min_;
    min_at_ = other.min_at_;
  }
  if (count_ == 0 || other.max_ > max_) {
    max_ = other.max_;
    max_at_ = other.max_at_;
  }
  const bool both_exact = exact() && other.exact() && count_ + other.count_ <= kExactSamples;
  count_ += other.count_;
  total_ += other.total_;
  if (both_exact) {
    exact_.insert(exact_.end(), other.exact_.begin(), other.exact_.end());
  } else {
    // Not all values are known any more: keep exact_ shorter than count_ so
    // that exact() says so.
    exact_.resize(std::min<std::size_t>(exact_.size(), kExactSamples - 1));
  }
  for (std::size_t b = 0; b < kBlocks; ++b) {
    if (!other.blocks_[b]) {
      continue;
    }
    if (!blocks_[b]) {
      blocks_[b] = std::make_unique<Block>();
    }
    for (std::size_t s = 0; s < kSubBuckets; ++s) {
      (*blocks_[b])[s] += (*other.blocks_[b])[s];
    }
  }
}

std::uint64_t DurationSketch::percentile(double p) const {
  if (count_ == 0) {
    return 0;
  }
  const double wanted = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(count_));
  const std::uint64_t rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
  if (exact()) {
    std::vector<std::uint64_t> sorted = exact_;
    const auto nth = sorted.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(sorted.begin(), nth, sorted.end());
    return *nth;
  }
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < kBlocks; ++b) {
    if (!blocks_[b]) {
      continue;
    }
    for (std::size_t s = 0; s < kSubBuckets; ++s) {
      seen += (*blocks_[b])[s];
      if (seen >= rank) {
        const Bucket bucket = bucket_of(b, s, 0);
        const std::uint64_t mid = bucket.lo + (bucket.hi - bucket.lo) / 2;
        return std::clamp(mid, min_, max_);
      }
    }
  }
  return max_;
}

std::vector<DurationSketch::Bucket> DurationSketch::buckets() const {
  std::vector<Bucket> out;
  for (std::size_t b = 0; b < kBlocks; ++b) {
    if (!blocks_[b]) {
      continue;
    }
    for (std::size_t s = 0; s < kSubBuckets; ++s) {
      if ((*blocks_[b])[s] != 0) {
        out.push_back(bucket_of(b, s, (*blocks_[b])[s]));
      }
    }
  }
  return out;
}

}  // namespace tband
