// The file a source is recorded into. Every chunk goes to the kernel with
// write(2) as soon as it arrives (nothing waits in a user-space buffer, so a
// crash or kill loses nothing received), and is synced to disk at rotation and
// at the end. With a rotation size the recording is split into parts, each cut
// right after a frame delimiter (0x00) once the part has reached the size.
//
// Compressed (zstd), the bytes go through the compressor and into independent
// zstd frames, each ended (and written) once it holds kFrameBytes or has been
// open for kFrameInterval, and at rotation and the end: a crash or kill loses
// only the frame still open, and every part is a complete .zst of its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tband::record {

/// An output file that cannot be created or written; the message names it.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RecordingFile {
 public:
  /// Names the recording; rotate_bytes 0: one file however long. Nothing is
  /// created (or truncated) until start(): a source that never connects
  /// leaves an existing file as it was.
  /// zstd level of compressed recordings: level 1 (the fastest regular one),
  /// with the double-fast strategy and 4-byte matches, which suit the short
  /// frames of a trace: level 3's ratio at level 1's speed (bench/RESULTS.md).
  static constexpr int kZstdLevel = 1;
  static constexpr int kZstdMinMatch = 4;
  static constexpr std::size_t kFrameBytes = std::size_t{1} << 20;
  static constexpr std::chrono::milliseconds kFrameInterval{1000};
  using Clock = std::chrono::steady_clock;

  RecordingFile(std::string path, std::uint64_t rotate_bytes, bool compress = false);
  ~RecordingFile();
  RecordingFile(const RecordingFile&) = delete;
  RecordingFile& operator=(const RecordingFile&) = delete;

  /// Creates (truncates) the first part, once. Throws OutputError.
  void start();
  /// Appends the bytes (rotating at frame boundaries); starts the recording
  /// if start() was not called. Throws OutputError.
  void write(std::span<const std::uint8_t> data);
  /// Syncs the current part to disk (compressed: ends the open frame first). Throws OutputError.
  void sync();
  /// Compressed: when the open zstd frame is due to end (kFrameInterval after
  /// its first byte), nullopt when none is open; end_due_frame() ends it then.
  [[nodiscard]] std::optional<Clock::time_point> frame_due() const noexcept;
  void end_due_frame(Clock::time_point now);

  /// The name of part `index`: the path itself for part 0, then
  /// "trace.1.bin", "trace.2.bin", ... for "trace.bin" ("trace.1.bin.zst" for "trace.bin.zst").
  [[nodiscard]] static std::string part_path(const std::string& path, std::size_t index);

  [[nodiscard]] const std::vector<std::string>& parts() const noexcept { return parts_; }
  /// Trace bytes recorded (before compression).
  [[nodiscard]] std::uint64_t bytes() const noexcept { return total_bytes_; }
  /// True when nothing was written yet or the last byte was a frame delimiter.
  [[nodiscard]] bool at_frame_boundary() const noexcept { return at_boundary_; }

 private:
  void open_part();
  void write_all(const std::uint8_t* data, std::size_t size);
  void write_out(const std::uint8_t* data, std::size_t size);
  void compress(const std::uint8_t* data, std::size_t size, bool end_frame);
  void end_frame();
  void close_part();

  std::string path_;
  std::uint64_t rotate_bytes_;
  std::vector<std::string> parts_;
  int fd_ = -1;
  std::uint64_t part_bytes_ = 0;
  std::uint64_t total_bytes_ = 0;
  bool at_boundary_ = true;
  struct Compressor;
  std::unique_ptr<Compressor> zstd_;  // null: recorded as received
};

}  // namespace tband::record
