#include "record/recording_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

namespace tband::record {

// The zstd stream of the current part: one frame at a time.
struct RecordingFile::Compressor {
  Compressor() : ctx(ZSTD_createCCtx()), out(ZSTD_CStreamOutSize()) {
    if (ctx == nullptr) {
      throw std::bad_alloc();
    }
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_strategy, ZSTD_dfast);
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_minMatch, kZstdMinMatch);
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_checksumFlag, 1);  // each frame checked when read
  }
  ~Compressor() { ZSTD_freeCCtx(ctx); }
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  ZSTD_CCtx* ctx;
  std::vector<std::uint8_t> out;
  std::uint64_t frame_bytes = 0;  // trace bytes in the open frame; 0: none open
  Clock::time_point frame_start;
};

RecordingFile::RecordingFile(std::string path, std::uint64_t rotate_bytes, bool compress)
    : path_(std::move(path)), rotate_bytes_(rotate_bytes) {
  if (compress) {
    zstd_ = std::make_unique<Compressor>();
  }
}

void RecordingFile::start() {
  if (parts_.empty()) {
    open_part();
  }
}

RecordingFile::~RecordingFile() {
  if (fd_ >= 0 && zstd_) {
    try {
      end_frame();
    } catch (const OutputError&) {
      // Reported by the sync() that ends every recording; here the recording failed already.
    }
  }
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

std::string RecordingFile::part_path(const std::string& path, std::size_t index) {
  if (index == 0) {
    return path;
  }
  constexpr std::string_view kZst = ".zst";
  if (path.size() > kZst.size() && path.ends_with(kZst)) {
    return part_path(path.substr(0, path.size() - kZst.size()), index) + std::string{kZst};
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
  while (zstd_ && size != 0) {  // frames of at most kFrameBytes
    if (zstd_->frame_bytes == 0) {
      zstd_->frame_start = Clock::now();
    }
    const std::size_t take = std::min<std::size_t>(size, kFrameBytes - zstd_->frame_bytes);
    zstd_->frame_bytes += take;
    compress(data, take, zstd_->frame_bytes == kFrameBytes);
    data += take;
    size -= take;
  }
  if (zstd_) {
    return;
  }
  write_out(data, size);
}

// Feeds the compressor; what it hands out goes to the file at once.
void RecordingFile::compress(const std::uint8_t* data, std::size_t size, bool end) {
  ZSTD_inBuffer in{data, size, 0};
  for (;;) {
    ZSTD_outBuffer out{zstd_->out.data(), zstd_->out.size(), 0};
    const std::size_t left = ZSTD_compressStream2(zstd_->ctx, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(left) != 0) {
      throw OutputError(parts_.back() + ": zstd compression failed: " + ZSTD_getErrorName(left));
    }
    write_out(zstd_->out.data(), out.pos);
    if (end ? left == 0 : in.pos == in.size) {
      break;
    }
  }
  if (end) {
    zstd_->frame_bytes = 0;
  }
}

void RecordingFile::end_frame() {
  if (zstd_ && zstd_->frame_bytes != 0) {
    compress(nullptr, 0, true);
  }
}

std::optional<RecordingFile::Clock::time_point> RecordingFile::frame_due() const noexcept {
  if (!zstd_ || zstd_->frame_bytes == 0) {
    return std::nullopt;
  }
  return zstd_->frame_start + kFrameInterval;
}

void RecordingFile::end_due_frame(Clock::time_point now) {
  if (const auto due = frame_due(); due && now >= *due) {
    end_frame();
  }
}

void RecordingFile::write_out(const std::uint8_t* data, std::size_t size) {
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
  if (fd_ >= 0) {
    end_frame();
  }
  if (fd_ >= 0 && ::fdatasync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
    throw OutputError(parts_.back() + ": sync failed: " + std::strerror(errno));
  }
}

}  // namespace tband::record
