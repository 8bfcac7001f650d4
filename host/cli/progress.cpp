#include "cli/progress.hpp"

#include <cstdio>

#include <unistd.h>

namespace tband::cli {

std::string RunTimer::rate(std::uint64_t events, std::uint64_t bytes) const {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double per_second = seconds > 0 ? 1 / seconds : 0;
  char text[96];
  std::snprintf(text, sizeof text, "%.3f s: %.2f M events/s, %.1f MB/s", seconds,
                static_cast<double>(events) * per_second / 1e6, static_cast<double>(bytes) * per_second / 1e6);
  return text;
}

ProgressBar::ProgressBar(bool wanted)
    : enabled_(wanted && ::isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(std::uint64_t done_bytes, std::optional<std::uint64_t> total_bytes) {
  if (!enabled_) {
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  // Short runs finish before the first draw; long ones redraw 10 times a second.
  if (now - start_ < std::chrono::milliseconds(300) || now - last_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_ = now;
  const double mb = static_cast<double>(done_bytes) / 1e6;
  if (total_bytes && *total_bytes != 0) {
    const double fraction = static_cast<double>(done_bytes) / static_cast<double>(*total_bytes);
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    char bar[kWidth + 1];
    for (int i = 0; i < kWidth; ++i) {
      bar[i] = i < filled ? '#' : '.';
    }
    bar[kWidth] = '\0';
    std::fprintf(stderr, "\r[%s] %3d%%  %.1f MB", bar, static_cast<int>(fraction * 100), mb);
  } else {
    std::fprintf(stderr, "\r%.1f MB read", mb);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace tband::cli
