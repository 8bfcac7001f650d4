#include "serve/static_files.hpp"

#include <algorithm>
#include <array>
#include <system_error>
#include <utility>

namespace tband {

namespace fs = std::filesystem;

std::optional<fs::path> static_file(const fs::path& root, std::string_view url_path) {
  if (url_path.empty() || url_path.front() != '/' || url_path.find('\0') != std::string_view::npos ||
      url_path.find('\\') != std::string_view::npos) {
    return std::nullopt;
  }
  fs::path file = root;
  std::size_t start = 1;
  while (start <= url_path.size()) {
    std::size_t end = url_path.find('/', start);
    if (end == std::string_view::npos) {
      end = url_path.size();
    }
    const std::string_view segment = url_path.substr(start, end - start);
    if (segment == ".." || segment == ".") {
      return std::nullopt;
    }
    if (!segment.empty()) {
      file /= std::string(segment);
    }
    start = end + 1;
  }
  std::error_code error;
  if (fs::is_directory(file, error)) {
    file /= "index.html";
  }
  // Symbolic links may point anywhere: what the path resolves to must still be under root.
  const fs::path real = fs::canonical(file, error);
  if (error || !fs::is_regular_file(real, error)) {
    return std::nullopt;
  }
  const auto [root_end, real_it] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  if (root_end != root.end()) {
    return std::nullopt;
  }
  return real;
}

std::string static_content_type(const fs::path& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".map", "application/json"},
  }};
  const std::string extension = file.extension().string();
  for (const auto& [ext, type] : kTypes) {
    if (extension == ext) {
      return std::string(type);
    }
  }
  return "application/octet-stream";
}

}  // namespace tband
