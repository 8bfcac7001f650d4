#include "serve/trace_server.hpp"

#include <atomic>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

#include <httplib.h>
#include <sys/socket.h>

namespace tband {

struct TraceServer::Impl {
  ServeOptions options;
  std::string body;
  std::string name;  // the URL path component
  httplib::Server server;
  int port = 0;
  std::atomic<std::uint64_t> fetches{0};
  std::thread stopper;  // with `once`: stops the server after the first fetch
};

namespace {

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // Keep the URL simple: anything unusual becomes '_'.
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_';
    if (!ok) {
      c = '_';
    }
  }
  return name.empty() ? std::string{"trace.pftrace"} : name;
}

// The page at "/": what is served, the link that opens it in the UI, and
// what to do instead when the UI cannot fetch from this port. (`name` holds
// only URL-safe characters, so it goes into HTML as it is.)
std::string index_page(const TraceServer& server, const std::string& name, std::size_t bytes) {
  std::string page =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tband serve: " + name +
      "</title></head>\n<body>\n<h1>tband serve</h1>\n<p>Serving <a href=\"/" + name + "\">" + name + "</a> (" +
      std::to_string(bytes) + " bytes).</p>\n";
  if (server.perfetto_can_fetch()) {
    page += "<p><a href=\"" + server.perfetto_url() + "\">Open it in ui.perfetto.dev</a>.</p>\n";
  } else {
    page += "<p>ui.perfetto.dev fetches traces only from 127.0.0.1:" + std::to_string(kPerfettoPort) +
            ", not from port " + std::to_string(server.port()) + ": serve on port " +
            std::to_string(kPerfettoPort) + " (<code>tband serve --port " + std::to_string(kPerfettoPort) +
            "</code>) for a link that opens it, or download <a href=\"/" + name +
            "\">the file</a> and open it in <a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a> with "
            "&ldquo;Open trace file&rdquo;.</p>\n";
  }
  return page + "</body></html>\n";
}

}  // namespace

TraceServer::TraceServer(ServeOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  std::ifstream in(impl_->options.path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(impl_->options.path + ": cannot open");
  }
  impl_->body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  impl_->name = base_name(impl_->options.path);

  Impl* impl = impl_.get();
  const auto cors = [impl](httplib::Response& res) {
    res.set_header("Access-Control-Allow-Origin", impl->options.allowed_origin);
    res.set_header("Access-Control-Allow-Methods", "GET, OPTIONS");
    res.set_header("Cache-Control", "no-cache");
  };
  impl->server.Get("/", [this, impl](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    res.set_content(index_page(*this, impl->name, impl->body.size()), "text/html; charset=utf-8");
  });
  impl->server.Options("/" + impl->name, [cors](const httplib::Request&, httplib::Response& res) { cors(res); });
  impl->server.Get("/" + impl->name, [impl, cors](const httplib::Request&, httplib::Response& res) {
    cors(res);
    res.set_content(impl->body, "application/octet-stream");
    if (impl->fetches.fetch_add(1) == 0 && impl->options.once) {
      // From another thread: stop() waits for this response to be sent.
      impl->stopper = std::thread([impl] { impl->server.stop(); });
    }
  });

  // httplib's default also sets SO_REUSEPORT, which would let a second
  // server share a busy port silently; a taken port must be an error.
  impl->server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  if (impl->options.port == 0) {
    impl->port = impl->server.bind_to_any_port(impl->options.host);
  } else if (impl->server.bind_to_port(impl->options.host, impl->options.port)) {
    impl->port = impl->options.port;
  } else {
    impl->port = -1;
  }
  if (impl->port <= 0) {
    throw std::runtime_error("cannot listen on " + impl->options.host + ":" + std::to_string(impl->options.port) +
                             " (port in use?)");
  }
}

TraceServer::~TraceServer() {
  stop();
  if (impl_->stopper.joinable()) {
    impl_->stopper.join();
  }
}

int TraceServer::port() const noexcept { return impl_->port; }

std::string TraceServer::trace_url() const {
  return "http://" + impl_->options.host + ":" + std::to_string(impl_->port) + "/" + impl_->name;
}

std::string TraceServer::index_url() const {
  return "http://" + impl_->options.host + ":" + std::to_string(impl_->port) + "/";
}

std::string TraceServer::perfetto_url() const { return "https://ui.perfetto.dev/#!/?url=" + trace_url(); }

void TraceServer::run() { impl_->server.listen_after_bind(); }

void TraceServer::stop() { impl_->server.stop(); }

std::uint64_t TraceServer::fetches() const noexcept { return impl_->fetches.load(); }

}  // namespace tband
