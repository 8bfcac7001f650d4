// The recording's status while it runs, on stderr: on a terminal one line
// redrawn a few times a second; otherwise a plain line now and then (for logs
// and CI); nothing when quiet. Messages (a source connected or lost) are
// printed above the status line.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace tband::record {

struct StatusFigures {
  std::uint64_t bytes = 0;
  std::uint64_t events = 0;
  std::uint64_t dropped_events = 0;  // reported by the target
  std::uint64_t decode_errors = 0;
  bool link_checked = false;  // a source announced link integrity: its figures are shown
  std::uint64_t link_lost = 0;
  std::uint64_t link_corrupt = 0;
  std::string_view last_event;
  std::size_t sources_open = 0;
  std::size_t sources = 0;
};

enum class StatusMode : std::uint8_t { kAuto, kPlain, kQuiet };

class StatusLine {
 public:
  using Clock = std::chrono::steady_clock;

  /// kAuto: redrawn on a terminal, plain lines every `plain_interval` otherwise.
  StatusLine(StatusMode mode, std::chrono::milliseconds plain_interval);
  ~StatusLine();
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  /// Shows the figures if it is time to; returns when it next wants to.
  Clock::time_point update(const StatusFigures& figures, Clock::time_point now);
  /// A message line, printed even when quiet (errors and warnings must show).
  void message(std::string_view text, bool even_when_quiet = false);
  /// Removes the redrawn line before the final summary.
  void clear();

  /// "12.3 MB, 1.20 MB/s, 4512 events/s, 0 dropped, 0 decode errors, last isr_exit"
  [[nodiscard]] static std::string format(const StatusFigures& figures, double seconds, double bytes_per_s,
                                          double events_per_s);

 private:
  StatusMode mode_;
  bool terminal_;
  std::chrono::milliseconds interval_;
  Clock::time_point start_;
  Clock::time_point next_;
  Clock::time_point last_time_;
  StatusFigures last_;
  bool drawn_ = false;
};

}  // namespace tband::record
