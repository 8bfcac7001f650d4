#include "view/view_server.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <httplib.h>
#include <csignal>
#include <pthread.h>
#include <sys/socket.h>

#include "serve/trace_server.hpp"

namespace tband::view {

ViewAddress parse_view_address(const std::string& text) {
  ViewAddress a;
  if (text.empty()) {
    return a;
  }
  std::string port = text;
  if (const std::size_t colon = text.rfind(':'); colon != std::string::npos) {
    a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (a.host.empty()) {
      throw std::invalid_argument("--view " + text + ": no address before ':'");
    }
  }
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535) {
    throw std::invalid_argument("--view " + text + ": the port must be a number from 0 to 65535 ([ADDR:]PORT)");
  }
  a.port = std::stoi(port);
  return a;
}

namespace {

/// Snapshots a client waits at most for before it is sent a comment line,
/// which finds a client that has gone away.
constexpr std::chrono::milliseconds kKeepAlive{1000};
/// Connections served at once (each event stream holds one thread).
constexpr std::size_t kThreads = 16;

}  // namespace

struct ViewServer::Impl {
  SnapshotSlot* slot = nullptr;
  httplib::Server server;
  std::thread thread;
  std::string host;
  int port = 0;
  mutable std::mutex mutex;
  std::condition_variable delivered;
  std::map<std::uint64_t, std::uint64_t> streams;  // stream id -> the version it was sent
  std::uint64_t next_stream = 0;
};

ViewServer::ViewServer(ViewAddress address, SnapshotSlot& slot) : impl_(std::make_unique<Impl>()) {
  Impl* impl = impl_.get();
  impl->slot = &slot;
  impl->host = address.host;
  impl->server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    res.set_content(view_page(), "text/html; charset=utf-8");
  });
  impl->server.Get("/snapshot", [impl](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    const auto s = impl->slot->latest();
    res.set_content(s ? *s : std::string{"null"}, "application/json");
  });
  impl->server.Get("/viewers", [impl](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    const std::lock_guard lock{impl->mutex};
    res.set_content(std::to_string(impl->streams.size()) + "\n", "text/plain");
  });
  impl->server.Get("/events", [impl](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    std::uint64_t id = 0;
    {
      const std::lock_guard lock{impl->mutex};
      id = impl->next_stream++;
      impl->streams[id] = 0;
    }
    // The provider runs until the client goes or the server stops; each
    // call sends the newest snapshot (waiting a little for one).
    res.set_chunked_content_provider(
        "text/event-stream",
        [impl, id, seen = std::uint64_t{0}](std::size_t, httplib::DataSink& sink) mutable {
          const auto s = impl->slot->wait_newer(seen, kKeepAlive);
          if (!s && impl->slot->closed()) {
            sink.done();  // the recording ended and its last snapshot was sent
            return true;
          }
          if (!s) {
            static constexpr char kPing[] = ": ping\n\n";
            return sink.write(kPing, sizeof kPing - 1);
          }
          const std::string head = "data: ";
          if (!sink.write(head.data(), head.size()) || !sink.write(s->data(), s->size()) || !sink.write("\n\n", 2)) {
            return false;
          }
          {
            const std::lock_guard lock{impl->mutex};
            impl->streams[id] = seen;
          }
          impl->delivered.notify_all();
          return true;
        },
        [impl, id](bool) {
          {
            const std::lock_guard lock{impl->mutex};
            impl->streams.erase(id);
          }
          impl->delivered.notify_all();
        });
  });
  impl->server.new_task_queue = [] { return new httplib::ThreadPool(kThreads); };
  impl->server.set_keep_alive_timeout(kIdleTimeoutSeconds);
  impl->server.set_read_timeout(kIdleTimeoutSeconds, 0);
  impl->server.set_write_timeout(kIdleTimeoutSeconds, 0);  // a client that stopped reading is let go
  impl->server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  if (address.port == 0) {
    impl->port = impl->server.bind_to_any_port(address.host);
  } else if (impl->server.bind_to_port(address.host, address.port)) {
    impl->port = address.port;
  } else {
    impl->port = -1;
  }
  if (impl->port <= 0) {
    throw std::runtime_error("--view: cannot listen on " + address.host + ":" + std::to_string(address.port) +
                             " (port in use, or not an address of this machine?)");
  }
  impl->thread = std::thread([impl] {
    // SIGINT and SIGTERM are the recording's (it takes them from a signalfd,
    // blocked on its thread only): none of the server's threads, which
    // inherit this mask, may take them with the default action.
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
    impl->server.listen_after_bind();
  });
}

ViewServer::~ViewServer() {
  impl_->slot->close();
  impl_->server.stop();
  if (impl_->thread.joinable()) {
    impl_->thread.join();
  }
}

std::string ViewServer::url() const {
  const bool v6 = impl_->host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + impl_->host + "]" : impl_->host) + ":" + std::to_string(impl_->port) + "/";
}

void ViewServer::wait_delivered(std::chrono::milliseconds timeout) {
  const std::uint64_t version = impl_->slot->version();
  std::unique_lock lock{impl_->mutex};
  impl_->delivered.wait_for(lock, timeout, [&] {
    for (const auto& [id, seen] : impl_->streams) {
      if (seen < version) {
        return false;
      }
    }
    return true;
  });
}

std::uint64_t ViewServer::clients() const {
  const std::lock_guard lock{impl_->mutex};
  return impl_->streams.size();
}

}  // namespace tband::view
