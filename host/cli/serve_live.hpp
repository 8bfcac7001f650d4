// tband serve --live FILE --view [ADDR:PORT]: follow a raw trace that is
// still growing (written by another recorder), decode it as it grows and
// show the live view (record --view's page) of it. Nothing is written.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tband::cli {

struct ServeLiveOptions {
  bool live = false;
  std::string view_at;  // [ADDR:]PORT; "" for 127.0.0.1 and a free port
  CLI::Option* view = nullptr;
  std::string mode = "freertos";
  std::uint64_t ts_resolution_ns = 0;  // --ts-resolution-ns; 0: not given
};

/// Adds --live, --view, --mode and --ts-resolution-ns to `serve`.
void add_serve_live_options(CLI::App& serve, ServeLiveOptions& options);
/// True when --live or --view was given (serve runs the live view, not the file server).
[[nodiscard]] bool serve_live_wanted(const ServeLiveOptions& options);
/// Follows `file` until SIGINT/SIGTERM; an exit code.
int serve_live(const std::string& file, const ServeLiveOptions& options);

}  // namespace tband::cli
