// Output files that never cost a user a file. A regular file (or a new one)
// is written to a temporary file in the same folder and renamed over the
// destination only when the command succeeds, so a failed run leaves an
// existing file exactly as it was and a reader never sees half a file.
// Special files (FIFOs, character devices) and "-" (stdout) are written
// directly and never removed; nothing the command did not create is deleted.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tband {

/// An output path refused before anything was read or written: the same
/// file as an input or another output, or a folder. The CLI answers it with
/// its usage exit code.
class OutputPathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An output that cannot be created or written (a missing folder, no
/// permission, a full disk). The CLI answers it with its output exit code.
class OutputWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Refuses outputs that are the same file as an input or as each other: the
/// same device and inode where the file exists, the same resolved path where
/// it does not yet (OutputPathError); and those whose folder is missing
/// (OutputWriteError). Empty paths and "-" are skipped.
void check_output_paths(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

class OutputFile {
 public:
  /// No output at all (file() is nullptr).
  OutputFile() = default;
  /// Opens `path` for writing as described above; "-" is stdout, "" none.
  /// Throws OutputPathError for a folder, OutputWriteError when the file
  /// cannot be created.
  explicit OutputFile(std::string path);
  /// Without commit(): removes the temporary file, leaves the destination.
  ~OutputFile();
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  [[nodiscard]] std::FILE* file() const noexcept { return file_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// The name for messages: the path, or "stdout".
  [[nodiscard]] std::string display_name() const { return path_ == "-" ? "stdout" : path_; }

  /// Flushes and syncs what was written, then renames the temporary file
  /// over the destination. Throws OutputWriteError (the destination is then
  /// untouched).
  void commit();

 private:
  void discard() noexcept;

  std::string path_;         // as the user gave it
  std::string destination_;  // where the rename goes (symbolic links resolved)
  std::string temp_;         // empty when written directly
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

/// Writes `text` to `path` ("-": stdout) through an OutputFile. Throws
/// OutputPathError or OutputWriteError.
void write_output_file(const std::string& path, std::string_view text);

}  // namespace tband
