// A file the command needs while it runs and nobody needs after it: made in
// $TMPDIR (or /tmp) and removed when the command ends, by a return, an
// exception or a Ctrl-C alike (common/removed_on_signal.hpp). `tband conv
// --serve` without -o serves its trace from one.
#pragma once

#include <string>
#include <string_view>

namespace tband {

/// Where temporary files go: $TMPDIR, or /tmp when it is unset or empty.
[[nodiscard]] std::string temporary_folder();

class ScratchFile {
 public:
  /// Creates an empty file named tband-XXXXXX`suffix`. Throws
  /// std::runtime_error (saying the folder and why) when it cannot.
  explicit ScratchFile(std::string_view suffix);
  /// Removes the file (by its path: a file renamed over it goes too).
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace tband
