#include "record/status_line.hpp"

#include <cstdio>

#include <unistd.h>

namespace tband::record {

namespace {

constexpr std::chrono::milliseconds kRedrawInterval{250};

}  // namespace

StatusLine::StatusLine(StatusMode mode, std::chrono::milliseconds plain_interval)
    : mode_(mode),
      terminal_(mode == StatusMode::kAuto && ::isatty(STDERR_FILENO) != 0),
      interval_(terminal_ ? kRedrawInterval : plain_interval),
      start_(Clock::now()),
      next_(start_ + interval_),
      last_time_(start_) {}

StatusLine::~StatusLine() { clear(); }

std::string StatusLine::format(const StatusFigures& f, double seconds, double bytes_per_s, double events_per_s) {
  char text[256];
  std::snprintf(text, sizeof text, "%.1f s, %.2f MB (%.2f MB/s), %llu events (%.0f/s), %llu dropped, %llu decode errors",
                seconds, static_cast<double>(f.bytes) / 1e6, bytes_per_s / 1e6,
                static_cast<unsigned long long>(f.events), events_per_s,
                static_cast<unsigned long long>(f.dropped_events), static_cast<unsigned long long>(f.decode_errors));
  std::string line = text;
  if (f.link_checked) {
    line += ", link: " + std::to_string(f.link_lost) + " lost, " + std::to_string(f.link_corrupt) + " corrupt";
  }
  if (f.sources > 1) {
    line += ", " + std::to_string(f.sources_open) + "/" + std::to_string(f.sources) + " sources open";
  }
  if (!f.last_event.empty()) {
    line += ", last ";
    line += f.last_event;
  }
  return line;
}

StatusLine::Clock::time_point StatusLine::update(const StatusFigures& figures, Clock::time_point now) {
  if (mode_ == StatusMode::kQuiet) {
    return Clock::time_point::max();
  }
  if (now < next_) {
    return next_;
  }
  const double span = std::chrono::duration<double>(now - last_time_).count();
  const double rate = span > 0 ? static_cast<double>(figures.bytes - last_.bytes) / span : 0.0;
  const double events = span > 0 ? static_cast<double>(figures.events - last_.events) / span : 0.0;
  const std::string line =
      format(figures, std::chrono::duration<double>(now - start_).count(), rate, events);
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "tband record: %s\n", line.c_str());
  }
  std::fflush(stderr);
  last_ = figures;
  last_.last_event = {};
  last_time_ = now;
  next_ = now + interval_;
  return next_;
}

void StatusLine::message(std::string_view text, bool even_when_quiet) {
  if (mode_ == StatusMode::kQuiet && !even_when_quiet) {
    return;
  }
  clear();
  std::fprintf(stderr, "tband record: %.*s\n", static_cast<int>(text.size()), text.data());
  std::fflush(stderr);
}

void StatusLine::clear() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace tband::record
