// tband serve (and conv --serve/--open): serve a trace with a page that opens
// it in ui.perfetto.dev (any port), or serve the web converter page (--web).
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "cli/commands.hpp"
#include "serve/opener_page.hpp"
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

// Where --web looks without a DIR: the installed page (PREFIX/share/tband/web
// next to PREFIX/bin/tband), then the web build next to this build tree
// (scripts/build_web.sh writes build-web/web/ beside build/host/cli/tband).
std::vector<std::filesystem::path> web_dir_candidates() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    return {};
  }
  const std::filesystem::path dir = exe.parent_path();
  return {dir / ".." / "share" / "tband" / "web", dir / ".." / ".." / ".." / "build-web" / "web"};
}

}  // namespace

int serve_file(const ServeCmdOptions& cmd) {
  ServeOptions options;
  options.path = cmd.file;
  options.port = cmd.port;
  options.once = cmd.once;
  options.ui_url = cmd.ui_url;
  options.allowed_origin = url_origin(cmd.ui_url);
  if (cmd.web) {
    options.web_dir = cmd.web_dir;
    if (options.web_dir.empty()) {
      std::string looked;
      for (const std::filesystem::path& candidate : web_dir_candidates()) {
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate / "index.html", error)) {
          options.web_dir = candidate.lexically_normal().string();
          break;
        }
        looked += (looked.empty() ? "" : ", ") + candidate.lexically_normal().string();
      }
      if (options.web_dir.empty()) {
        std::cerr << "tband serve: error: no web converter page found (looked in " << looked
                  << "); build it with scripts/build_web.sh, or give its directory: --web DIR\n";
        return kExitUsage;
      }
    }
  }
  try {
    TraceServer server{options};
    if (cmd.web) {
      std::cerr << "tband serve: serving " << options.web_dir << "\n";
      std::cout << "Web converter: " << server.index_url() << std::endl;
    } else {
      std::cerr << "tband serve: serving " << cmd.file << " at " << server.trace_url() << "\n";
      // The page hands the trace to the UI by postMessage: any port works.
      std::cout << "Open in Perfetto: " << server.index_url() << std::endl;
      if (server.perfetto_can_fetch()) {
        std::cout << "Or the UI's own link (port " << kPerfettoPort << " only): " << server.perfetto_url()
                  << std::endl;
      }
    }
    if (cmd.open && !open_in_browser(server.index_url())) {
      std::cerr << "tband serve: no browser found (xdg-open); open the link above by hand\n";
    }
    if (!cmd.once) {
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
