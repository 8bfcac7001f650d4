// Whole recordings: stdin (a pipe this process fills first), a followed file
// and a local TCP server. Each ends on something already there when it starts
// (the end of the pipe, a byte limit, a pending signal, a duration of 0) or
// on bytes the server sends, never on how long something takes, so they pass
// on a busy machine.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "record/live_decoder.hpp"
#include "record/recorder.hpp"
#include "record/recording_file.hpp"
#include "record/source.hpp"
#include "scheduler_trace.hpp"

namespace tband::record {
namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace std::chrono_literals;

Bytes read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string fresh_path(const std::string& name) {
  const std::string path = test::temp_path(name);
  std::filesystem::remove(path);
  return path;
}

// The scheduler trace, events the target dropped and an undecodable frame.
Bytes trace() {
  test::TraceBuilder t = test::scheduler_trace();
  t.add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 205, 4); })
      .raw({0x05, 0x11, 0x22, 0x00})  // a COBS block promising 4 bytes, holding 2
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 220, 3); });
  return t.bytes();
}

// Standard input replaced by a pipe holding `bytes`, its write end closed
// (the input ends) or kept open (more could come).
class StdinPipe {
 public:
  StdinPipe(const Bytes& bytes, bool close_write_end) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    EXPECT_LT(bytes.size(), 65536U);  // fits in the pipe: written before anyone reads
    EXPECT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    saved_ = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    if (close_write_end) {
      ::close(fds[1]);
    } else {
      write_end_ = fds[1];
    }
  }
  ~StdinPipe() {
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
    if (write_end_ >= 0) {
      ::close(write_end_);
    }
  }
  StdinPipe(const StdinPipe&) = delete;
  StdinPipe& operator=(const StdinPipe&) = delete;

 private:
  int saved_ = -1;
  int write_end_ = -1;
};

RecorderOptions options_for(std::vector<std::string> sources, std::vector<std::string> outputs) {
  RecorderOptions o;
  for (const std::string& s : sources) {
    o.sources.push_back(parse_source_spec(s));
  }
  o.outputs = std::move(outputs);
  o.status = StatusMode::kQuiet;
  o.connect_timeout = 60s;
  return o;
}

// What `tband conv` would find in the bytes: all of them decoded at once.
struct Decoded {
  std::uint64_t events, decode_errors, dropped_events;
};
Decoded decoded_at_once(const Bytes& bytes) {
  LiveDecoder decoder{{parse_source_spec("-")}, TraceMode::kFreeRtos, nullptr};
  decoder.push(0, bytes);
  decoder.finish();
  return {decoder.events(), decoder.decode_errors(), decoder.dropped_events()};
}

TEST(RecorderStdin, RecordsUntilTheInputEnds) {
  const Bytes bytes = trace();
  const std::string out = fresh_path("stdin.bin");
  StdinPipe in{bytes, true};
  const RecordingResult r = record(options_for({"-"}, {out}));
  EXPECT_EQ(r.end, RecordingEnd::kInputEnded);
  EXPECT_EQ(r.end_reason, "the source ended");
  EXPECT_EQ(r.bytes, bytes.size());
  EXPECT_EQ(read_all(out), bytes);
  ASSERT_EQ(r.parts.size(), 1U);
  EXPECT_EQ(r.parts[0], std::vector<std::string>{out});
  const Decoded expected = decoded_at_once(bytes);
  EXPECT_EQ(r.events, expected.events);
  EXPECT_EQ(r.decode_errors, 1U);
  EXPECT_EQ(r.decode_errors, expected.decode_errors);
  EXPECT_EQ(r.dropped_events, 4U);
  EXPECT_EQ(r.diagnostics.count(DiagnosticKind::kDecodeError), 1U);
  EXPECT_EQ(r.diagnostics.count(DiagnosticKind::kDroppedEvents), 1U);
  EXPECT_EQ(r.gaps, 0U);
}

TEST(RecorderStdin, EmptyInputStillLeavesAFile) {
  const std::string out = fresh_path("stdin_empty.bin");
  write_file(out, {1, 2, 3});
  StdinPipe in{{}, true};
  const RecordingResult r = record(options_for({"-"}, {out}));
  EXPECT_EQ(r.end, RecordingEnd::kInputEnded);
  EXPECT_EQ(r.bytes, 0U);
  EXPECT_TRUE(std::filesystem::exists(out));
  EXPECT_TRUE(read_all(out).empty());
  EXPECT_EQ(r.events, 0U);
}

TEST(RecorderStdin, MaxBytes) {
  const Bytes bytes = trace();
  const std::string out = fresh_path("stdin_max.bin");
  StdinPipe in{bytes, false};
  RecorderOptions o = options_for({"-"}, {out});
  o.max_bytes = 37;
  const RecordingResult r = record(o);
  EXPECT_EQ(r.end, RecordingEnd::kMaxBytes);
  EXPECT_EQ(r.end_reason, "--max-bytes reached");
  EXPECT_EQ(r.bytes, 37U);
  EXPECT_EQ(read_all(out), Bytes(bytes.begin(), bytes.begin() + 37));
}

TEST(RecorderStdin, DurationOfZeroStillTakesWhatHadArrived) {
  const Bytes bytes = trace();
  const std::string out = fresh_path("stdin_duration.bin");
  StdinPipe in{bytes, false};
  RecorderOptions o = options_for({"-"}, {out});
  o.duration = 0ms;
  const RecordingResult r = record(o);
  EXPECT_EQ(r.end, RecordingEnd::kDuration);
  EXPECT_EQ(r.end_reason, "--duration reached");
  EXPECT_EQ(read_all(out), bytes);
  EXPECT_EQ(r.events, decoded_at_once(bytes).events);
}

// A signal already pending when the recording starts: it ends at once, with
// what the pipe held recorded.
void record_with_pending_signal(int signal, const char* name) {
  const Bytes bytes = trace();
  const std::string out = fresh_path(std::string{"stdin_"} + name + ".bin");
  StdinPipe in{bytes, false};
  sigset_t only{};
  sigset_t saved{};
  sigemptyset(&only);
  sigaddset(&only, signal);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &only, &saved), 0);
  ASSERT_EQ(::pthread_kill(::pthread_self(), signal), 0);
  RecordingResult r;
  EXPECT_NO_THROW(r = record(options_for({"-"}, {out})));
  sigset_t pending{};
  sigpending(&pending);
  const bool still_pending = sigismember(&pending, signal) == 1;
  if (still_pending) {
    timespec zero{};
    (void)::sigtimedwait(&only, nullptr, &zero);  // never let it through
  }
  ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  EXPECT_FALSE(still_pending) << "the recorder did not take the signal";
  EXPECT_EQ(r.end, RecordingEnd::kSignal);
  EXPECT_EQ(r.end_reason, name);
  EXPECT_EQ(read_all(out), bytes);
}

TEST(RecorderSignal, Sigint) { record_with_pending_signal(SIGINT, "SIGINT"); }
TEST(RecorderSignal, Sigterm) { record_with_pending_signal(SIGTERM, "SIGTERM"); }

TEST(RecorderStdin, RotationParts) {
  const Bytes bytes = trace();
  const std::string out = fresh_path("stdin_rotate.bin");
  StdinPipe in{bytes, true};
  RecorderOptions o = options_for({"-"}, {out});
  o.rotate_bytes = 200;
  const RecordingResult r = record(o);
  ASSERT_EQ(r.parts.size(), 1U);
  ASSERT_GE(r.parts[0].size(), bytes.size() / 250);
  Bytes joined;
  for (std::size_t i = 0; i < r.parts[0].size(); ++i) {
    EXPECT_EQ(r.parts[0][i], RecordingFile::part_path(out, i));
    const Bytes part = read_all(r.parts[0][i]);
    if (i + 1 < r.parts[0].size()) {
      EXPECT_GE(part.size(), 200U);
      EXPECT_EQ(part.back(), 0) << "part " << i << " ends at a frame";
    }
    joined.insert(joined.end(), part.begin(), part.end());
  }
  EXPECT_EQ(joined, bytes);
}

TEST(RecorderSources, StdinAndAFollowedFile) {
  const Bytes a = trace();
  const Bytes b = test::scheduler_trace().bytes();
  const std::string followed = fresh_path("followed_input.bin");
  write_file(followed, b);
  const std::string out_a = fresh_path("two_a.bin");
  const std::string out_b = fresh_path("two_b.bin");
  StdinPipe in{a, true};
  // A followed file never ends by itself: the byte limit of both ends it.
  RecorderOptions o = options_for({"-@0", "file:" + followed + "@1"}, {out_a, out_b});
  o.max_bytes = a.size() + b.size();
  const RecordingResult r = record(o);
  EXPECT_EQ(r.end, RecordingEnd::kMaxBytes);
  EXPECT_EQ(read_all(out_a), a);
  EXPECT_EQ(read_all(out_b), b);
  ASSERT_EQ(r.parts.size(), 2U);
  EXPECT_EQ(r.parts[1], std::vector<std::string>{out_b});
  EXPECT_EQ(r.bytes, a.size() + b.size());
  EXPECT_EQ(r.decode_errors, 1U);
  EXPECT_GT(r.events, decoded_at_once(a).events);
}

// The message of the `Error` record() throws ("no error" if it records).
template <class Error>
std::string error_of(const RecorderOptions& options) {
  try {
    (void)record(options);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(RecorderErrors, OneOutputPerSource) {
  EXPECT_EQ(error_of<std::invalid_argument>(options_for({"-"}, {})), "record: one output per source");
}

TEST(RecorderErrors, NeverConnectedLeavesTheOldFile) {
  const std::string missing = fresh_path("never_there.bin");
  const std::string out = fresh_path("never_connected.bin");
  write_file(out, {9, 9, 0});
  RecorderOptions o = options_for({"file:" + missing}, {out});
  o.connect_timeout = 0ms;
  const std::string message = error_of<NotConnectedError>(o);
  const std::string expected = "file:" + missing + ": could not connect within [0-9]+\\.[0-9] s \\(" + missing +
                               ": No such file or directory\\); see --connect-timeout";
  EXPECT_TRUE(std::regex_match(message, std::regex{expected})) << message;
  EXPECT_EQ(read_all(out), (Bytes{9, 9, 0}));
}

TEST(RecorderErrors, NotASerialPort) {
  const std::string out = fresh_path("not_serial.bin");
  EXPECT_EQ(error_of<SourceError>(options_for({"serial:/dev/null"}, {out})),
            "serial:/dev/null: not a serial port: Inappropriate ioctl for device");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(RecorderErrors, OutputCannotBeCreated) {
  const std::string out = test::temp_path("no_such_folder") + "/trace.bin";
  StdinPipe in{trace(), true};
  EXPECT_EQ(error_of<OutputError>(options_for({"-"}, {out})),
            out + ": cannot create the recording: No such file or directory");
}

// A TCP server on 127.0.0.1 that hands out one prepared byte string per
// connection and closes it.
class LocalServer {
 public:
  LocalServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(fd_, 4), 0);
    socklen_t size = sizeof addr;
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &size), 0);
    port_ = ntohs(addr.sin_port);
  }
  ~LocalServer() { ::close(fd_); }
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  [[nodiscard]] int port() const noexcept { return port_; }

  /// Accepts a connection (waiting at most a minute: a broken recorder must
  /// not hang the test), sends `bytes` and closes it.
  bool serve_once(const Bytes& bytes) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 60000) != 1) {
      return false;
    }
    const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) {
      return false;
    }
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(c, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) {
        break;
      }
      sent += static_cast<std::size_t>(n);
    }
    ::close(c);
    return sent == bytes.size();
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(RecorderTcp, RecordsWhatTheServerSends) {
  const Bytes bytes = trace();
  LocalServer server;
  bool served = false;
  std::thread thread{[&] { served = server.serve_once(bytes); }};
  const std::string out = fresh_path("tcp.bin");
  RecordingResult r;
  EXPECT_NO_THROW(r = record(options_for({"tcp:127.0.0.1:" + std::to_string(server.port())}, {out})));
  thread.join();
  EXPECT_TRUE(served);
  EXPECT_EQ(r.end, RecordingEnd::kInputEnded);
  EXPECT_EQ(read_all(out), bytes);
  EXPECT_EQ(r.events, decoded_at_once(bytes).events);
}

TEST(RecorderTcp, ReconnectAfterALossInTheMiddleOfAFrame) {
  const Bytes bytes = trace();
  // Cut inside the 21st frame.
  std::size_t frames = 0;
  std::size_t cut = 0;
  while (frames < 20 || bytes[cut] == 0) {
    frames += bytes[cut] == 0 ? 1 : 0;
    ++cut;
  }
  cut += 2;
  ASSERT_NE(bytes[cut - 1], 0);
  const Bytes first(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
  // The rest of that frame is lost with the connection; the next one starts after its delimiter.
  std::size_t next = cut;
  while (bytes[next] != 0) {
    ++next;
  }
  const Bytes second(bytes.begin() + static_cast<std::ptrdiff_t>(next + 1), bytes.end());

  LocalServer server;
  bool served = false;
  std::thread thread{[&] { served = server.serve_once(first) && server.serve_once(second); }};
  const std::string source = "tcp:127.0.0.1:" + std::to_string(server.port());
  const std::string out = fresh_path("tcp_gap.bin");
  RecorderOptions o = options_for({source}, {out});
  o.reconnect = true;
  o.max_bytes = first.size() + second.size();  // with --reconnect only a limit ends it
  RecordingResult r;
  EXPECT_NO_THROW(r = record(o));
  thread.join();
  EXPECT_TRUE(served);
  EXPECT_EQ(r.end, RecordingEnd::kMaxBytes);
  EXPECT_EQ(r.gaps, 1U);
  EXPECT_EQ(r.bytes, first.size() + second.size());  // the delimiter the recorder adds is not counted

  Bytes file = first;
  file.push_back(0);  // ends the cut frame
  file.insert(file.end(), second.begin(), second.end());
  EXPECT_EQ(read_all(out), file);

  EXPECT_EQ(r.decode_errors, decoded_at_once(file).decode_errors);
  EXPECT_EQ(r.decode_errors, 2U);  // the cut frame and the trace's own broken one
  EXPECT_EQ(r.events, decoded_at_once(file).events);
  ASSERT_EQ(r.diagnostics.count(DiagnosticKind::kCaptureGap), 1U);
  std::string message;
  for (const Diagnostic& d : r.diagnostics.kept()) {
    if (d.kind == DiagnosticKind::kCaptureGap) {
      message = d.message;
    }
  }
  const std::string expected = std::regex_replace(source, std::regex{"\\."}, "\\.") + ": lost after " +
                               std::to_string(first.size()) +
                               " bytes \\(end of input\\), reconnected after [0-9]+\\.[0-9] s; whatever the target "
                               "sent meanwhile is missing and the frame it cut is undecodable";
  EXPECT_TRUE(std::regex_match(message, std::regex{expected})) << message;
}

}  // namespace
}  // namespace tband::record
