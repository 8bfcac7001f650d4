// Builds trace files for tests with the generated target encoder.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "tband_encode.hpp"

namespace tband::test {

/// A file in this test process's own temporary directory: ctest runs test
/// programs in parallel, and several use the same file names (the FreeRTOS
/// scenarios run once per kernel version). The directory goes when the
/// process exits: one was left per test process, a gigabyte in /tmp after
/// some hundred runs.
inline std::string temp_path(const std::string& name) {
  struct ProcessFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / "tband_host_tests" / std::to_string(::getpid());
    ProcessFolder() { std::filesystem::create_directories(path); }
    ~ProcessFolder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
    ProcessFolder(const ProcessFolder&) = delete;
    ProcessFolder& operator=(const ProcessFolder&) = delete;
  };
  static const ProcessFolder folder;
  return (folder.path / name).string();
}

class TraceBuilder {
 public:
  /// add([](std::uint8_t* b) { return enc::encode_...(b, ...); })
  template <class Encode>
  TraceBuilder& add(Encode&& encode) {
    std::array<std::uint8_t, enc::kMaxFramedLen> frame{};
    const std::size_t n = encode(frame.data());
    bytes_.insert(bytes_.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(n));
    return *this;
  }
  TraceBuilder& raw(std::vector<std::uint8_t> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  /// Writes the trace to a file in the test's temporary directory.
  std::string write(const std::string& name) const {
    const std::string path = temp_path(name);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes_.data()), static_cast<std::streamsize>(bytes_.size()));
    return path;
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace tband::test
