#include "common/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/removed_on_signal.hpp"

namespace tband {

namespace {

// ---- Which file a path names --------------------------------------------------

struct FileIdentity {
  bool exists = false;
  bool character_device = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;  // where it does not exist yet: the absolute, normalised path
};

FileIdentity identify(const std::string& path) {
  FileIdentity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.character_device = S_ISCHR(st.st_mode);
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  id.resolved = ec ? path : resolved.string();
  return id;
}

bool same_file(const FileIdentity& a, const FileIdentity& b) {
  if (a.exists != b.exists) {
    return false;
  }
  return a.exists ? a.device == b.device && a.inode == b.inode : a.resolved == b.resolved;
}

std::string parent_folder(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

std::string errno_text(int error) { return std::strerror(error); }

}  // namespace

void check_output_paths(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  std::vector<std::pair<std::string, FileIdentity>> seen;
  for (const std::string& in : inputs) {
    if (!in.empty() && in != "-") {
      seen.emplace_back(in, identify(in));
    }
  }
  const std::size_t input_count = seen.size();
  for (const std::string& out : outputs) {
    if (out.empty() || out == "-") {
      continue;
    }
    const FileIdentity id = identify(out);
    for (std::size_t i = 0; i < seen.size(); ++i) {
      const bool is_input = i < input_count;
      // Two outputs to /dev/null (or a terminal) are harmless; an input is not.
      if (same_file(id, seen[i].second) && (is_input || !id.character_device)) {
        throw OutputPathError(out + ": is the same file as " + (is_input ? "the input " : "the output ") +
                              seen[i].first + "; give another output path");
      }
    }
    struct stat st {};
    if (id.exists && ::stat(out.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      throw OutputPathError(out + ": is a folder; give a file name for the output");
    }
    if (!id.exists) {
      const std::string folder = parent_folder(out);
      if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        throw OutputWriteError(out + ": the folder " + folder + " does not exist");
      }
    }
    seen.emplace_back(out, id);
  }
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) {
    return;
  }
  if (path_ == "-") {
    file_ = stdout;
    return;
  }
  destination_ = path_;
  struct stat link {};
  if (::lstat(path_.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    // Replace the file the link points at, not the link itself.
    if (char* real = ::realpath(path_.c_str(), nullptr); real != nullptr) {
      destination_ = real;
      std::free(real);
    }
  }
  mode_t mode = 0666 & ~current_umask();
  struct stat st {};
  if (::stat(destination_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      throw OutputPathError(path_ + ": is a folder; give a file name for the output");
    }
    if (!S_ISREG(st.st_mode)) {
      // A FIFO, a terminal, /dev/null: written as it is, never replaced or removed.
      file_ = std::fopen(destination_.c_str(), "wb");
      if (file_ == nullptr) {
        throw OutputWriteError(path_ + ": cannot open for writing (" + errno_text(errno) + ")");
      }
      return;
    }
    mode = st.st_mode & 07777;
  }
  const std::string folder = parent_folder(destination_);
  const std::string base = std::filesystem::path(destination_).filename().string();
  int fd = -1;
  {
    const SignalsHeld held;  // until the temporary file is registered
    temp_ = folder + "/." + base + ".tband-XXXXXX";
    fd = ::mkostemp(temp_.data(), O_CLOEXEC);
    if (fd < 0 && errno == ENAMETOOLONG) {
      temp_ = folder + "/.tband-XXXXXX";
      fd = ::mkostemp(temp_.data(), O_CLOEXEC);
    }
    if (fd < 0) {
      const int error = errno;
      temp_.clear();
      throw OutputWriteError(path_ + ": cannot create the output file (" +
                            (error == ENOENT ? "the folder " + folder + " does not exist" : errno_text(error)) + ")");
    }
    remove_on_signal(temp_);
  }
  ::fchmod(fd, mode);
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    discard();
    throw OutputWriteError(path_ + ": cannot open for writing (" + errno_text(error) + ")");
  }
}

OutputFile::~OutputFile() { discard(); }

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      destination_(std::move(other.destination_)),
      temp_(std::exchange(other.temp_, {})),
      file_(std::exchange(other.file_, nullptr)),
      committed_(other.committed_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    destination_ = std::move(other.destination_);
    temp_ = std::exchange(other.temp_, {});
    file_ = std::exchange(other.file_, nullptr);
    committed_ = other.committed_;
  }
  return *this;
}

void OutputFile::discard() noexcept {
  if (file_ != nullptr && file_ != stdout) {
    std::fclose(file_);
  }
  file_ = nullptr;
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    keep_on_signal(temp_);
    temp_.clear();
  }
}

void OutputFile::commit() {
  if (file_ == nullptr || committed_) {
    return;
  }
  committed_ = true;
  if (file_ == stdout) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
      throw OutputWriteError("writing to stdout failed");
    }
    return;
  }
  bool ok = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  int error = ok ? 0 : errno;
  // Synced before the rename, so a crash cannot leave an empty file in place
  // of the old one. Some special files cannot be synced: that is no error.
  if (ok && !temp_.empty() && ::fsync(::fileno(file_)) != 0 && errno != EINVAL) {
    ok = false;
    error = errno;
  }
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (ok && closed != 0) {
    ok = false;
    error = errno;
  }
  if (ok && !temp_.empty() && std::rename(temp_.c_str(), destination_.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    const bool through_temp = !temp_.empty();
    discard();
    throw OutputWriteError(path_ + ": cannot write the file (" + errno_text(error) + ")" +
                             (through_temp ? "; the previous file, if any, is unchanged" : ""));
  }
  keep_on_signal(temp_);
  temp_.clear();
}

void write_output_file(const std::string& path, std::string_view text) {
  OutputFile out{path};
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out.file()) != text.size()) {
    throw OutputWriteError(out.display_name() + ": cannot write the file (" + errno_text(errno) + ")");
  }
  out.commit();
}

}  // namespace tband
