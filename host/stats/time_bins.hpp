// Series over time in bounded memory, for reports: the trace's time is cut
// into at most kBins bins of equal width; when the trace grows past the last
// bin, the width doubles and every series merges its bins pairwise (lazily,
// the next time it is touched). One pass, whatever the trace's length.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tband {

class TimeGrid {
 public:
  static constexpr std::size_t kBins = 512;
  static constexpr std::uint64_t kFirstWidthNs = 1;

  void start(std::uint64_t origin_ns) noexcept { origin_ = origin_ns; }
  void reach(std::uint64_t ts_ns) noexcept {
    // Divided, not kBins * width_: that wraps for spans of 2^63 ns and more
    // (any u64 tick count can come in), and the loop then never ended. The
    // width stays below 2^64 / kBins, so offset_of() cannot wrap either.
    while (ts_ns >= origin_ && (ts_ns - origin_) / kBins >= width_) {
      width_ *= 2;
    }
  }
  [[nodiscard]] std::uint64_t origin() const noexcept { return origin_; }
  /// How far after the origin bin i starts.
  [[nodiscard]] std::uint64_t offset_of(std::size_t i) const noexcept { return i * width_; }
  /// How far after the origin `ts_ns` is; 0 before it.
  [[nodiscard]] std::uint64_t since_origin(std::uint64_t ts_ns) const noexcept {
    return ts_ns > origin_ ? ts_ns - origin_ : 0;
  }
  [[nodiscard]] std::uint64_t width() const noexcept { return width_; }
  [[nodiscard]] std::size_t bin_of(std::uint64_t ts_ns) const noexcept {
    const std::uint64_t t = ts_ns > origin_ ? ts_ns - origin_ : 0;
    return static_cast<std::size_t>(std::min<std::uint64_t>(t / width_, kBins - 1));
  }

 private:
  std::uint64_t origin_ = 0;
  std::uint64_t width_ = kFirstWidthNs;
};

/// Bins of some kind that follow the grid's width.
template <class Bin>
class Binned {
 public:
  std::vector<Bin>& sync(const TimeGrid& grid) {
    if (bins_.empty()) {
      bins_.resize(TimeGrid::kBins);
      width_ = grid.width();
    }
    while (width_ < grid.width()) {
      for (std::size_t i = 0; i < TimeGrid::kBins; ++i) {
        Bin merged;
        if (2 * i < TimeGrid::kBins) {
          merged = bins_[2 * i];
          merged.merge(bins_[2 * i + 1]);
        }
        bins_[i] = merged;
      }
      width_ *= 2;
    }
    return bins_;
  }
  [[nodiscard]] bool empty() const noexcept { return bins_.empty(); }

 private:
  std::vector<Bin> bins_;
  std::uint64_t width_ = 0;
};

/// Busy time per bin (a task running).
struct LoadBin {
  std::uint64_t busy_ns = 0;
  void merge(const LoadBin& o) noexcept { busy_ns += o.busy_ns; }
};

class LoadBins : public Binned<LoadBin> {
 public:
  /// Adds the time from begin to end, split over the bins it covers.
  void add(const TimeGrid& grid, std::uint64_t begin_ns, std::uint64_t end_ns) {
    if (end_ns <= begin_ns) {
      return;
    }
    std::vector<LoadBin>& bins = sync(grid);
    std::uint64_t t = std::max(begin_ns, grid.origin());
    while (t < end_ns) {
      const std::size_t b = grid.bin_of(t);
      // The bin's end as an offset: origin + offset wraps when the bin
      // reaches past 2^64 ns, which sent t back and looped for ever.
      const bool last = b + 1 == TimeGrid::kBins || grid.since_origin(end_ns) <= grid.offset_of(b + 1);
      const std::uint64_t until = last ? end_ns : grid.origin() + grid.offset_of(b + 1);
      bins[b].busy_ns += until - t;
      t = until;
    }
  }
};

/// The smallest, largest, first and last value per bin (a value marker, a
/// counter), as doubles: exact for the integers a plot needs; first and last
/// let a report draw the series as the step function it is.
struct ValueBin {
  bool seen = false;
  double min = 0, max = 0, first = 0, last = 0;
  void add(double v) noexcept {
    min = seen ? std::min(min, v) : v;
    max = seen ? std::max(max, v) : v;
    first = seen ? first : v;
    last = v;
    seen = true;
  }
  /// `o` is the bin that follows this one in time.
  void merge(const ValueBin& o) noexcept {
    if (!o.seen) {
      return;
    }
    if (!seen) {
      *this = o;
      return;
    }
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    last = o.last;
  }
};

class ValueBins : public Binned<ValueBin> {
 public:
  void add(const TimeGrid& grid, std::uint64_t ts_ns, double v) { sync(grid)[grid.bin_of(ts_ns)].add(v); }
};

}  // namespace tband
