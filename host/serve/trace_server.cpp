#include "serve/trace_server.hpp"

#include <filesystem>
#include <optional>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <httplib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/opener_page.hpp"
#include "serve/static_files.hpp"

namespace tband {

namespace {

// httplib listens with a backlog of 5: clients connecting faster than it
// accepts (a browser's parallel connections, a burst) had their SYNs dropped
// and retried a second later. This one can listen again with a longer queue.
class ListeningServer : public httplib::Server {
 public:
  void lengthen_listen_queue() const { ::listen(svr_sock_, SOMAXCONN); }
};

}  // namespace

struct TraceServer::Impl {
  ServeOptions options;
  std::string body;
  std::string name;  // the URL path component
  ListeningServer server;
  int port = 0;
  std::atomic<std::uint64_t> fetches{0};
  std::thread stopper;  // with `once`: stops the server after the first fetch
};

namespace {

// httplib's default pool has 8 threads, each held by a connection until it
// closes: 8 idle clients kept every request waiting. Here each connection
// gets a thread of its own, up to kMaxConnections at once; beyond that they
// wait their turn, which comes within the idle timeout.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  explicit ConnectionThreads(std::size_t max_threads) : max_threads_(max_threads) {}
  ~ConnectionThreads() override { shutdown(); }
  ConnectionThreads(const ConnectionThreads&) = delete;
  ConnectionThreads& operator=(const ConnectionThreads&) = delete;

  void enqueue(std::function<void()> fn) override {
    std::list<Worker> finished;
    {
      const std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(fn));
      finished = take_finished();
      if (workers_.size() < max_threads_) {
        Worker& worker = workers_.emplace_back();
        worker.thread = std::thread([this, &worker] { work(worker); });
      }
    }
    join(finished);
  }

  // Runs what is queued (httplib's jobs then only close their sockets), then
  // waits for every thread.
  void shutdown() override {
    std::list<Worker> all;
    {
      const std::lock_guard lock(mutex_);
      all.splice(all.end(), workers_);
    }
    join(all);
  }

 private:
  struct Worker {
    std::thread thread;
    bool done = false;
  };

  void work(Worker& self) {
    std::unique_lock lock(mutex_);
    while (!jobs_.empty()) {
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
    self.done = true;  // joined by the next enqueue() or shutdown()
  }
  std::list<Worker> take_finished() {
    std::list<Worker> finished;
    for (auto it = workers_.begin(); it != workers_.end();) {
      const auto next = std::next(it);
      if (it->done) {
        finished.splice(finished.end(), workers_, it);
      }
      it = next;
    }
    return finished;
  }
  static void join(std::list<Worker>& workers) {
    for (Worker& w : workers) {
      w.thread.join();
    }
  }

  const std::size_t max_threads_;
  std::mutex mutex_;
  std::deque<std::function<void()>> jobs_;
  std::list<Worker> workers_;  // a list: a thread's own entry stays where it is
};

// The file's bytes as they are now: a regular file only (a FIFO or a device
// such as /dev/zero would block or never end), read up to its size at open.
// A FIFO is refused before it is opened: opening it would wake a writer
// waiting on it, only to break its pipe.
std::string read_served_file(const std::string& path) {
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode)) {
    throw UnservableFile(path + ": not a regular file; serve a converted trace file (.pftrace or .json)");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    throw std::runtime_error(path + ": cannot open");
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw UnservableFile(path + ": not a regular file; serve a converted trace file (.pftrace or .json)");
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > kMaxServedBytes) {
    ::close(fd);
    throw UnservableFile(path + ": " + std::to_string(size) + " bytes, more than the " +
                         std::to_string(kMaxServedBytes >> 30) + " GiB tband serves");
  }
  std::string body(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  while (got < body.size()) {
    const ssize_t n = ::read(fd, body.data() + got, body.size() - got);
    if (n < 0) {
      ::close(fd);
      throw std::runtime_error(path + ": read failed");
    }
    if (n == 0) {
      break;  // shrank since fstat: serve what there is
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  body.resize(got);
  return body;
}

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

}  // namespace

TraceServer::TraceServer(ServeOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  if (impl_->options.port < 0 || impl_->options.port > 65535) {
    throw std::invalid_argument("port " + std::to_string(impl_->options.port) + " is not between 1 and 65535");
  }
  Impl* impl = impl_.get();
  if (impl->options.web_dir.empty()) {
    serve_trace();
  } else {
    serve_directory();
  }

  impl->server.new_task_queue = [] { return new ConnectionThreads(kMaxConnections); };
  impl->server.set_keep_alive_timeout(kIdleTimeoutSeconds);
  impl->server.set_read_timeout(kIdleTimeoutSeconds, 0);
  impl->server.set_write_timeout(kIdleTimeoutSeconds * 5, 0);  // a slow reader of a large trace

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
  impl->server.lengthen_listen_queue();
}

TraceServer::~TraceServer() {
  stop();
  if (impl_->stopper.joinable()) {
    impl_->stopper.join();
  }
}

void TraceServer::serve_trace() {
  Impl* impl = impl_.get();
  impl->body = read_served_file(impl->options.path);
  impl->name = base_name(impl->options.path);
  const auto cors = [impl](httplib::Response& res) {
    res.set_header("Access-Control-Allow-Origin", impl->options.allowed_origin);
    res.set_header("Access-Control-Allow-Methods", "GET, OPTIONS");
    res.set_header("Cache-Control", "no-cache");
  };
  impl->server.Get("/", [this, impl](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    const OpenerPage page{impl->name, impl->body.size(), impl->options.ui_url,
                          perfetto_can_fetch() ? perfetto_url() : std::string{}};
    res.set_content(opener_page_html(page), "text/html; charset=utf-8");
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
}

// Every GET is a file under the directory or a 404; files are read per
// request (what is there now), within the same limits as a trace.
void TraceServer::serve_directory() {
  Impl* impl = impl_.get();
  std::error_code error;
  const std::filesystem::path root = std::filesystem::canonical(impl->options.web_dir, error);
  if (error || !std::filesystem::is_directory(root, error)) {
    throw UnservableFile(impl->options.web_dir + ": not a directory");
  }
  impl->name.clear();
  impl->server.Get(".*", [impl, root](const httplib::Request& req, httplib::Response& res) {
    const std::optional<std::filesystem::path> file = static_file(root, req.path);
    if (!file) {
      res.status = 404;
      res.set_content("not found\n", "text/plain");
      return;
    }
    try {
      res.set_content(read_served_file(file->string()), static_content_type(*file));
      res.set_header("Cache-Control", "no-cache");
      impl->fetches.fetch_add(1);
    } catch (const std::exception&) {
      res.status = 404;  // gone, or not regular, since it was resolved
      res.set_content("not found\n", "text/plain");
    }
  });
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
