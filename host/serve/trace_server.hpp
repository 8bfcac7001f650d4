// Serves one trace file over HTTP on loopback, the way ui.perfetto.dev loads
// traces from a local server: the UI fetches the file from
// http://127.0.0.1:PORT/NAME, which needs a CORS header naming the UI's origin.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace tband {

/// The one port ui.perfetto.dev fetches traces from (its content security
/// policy allows http://127.0.0.1:9001 only).
inline constexpr int kPerfettoPort = 9001;

/// A file the server will not serve: not a regular file (a FIFO, a device),
/// or too large to hold in memory. A usage error, not a server failure.
class UnservableFile : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Serves at most this many bytes: the file is held in memory.
inline constexpr std::uint64_t kMaxServedBytes = std::uint64_t{2} << 30;
/// Connections served at once, a thread each: enough that idle or slow
/// clients do not keep a real request waiting; more wait for one to close.
inline constexpr std::size_t kMaxConnections = 256;
/// An idle connection (no request, or none after the last response) and a
/// stalled read are closed after this long.
inline constexpr int kIdleTimeoutSeconds = 2;

struct ServeOptions {
  std::string path;  // the file to serve
  std::string host = "127.0.0.1";
  int port = kPerfettoPort;  // 0: any free port
  bool once = false;  // stop after the trace was fetched once
  std::string allowed_origin = "https://ui.perfetto.dev";
};

class TraceServer {
 public:
  /// Reads the file (its size at open: a file that grows is served as it was)
  /// and binds the port. Throws UnservableFile for a file that is not a
  /// regular one or is over kMaxServedBytes, std::invalid_argument for a port
  /// outside 0-65535, std::runtime_error with a one-line reason otherwise
  /// (file unreadable, port taken).
  explicit TraceServer(ServeOptions options);
  ~TraceServer();
  TraceServer(const TraceServer&) = delete;
  TraceServer& operator=(const TraceServer&) = delete;

  [[nodiscard]] int port() const noexcept;
  /// http://127.0.0.1:PORT/NAME
  [[nodiscard]] std::string trace_url() const;
  /// The ui.perfetto.dev link that opens the trace.
  [[nodiscard]] std::string perfetto_url() const;
  /// Whether ui.perfetto.dev can fetch from this server (port 9001 only).
  [[nodiscard]] bool perfetto_can_fetch() const noexcept { return port() == kPerfettoPort; }
  /// http://127.0.0.1:PORT/ : a page that explains what is served and links to it.
  [[nodiscard]] std::string index_url() const;

  /// Serves until stop(), or until the trace was fetched once with `once`.
  void run();
  void stop();
  [[nodiscard]] std::uint64_t fetches() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tband
