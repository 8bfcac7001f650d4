// A progress bar on stderr for long conversions, drawn only when stderr is a
// terminal and at most ten times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace tband::cli {

/// The wall time of a command's work and its rate, for -vv:
/// "0.412 s: 2.43 M events/s, 9.7 MB/s".
class RunTimer {
 public:
  RunTimer() : start_(std::chrono::steady_clock::now()) {}
  [[nodiscard]] std::string rate(std::uint64_t events, std::uint64_t bytes) const;

 private:
  std::chrono::steady_clock::time_point start_;
};

class ProgressBar {
 public:
  /// Enabled only when stderr is a terminal and `wanted`.
  explicit ProgressBar(bool wanted);
  ~ProgressBar();
  void update(std::uint64_t done_bytes, std::optional<std::uint64_t> total_bytes);
  void clear();

  [[nodiscard]] bool enabled() const noexcept { return enabled_; }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace tband::cli
