// Which file of a directory a URL path names, for `tband serve --web DIR`:
// only regular files under DIR (no "..", no symbolic link leading out of it),
// and the Content-Type each is served with.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tband {

/// The file under `root` (an absolute, canonical directory) that the decoded
/// URL path names ("/" and a directory mean its index.html), or none: a ".."
/// or "." segment, a NUL or backslash, a path that leaves `root` through a
/// symbolic link, or no regular file there.
[[nodiscard]] std::optional<std::filesystem::path> static_file(const std::filesystem::path& root,
                                                               std::string_view url_path);

/// The Content-Type for a file name: .html, .js, .mjs, .wasm, .css, .json, .svg,
/// .png, .ico, .txt, .map; application/octet-stream otherwise.
[[nodiscard]] std::string static_content_type(const std::filesystem::path& file);

}  // namespace tband
