#include "record/recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <memory>

#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "record/live_decoder.hpp"
#include "record/recording_file.hpp"
#include "record/source.hpp"

namespace tband::record {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kRetryInterval{200};   // between connection attempts
constexpr milliseconds kAttemptTimeout{5000};  // one connect() that hangs
constexpr std::size_t kReadSize = 256 * 1024;
constexpr int kReadsPerWakeup = 16;  // then the other sources get their turn
constexpr int kFinalReads = 64;      // 16 MiB, more than a socket buffer holds

// SIGINT and SIGTERM arrive on a descriptor the loop polls, not as handlers:
// the recording ends between two reads, with everything read written.
class SignalDescriptor {
 public:
  SignalDescriptor() {
    sigemptyset(&mask_);
    sigaddset(&mask_, SIGINT);
    sigaddset(&mask_, SIGTERM);
    if (::pthread_sigmask(SIG_BLOCK, &mask_, &saved_) != 0) {
      throw std::runtime_error("cannot block SIGINT/SIGTERM");
    }
    fd_ = ::signalfd(-1, &mask_, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd_ < 0) {
      ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
      throw std::runtime_error(std::string{"signalfd: "} + std::strerror(errno));
    }
  }
  ~SignalDescriptor() {
    ::close(fd_);
    ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
  }
  SignalDescriptor(const SignalDescriptor&) = delete;
  SignalDescriptor& operator=(const SignalDescriptor&) = delete;

  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// The signal that arrived, if any.
  std::optional<int> take() const {
    signalfd_siginfo info{};
    if (::read(fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      return static_cast<int>(info.ssi_signo);
    }
    return std::nullopt;
  }

 private:
  sigset_t mask_{};
  sigset_t saved_{};
  int fd_ = -1;
};

enum class State : std::uint8_t { kWaiting, kPending, kOpen, kEnded };

struct Channel {
  std::unique_ptr<Source> source;
  std::unique_ptr<RecordingFile> file;
  State state = State::kWaiting;
  bool ever_connected = false;
  bool announced_waiting = false;
  bool ready = false;  // read without waiting for poll (more may be there)
  Clock::time_point next_attempt;
  Clock::time_point attempt_deadline;
  Clock::time_point lost_at;
  std::string lost_reason;
  std::uint64_t bytes = 0;
};

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string format_seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
}

class Recorder {
 public:
  explicit Recorder(const RecorderOptions& options)
      : options_(options),
        decoder_(options.sources, options.mode, options.schemas, options.observer, options.assumed_ns_per_ts),
        status_(options.status, options.status_interval),
        buffer_(std::make_unique<std::uint8_t[]>(kReadSize)) {
    if (options.on_event) {
      decoder_.on_event(options.on_event);
    }
  }

  RecordingResult run() {
    start_ = Clock::now();
    for (std::size_t i = 0; i < options_.sources.size(); ++i) {
      Channel c;
      c.source = make_source(options_.sources[i]);
      if (options_.write_files) {
        c.file = std::make_unique<RecordingFile>(options_.outputs[i], options_.rotate_bytes, options_.compress);
      }
      c.next_attempt = start_;
      channels_.push_back(std::move(c));
    }
    loop();
    // Whatever had already arrived when the recording was told to stop
    // (bounded: a source that never pauses must not keep it going).
    for (std::size_t i = 0; i < channels_.size(); ++i) {
      if (channels_[i].state == State::kOpen) {
        read_channel(i, kFinalReads);
      }
    }
    return finish();
  }

 private:
  void loop() {
    std::vector<pollfd> fds;
    std::vector<std::size_t> owners;
    Clock::time_point next_status = Clock::now();
    while (!end_) {
      const Clock::time_point now = Clock::now();
      for (std::size_t i = 0; i < channels_.size(); ++i) {
        Channel& c = channels_[i];
        if ((c.state == State::kWaiting && now >= c.next_attempt) ||
            (c.state == State::kPending && now >= c.attempt_deadline)) {
          attempt(i, now);
        }
      }
      if (end_) {
        break;
      }
      if (options_.duration && now - start_ >= *options_.duration) {
        stop(RecordingEnd::kDuration, "--duration reached");
        break;
      }
      next_status = status_.update(figures(), now);
      if (options_.on_progress && now >= next_progress_) {
        progress(false);
        next_progress_ = now + options_.progress_interval;
      }
      for (Channel& c : channels_) {
        if (c.file) {
          c.file->end_due_frame(now);  // compressed: a frame open for a while goes to disk
        }
      }

      fds.clear();
      owners.clear();
      fds.push_back({signals_.fd(), POLLIN, 0});
      fds.push_back({options_.command_line && stdin_open_ ? STDIN_FILENO : -1, POLLIN, 0});  // -1: poll skips it
      bool ready = false;
      Clock::time_point wake = next_status;
      if (options_.on_progress) {
        wake = std::min(wake, next_progress_);
      }
      if (options_.duration) {
        wake = std::min(wake, start_ + *options_.duration);
      }
      for (std::size_t i = 0; i < channels_.size(); ++i) {
        const Channel& c = channels_[i];
        if (c.state == State::kOpen || c.state == State::kPending) {
          fds.push_back({c.source->poll_fd(), c.source->poll_events(), 0});
          owners.push_back(i);
        }
        ready = ready || (c.state == State::kOpen && c.ready);
        if (const auto due = c.file ? c.file->frame_due() : std::nullopt) {
          wake = std::min(wake, *due);
        }
        if (c.state == State::kWaiting) {
          wake = std::min(wake, c.next_attempt);
        } else if (c.state == State::kPending) {
          wake = std::min(wake, c.attempt_deadline);
        }
      }
      int timeout_ms = 0;
      if (!ready) {
        const auto until = std::chrono::ceil<milliseconds>(wake - Clock::now()).count();
        timeout_ms = static_cast<int>(std::clamp<long long>(until, 0, 1000));
      }
      const int n = ::poll(fds.data(), fds.size(), timeout_ms);
      if (n < 0 && errno != EINTR) {
        throw std::runtime_error(std::string{"poll: "} + std::strerror(errno));
      }
      if (fds[0].revents != 0) {
        if (const std::optional<int> signal = signals_.take()) {
          stop(RecordingEnd::kSignal, *signal == SIGINT ? "SIGINT" : "SIGTERM");
          break;
        }
      }
      if (fds[1].revents != 0) {
        read_command_line();
      }
      for (std::size_t k = 2; k < fds.size(); ++k) {
        const std::size_t i = owners[k - 2];
        Channel& c = channels_[i];
        if (fds[k].revents == 0) {
          continue;
        }
        if (c.state == State::kPending) {
          attempt(i, Clock::now());
        } else if (c.state == State::kOpen) {
          c.ready = true;
        }
      }
      for (std::size_t i = 0; i < channels_.size() && !end_; ++i) {
        if (channels_[i].state == State::kOpen && channels_[i].ready) {
          read_channel(i, kReadsPerWakeup);
        }
      }
      if (!end_ && std::all_of(channels_.begin(), channels_.end(),
                               [](const Channel& c) { return c.state == State::kEnded; })) {
        stop(RecordingEnd::kInputEnded, channels_.size() == 1 ? "the source ended" : "every source ended");
      }
    }
  }

  void attempt(std::size_t i, Clock::time_point now) {
    Channel& c = channels_[i];
    const SourceSpec& spec = options_.sources[i];
    OpenStatus status = OpenStatus::kNotYet;
    if (c.state == State::kPending && now >= c.attempt_deadline) {
      c.source->close();  // a connect() that hangs: start over
    } else {
      const bool was_pending = c.state == State::kPending;
      status = c.source->open();
      if (status == OpenStatus::kPending && !was_pending) {
        c.state = State::kPending;
        c.attempt_deadline = now + kAttemptTimeout;
        if (!c.ever_connected) {
          c.attempt_deadline = std::min(c.attempt_deadline, start_ + options_.connect_timeout);
        }
        return;
      }
    }
    if (status == OpenStatus::kOpen) {
      c.state = State::kOpen;
      c.ready = true;  // a followed file already holds data; a socket may too
      if (!c.ever_connected) {
        c.ever_connected = true;
        if (c.file) {
          c.file->start();
          status_.message(spec.text + ": connected, recording to " + options_.outputs[i]);
        } else {
          status_.message(spec.text + ": following it");
        }
      } else {
        record_gap(i, now);
      }
      if (!options_.send_on_connect.empty() && c.source->writable()) {
        for (const std::vector<std::uint8_t>& frame : options_.send_on_connect) {
          c.source->send(frame);
        }
        status_.message(spec.text + ": sent " + std::to_string(options_.send_on_connect.size()) + " command(s)");
      }
      return;
    }
    if (status == OpenStatus::kPending) {
      return;  // still connecting
    }
    c.state = State::kWaiting;
    c.next_attempt = now + kRetryInterval;
    if (!c.ever_connected && !c.announced_waiting) {
      c.announced_waiting = true;
      status_.message(spec.text + ": waiting for it (" + c.source->last_problem() + ")");
    }
    if (!c.ever_connected && now - start_ >= options_.connect_timeout) {
      throw NotConnectedError(spec.text + ": could not connect within " +
                              format_seconds(seconds_between(start_, now)) + " (" +
                              (c.source->last_problem().empty() ? "no answer" : c.source->last_problem()) +
                              "); see --connect-timeout");
    }
  }

  // The interactive command line: whole lines typed so far, each sent to
  // every connected source that takes commands. At the end of stdin it stops
  // reading it.
  void read_command_line() {
    char bytes[256];
    const ssize_t n = ::read(STDIN_FILENO, bytes, sizeof bytes);
    if (n <= 0) {
      if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        stdin_open_ = false;
      }
      return;
    }
    typed_.append(bytes, static_cast<std::size_t>(n));
    for (std::size_t end = typed_.find('\n'); end != std::string::npos; end = typed_.find('\n')) {
      const std::string line = typed_.substr(0, end);
      typed_.erase(0, end + 1);
      if (line.find_first_not_of(" \t\r") == std::string::npos) {
        continue;
      }
      send_typed(line);
    }
  }

  void send_typed(const std::string& line) {
    std::vector<std::uint8_t> frame;
    try {
      frame = options_.command_line(line);
    } catch (const std::invalid_argument& e) {
      status_.message(std::string{"command not sent: "} + e.what(), true);
      return;
    }
    std::size_t sent = 0;
    for (Channel& c : channels_) {
      if (c.state == State::kOpen && c.source->writable()) {
        c.source->send(frame);
        ++sent;
      }
    }
    status_.message(sent == 0 ? "command not sent: no connected source takes commands"
                              : "sent '" + line + "' to " + std::to_string(sent) + " source(s)",
                    true);
  }

  void record_gap(std::size_t i, Clock::time_point now) {
    Channel& c = channels_[i];
    const bool cut = c.file && !c.file->at_frame_boundary();
    if (cut) {
      // Close the frame the loss cut short, so it cannot merge with the
      // first bytes after the gap; it shows as one undecodable frame.
      static constexpr std::uint8_t kDelimiter[1] = {0};
      c.file->write(kDelimiter);
    }
    ++gaps_;
    const std::string message = options_.sources[i].text + ": lost after " + std::to_string(c.bytes) + " bytes (" +
                                c.lost_reason + "), reconnected after " +
                                format_seconds(seconds_between(c.lost_at, now)) +
                                "; whatever the target sent meanwhile is missing" +
                                (cut ? " and the frame it cut is undecodable" : "");
    decoder_.gap(i, cut, message);
    status_.message("warning: " + message, true);
  }

  void read_channel(std::size_t i, int max_reads) {
    Channel& c = channels_[i];
    for (int k = 0; k < max_reads && !limit_reached(); ++k) {
      const ReadResult r = c.source->read({buffer_.get(), kReadSize});
      if (r.state == ReadResult::kData) {
        consume(i, {buffer_.get(), r.bytes});
        continue;
      }
      c.ready = false;
      if (r.state == ReadResult::kEnded) {
        lost(i, r.reason);
      }
      return;
    }
  }

  void consume(std::size_t i, std::span<const std::uint8_t> bytes) {
    Channel& c = channels_[i];
    if (options_.max_bytes) {
      const std::uint64_t room = *options_.max_bytes - total_bytes_;
      if (bytes.size() >= room) {
        bytes = bytes.first(static_cast<std::size_t>(room));
        stop(RecordingEnd::kMaxBytes, "--max-bytes reached");
      }
    }
    if (c.file) {
      c.file->write(bytes);
    }
    decoder_.push(i, bytes);
    c.bytes += bytes.size();
    total_bytes_ += bytes.size();
  }

  void lost(std::size_t i, const std::string& reason) {
    Channel& c = channels_[i];
    c.source->close();
    c.ready = false;
    if (options_.reconnect && options_.sources[i].kind != SourceKind::kStdin) {
      c.state = State::kWaiting;
      c.lost_at = Clock::now();
      c.lost_reason = reason;
      c.next_attempt = c.lost_at + kRetryInterval;  // a port that fails at once must not spin
      status_.message(options_.sources[i].text + ": " + reason + " after " + std::to_string(c.bytes) +
                      " bytes; reconnecting");
      return;
    }
    c.state = State::kEnded;
    status_.message(options_.sources[i].text + ": " + reason + " after " + std::to_string(c.bytes) + " bytes");
  }

  [[nodiscard]] bool limit_reached() const noexcept {
    return options_.max_bytes && total_bytes_ >= *options_.max_bytes;
  }

  void stop(RecordingEnd end, std::string reason) {
    if (!end_) {
      end_ = end;
      end_reason_ = std::move(reason);
    }
  }

  StatusFigures figures() const {
    StatusFigures f;
    f.bytes = total_bytes_;
    f.events = decoder_.events();
    f.dropped_events = decoder_.dropped_events();
    f.decode_errors = decoder_.decode_errors();
    f.link_checked = decoder_.link_checked();
    const LinkCheck::Totals link = decoder_.link_totals();
    f.link_lost = link.lost;
    f.link_corrupt = link.corrupt;
    f.last_event = decoder_.last_event();
    f.sources = channels_.size();
    f.sources_open = static_cast<std::size_t>(
        std::count_if(channels_.begin(), channels_.end(), [](const Channel& c) { return c.state == State::kOpen; }));
    return f;
  }

  void progress(bool ended) {
    decoder_.observe_names_now();
    RecordingProgress p;
    p.figures = figures();
    p.seconds = seconds_between(start_, Clock::now());
    p.gaps = gaps_;
    p.first_ts_ns = decoder_.first_ts_ns();
    p.last_ts_ns = decoder_.last_ts_ns();
    p.cores = decoder_.cores();
    p.diagnostics = &decoder_.diagnostics();
    for (const Channel& c : channels_) {
      p.files.push_back(c.file && !c.file->parts().empty() ? c.file->parts().back() : std::string{});
    }
    p.rotate_bytes = options_.rotate_bytes;
    p.compress = options_.compress;
    p.ended = ended;
    options_.on_progress(p);
  }

  RecordingResult finish() {
    status_.clear();
    RecordingResult result;
    for (Channel& c : channels_) {
      c.source->close();
      if (c.file) {
        c.file->start();  // a recording that ended normally has its file, however empty
        c.file->sync();
        result.parts.push_back(c.file->parts());
      } else {
        result.parts.emplace_back();
      }
    }
    decoder_.finish();
    if (options_.on_progress) {
      progress(true);  // the final figures, names and all
    }
    result.end = end_.value_or(RecordingEnd::kInputEnded);
    result.end_reason = end_reason_;
    result.bytes = total_bytes_;
    result.seconds = seconds_between(start_, Clock::now());
    result.events = decoder_.events();
    result.decode_errors = decoder_.decode_errors();
    result.dropped_events = decoder_.dropped_events();
    result.link_checked = decoder_.link_checked();
    result.link = decoder_.link_totals();
    result.gaps = gaps_;
    result.diagnostics = decoder_.diagnostics();
    return result;
  }

  const RecorderOptions& options_;
  std::string typed_;       // the command line's bytes after its last whole line
  bool stdin_open_ = true;  // the command line reads stdin until it ends
  SignalDescriptor signals_;
  LiveDecoder decoder_;
  StatusLine status_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::vector<Channel> channels_;
  Clock::time_point start_;
  std::uint64_t total_bytes_ = 0;
  std::uint64_t gaps_ = 0;
  Clock::time_point next_progress_{};
  std::optional<RecordingEnd> end_;
  std::string end_reason_;
};

}  // namespace

RecordingResult record(const RecorderOptions& options) {
  if (options.write_files && options.sources.size() != options.outputs.size()) {
    throw std::invalid_argument("record: one output per source");
  }
  Recorder recorder{options};
  return recorder.run();
}

}  // namespace tband::record
