// The recording's status line: its text, and when the plain (not a terminal)
// and quiet modes print. Times are passed in, so nothing here waits.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "record/status_line.hpp"
#include "trace_builder.hpp"

namespace tband::record {
namespace {

using namespace std::chrono_literals;

// Sends stderr to a file while alive; text() is what was written so far.
class CapturedStderr {
 public:
  CapturedStderr() : path_(test::temp_path("stderr.txt")) {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    std::FILE* file = std::fopen(path_.c_str(), "w");
    ::dup2(::fileno(file), STDERR_FILENO);
    std::fclose(file);
  }
  ~CapturedStderr() {
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }
  CapturedStderr(const CapturedStderr&) = delete;
  CapturedStderr& operator=(const CapturedStderr&) = delete;

  std::string text() const {
    std::fflush(stderr);
    std::ifstream in(path_);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

 private:
  std::string path_;
  int saved_ = -1;
};

TEST(StatusLineFormat, OneSource) {
  StatusFigures f;
  f.bytes = 12'345'678;
  f.events = 45'120;
  f.dropped_events = 3;
  f.decode_errors = 1;
  f.last_event = "isr_exit";
  f.sources = 1;
  f.sources_open = 1;
  EXPECT_EQ(StatusLine::format(f, 10.04, 1'204'000, 4512.4),
            "10.0 s, 12.35 MB (1.20 MB/s), 45120 events (4512/s), 3 dropped, 1 decode errors, last isr_exit");
}

TEST(StatusLineFormat, SeveralSourcesSayHowManyAreOpen) {
  StatusFigures f;
  f.bytes = 500;
  f.events = 2;
  f.last_event = "task_switched_in";
  f.sources = 3;
  f.sources_open = 2;
  EXPECT_EQ(StatusLine::format(f, 0.24, 2000, 8),
            "0.2 s, 0.00 MB (0.00 MB/s), 2 events (8/s), 0 dropped, 0 decode errors, 2/3 sources open, "
            "last task_switched_in");
}

TEST(StatusLineFormat, NoEventYet) {
  StatusFigures f;
  f.sources = 2;
  EXPECT_EQ(StatusLine::format(f, 0, 0, 0),
            "0.0 s, 0.00 MB (0.00 MB/s), 0 events (0/s), 0 dropped, 0 decode errors, 0/2 sources open");
}

TEST(StatusLinePlain, PrintsOnlyOnceTheIntervalIsOver) {
  CapturedStderr err;
  const auto before = StatusLine::Clock::now();
  StatusLine status{StatusMode::kPlain, 1h};
  const auto after = StatusLine::Clock::now();
  StatusFigures f;
  f.bytes = 2'000'000;
  f.events = 10;
  f.sources = 1;
  // Too early: nothing, and the answer is when it will be time.
  const auto next = status.update(f, after);
  EXPECT_GE(next, before + 1h);
  EXPECT_LE(next, after + 1h);
  EXPECT_EQ(err.text(), "");
  // Time: one line, and the next one an interval after it.
  const auto now = after + 2h;
  EXPECT_EQ(status.update(f, now), now + 1h);
  const std::string text = err.text();
  EXPECT_EQ(text.rfind("tband record: ", 0), 0U) << text;
  EXPECT_NE(text.find(", 2.00 MB (0.00 MB/s), 10 events (0/s), 0 dropped, 0 decode errors\n"), std::string::npos)
      << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_EQ(status.update(f, now + 30min), now + 1h);
  EXPECT_EQ(err.text(), text);
}

TEST(StatusLinePlain, RatesAreSinceTheLastLine) {
  CapturedStderr err;
  StatusLine status{StatusMode::kPlain, 1s};
  const auto t0 = StatusLine::Clock::now() + 10s;
  StatusFigures f;
  f.bytes = 1'000'000;
  f.events = 100;
  (void)status.update(f, t0);
  const std::size_t first = err.text().size();
  f.bytes = 5'000'000;
  f.events = 500;
  f.last_event = "isr_enter";
  (void)status.update(f, t0 + 2s);
  const std::string second = err.text().substr(first);
  EXPECT_NE(second.find(" s, 5.00 MB (2.00 MB/s), 500 events (200/s), 0 dropped, 0 decode errors, last isr_enter\n"),
            std::string::npos)
      << second;
}

TEST(StatusLinePlain, MessagesArePrefixed) {
  CapturedStderr err;
  StatusLine status{StatusMode::kPlain, 1h};
  status.message("tcp:localhost:19021: connected, recording to trace.bin");
  EXPECT_EQ(err.text(), "tband record: tcp:localhost:19021: connected, recording to trace.bin\n");
}

TEST(StatusLineQuiet, NoStatusAndOnlyTheMessagesThatMustShow) {
  CapturedStderr err;
  {
    StatusLine status{StatusMode::kQuiet, 1ms};
    StatusFigures f;
    EXPECT_EQ(status.update(f, StatusLine::Clock::now() + 1h), StatusLine::Clock::time_point::max());
    status.message("-: connected, recording to trace.bin");
    status.message("warning: -: lost", true);
    status.clear();
  }
  EXPECT_EQ(err.text(), "tband record: warning: -: lost\n");
}

TEST(StatusLineAuto, NotOnATerminalItIsPlain) {
  CapturedStderr err;  // a file: not a terminal
  StatusLine status{StatusMode::kAuto, 1h};
  StatusFigures f;
  const auto now = StatusLine::Clock::now() + 2h;
  EXPECT_EQ(status.update(f, now), now + 1h);  // the plain interval, not the terminal's redraw
  const std::string text = err.text();
  EXPECT_EQ(text.rfind("tband record: ", 0), 0U) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
}

}  // namespace
}  // namespace tband::record
