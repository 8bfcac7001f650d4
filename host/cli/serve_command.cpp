// tband serve (and conv --serve/--open): serve a trace to ui.perfetto.dev.
#include <cstdlib>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "serve/trace_server.hpp"

namespace tband::cli {

namespace {

// Starts the desktop's browser without waiting for it; false if none is known.
bool open_in_browser(const std::string& url) {
  if (std::system("command -v xdg-open >/dev/null 2>&1") != 0) {
    return false;
  }
  return std::system(("xdg-open '" + url + "' >/dev/null 2>&1 &").c_str()) == 0;
}

}  // namespace

int serve_file(const std::string& file, int port, bool once, bool open) {
  ServeOptions options;
  options.path = file;
  options.port = port;
  options.once = once;
  try {
    TraceServer server{options};
    std::cerr << "tband serve: serving " << file << " at " << server.trace_url() << " (about it: "
              << server.index_url() << ")\n";
    if (!server.perfetto_can_fetch()) {
      std::cerr << "tband serve: warning: ui.perfetto.dev fetches traces only from port " << kPerfettoPort
                << ", so the link below will not load the trace; serve on port " << kPerfettoPort
                << ", or download it from " << server.index_url() << " and open it in the UI by hand\n";
    }
    std::cout << "Open in Perfetto: " << server.perfetto_url() << std::endl;
    // On another port the page at "/" says what to do; the UI's link would not load.
    if (open && !open_in_browser(server.perfetto_can_fetch() ? server.perfetto_url() : server.index_url())) {
      std::cerr << "tband serve: no browser found (xdg-open); open the link above by hand\n";
    }
    if (!once) {
      std::cerr << "tband serve: press Ctrl+C to stop\n";
    }
    server.run();
  } catch (const UnservableFile& e) {
    std::cerr << "tband serve: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "tband serve: error: " << e.what() << "\n";
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace tband::cli
