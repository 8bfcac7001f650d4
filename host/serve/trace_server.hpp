// Serves one trace file over HTTP on loopback, with a page at "/" that hands
// it to ui.perfetto.dev by postMessage (serve/opener_page.hpp: any port);
// on port 9001 the UI's own ?url= link works too (the UI fetches
// http://127.0.0.1:9001/NAME, with a CORS header naming the UI's origin).
// Or, with web_dir, a directory of static files (tband serve --web).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace tband {

/// The one port ui.perfetto.dev fetches ?url= traces from (its content
/// security policy allows http://127.0.0.1:9001 only); the page at "/" works
/// on any port.
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
  std::string ui_url = "https://ui.perfetto.dev";  // the UI the page at "/" opens (tests: a stand-in)
  std::string allowed_origin = "https://ui.perfetto.dev";  // CORS, for the UI's ?url= fetch
  std::string web_dir;  // if set: serve this directory's files instead of `path` (no trace, no `once`)
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
  /// The UI's ?url= link that opens the trace (works on port 9001 only).
  [[nodiscard]] std::string perfetto_url() const;
  /// Whether ui.perfetto.dev can fetch from this server (port 9001 only).
  [[nodiscard]] bool perfetto_can_fetch() const noexcept { return port() == kPerfettoPort; }
  /// http://127.0.0.1:PORT/ : the page that opens the trace in the UI (or
  /// the web directory's index.html).
  [[nodiscard]] std::string index_url() const;

  /// Serves until stop(), or until the trace was fetched once with `once`.
  void run();
  void stop();
  [[nodiscard]] std::uint64_t fetches() const noexcept;

 private:
  void serve_trace();
  void serve_directory();

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tband
