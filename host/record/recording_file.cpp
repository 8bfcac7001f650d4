#include "record/recording_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace tband::record {

RecordingFile::RecordingFile(std::string path, std::uint64_t rotate_bytes)
    : path_(std::move(path)), rotate_bytes_(rotate_bytes) {}

void RecordingFile::start() {
  if (parts_.empty()) {
    open_part();
  }
}

RecordingFile::~RecordingFile() {
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

std::string RecordingFile::part_path(const std::string& path, std::size_t index) {
  if (index == 0) {
    return path;
  }
  const std::size_t slash = path.rfind('/');
  const std::size_t dot = path.rfind('.');
  const bool has_extension = dot != std::string::npos && dot != 0 && (slash == std::string::npos || dot > slash + 1);
  if (!has_extension) {
    return path + "." + std::to_string(index);
  }
  return path.substr(0, dot) + "." + std::to_string(index) + path.substr(dot);
}

void RecordingFile::open_part() {
  const std::string name = part_path(path_, parts_.size());
  fd_ = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    throw OutputError(name + ": cannot create the recording: " + std::strerror(errno));
  }
  parts_.push_back(name);
  part_bytes_ = 0;
}

void RecordingFile::close_part() {
  sync();
  ::close(fd_);
  fd_ = -1;
}

void RecordingFile::write(std::span<const std::uint8_t> data) {
  start();
  while (!data.empty()) {
    std::size_t take = data.size();
    bool rotate = false;
    if (rotate_bytes_ != 0) {
      // The first delimiter whose byte brings the part to the rotation size.
      const std::uint64_t wanted = rotate_bytes_ > part_bytes_ + 1 ? rotate_bytes_ - part_bytes_ - 1 : 0;
      if (wanted < data.size()) {
        const auto from = data.begin() + static_cast<std::ptrdiff_t>(wanted);
        const auto zero = std::find(from, data.end(), std::uint8_t{0});
        if (zero != data.end()) {
          take = static_cast<std::size_t>(zero - data.begin()) + 1;
          rotate = true;
        }
      }
    }
    write_all(data.data(), take);
    data = data.subspan(take);
    if (rotate) {
      close_part();
      open_part();
    }
  }
}

void RecordingFile::write_all(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return;
  }
  at_boundary_ = data[size - 1] == 0;
  part_bytes_ += size;
  total_bytes_ += size;
  while (size != 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw OutputError(parts_.back() + ": write failed: " + std::strerror(errno));
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void RecordingFile::sync() {
  if (fd_ >= 0 && ::fdatasync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
    throw OutputError(parts_.back() + ": sync failed: " + std::strerror(errno));
  }
}

}  // namespace tband::record
