// Shared by the fuzz targets that run whole conversions (fuzz_conversion,
// fuzz_stats): the fuzz input becomes an input file the CLI's way, and its
// first byte chooses the options, so one corpus covers every mode.
//
// Input layout: [options byte][the input file's bytes].
//   bit 0     bare-metal mode (else FreeRTOS)
//   bit 1     the lab descriptor given as a schema (--schema): run-time decoding
//   bit 2     two threads (decode pipeline) instead of one
//   bits 3-5  --format: 0-3 auto (sniffed), 4 bin, 5 hex, 6 base64, 7 postmortem
//   bit 6     --core-count 2 (else 1)
//   bit 7     the input read from stdin (a pipe: no size, short reads)
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/conversion.hpp"
#include "schema/schema_set.hpp"
#include "tband_events.hpp"

namespace tband::fuzz {

inline void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

/// Set by LLVMFuzzerInitialize, which libFuzzer calls and the corpus replay
/// (replay_main.cpp) does not: whether this run is a campaign.
inline bool fuzzing = false;

/// Whether a campaign gives this input the checks that cost most (1 input in
/// 8, by its bytes, so a finding reproduces); every input in the replay.
inline bool full_checks(const std::uint8_t* data, std::size_t size) {
  if (!fuzzing) {
    return true;
  }
  std::uint32_t hash = 2166136261u;  // FNV-1a
  for (std::size_t i = 0; i < size; ++i) {
    hash = (hash ^ data[i]) * 16777619u;
  }
  return hash % 8 == 0;
}

/// The lab group's descriptor, loaded once.
inline std::shared_ptr<const RuntimeSchema> lab_schema() {
  static const auto schema = [] {
    std::ifstream file(TBAND_LAB_DESCRIPTOR, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    return std::make_shared<const RuntimeSchema>(RuntimeSchema::from_descriptor(text, TBAND_LAB_DESCRIPTOR));
  }();
  return schema;
}

/// The input file: one memfd reused for every run (rewritten and truncated),
/// opened by the conversion through /proc like any path.
class MemoryInput {
 public:
  MemoryInput() : fd_(::memfd_create("tband_fuzz_input", 0)) { require(fd_ >= 0); }
  MemoryInput(const MemoryInput&) = delete;
  MemoryInput& operator=(const MemoryInput&) = delete;
  ~MemoryInput() { ::close(fd_); }

  /// The path the conversion opens.
  std::string set(const std::uint8_t* data, std::size_t size) {
    require(::ftruncate(fd_, 0) == 0);
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      require(n > 0);
      done += static_cast<std::size_t>(n);
    }
    return "/proc/self/fd/" + std::to_string(fd_);
  }

 private:
  int fd_;
};

/// Standard input replaced by a pipe holding the bytes (write end closed, so
/// the reader sees them and then the end) while it lives.
class PipedStdin {
 public:
  static constexpr std::size_t kMaxSize = 64 * 1024;  // what a pipe takes without a reader

  PipedStdin(const std::uint8_t* data, std::size_t size) : saved_(::dup(STDIN_FILENO)) {
    require(saved_ >= 0 && size <= kMaxSize);
    int fds[2];
    require(::pipe(fds) == 0);
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fds[1], data + done, size - done);
      require(n > 0);
      done += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
    require(::dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
    ::close(fds[0]);
  }
  PipedStdin(const PipedStdin&) = delete;
  PipedStdin& operator=(const PipedStdin&) = delete;
  ~PipedStdin() {
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

/// Where the conversion finds the input file's bytes: "-" with them piped
/// into stdin while `piped` lives (options bit 7), else the memfd's path.
inline std::string place_input(std::uint8_t bits, const std::uint8_t* data, std::size_t size,
                               std::optional<PipedStdin>& piped) {
  if ((bits & 0x80) != 0 && size <= PipedStdin::kMaxSize) {
    piped.emplace(data, size);
    return "-";
  }
  static MemoryInput input;
  return input.set(data, size);
}

/// The schema set for the options byte's schema bit: one per kind, kept for
/// every run and reset to the start of a trace before each conversion (as
/// `tband dump` does between inputs), so the lab descriptor on the search path
/// is parsed once, not once per input that names it (a quarter of a run's time).
inline SchemaSet& schema_set(std::uint8_t bits) {
  static SchemaSet given = [] {
    SchemaSet set{CompiledSchema{all_event_infos(), kSchemaTraceId}};
    set.add_given(lab_schema());
    return set;
  }();
  static SchemaSet searched = [] {
    SchemaSet set{CompiledSchema{all_event_infos(), kSchemaTraceId}};
    set.add_candidate(TBAND_LAB_DESCRIPTOR);  // read only when a trace's schema_id names the lab group
    return set;
  }();
  SchemaSet& set = (bits & 0x02) != 0 ? given : searched;
  set.reset_trace();
  return set;
}

/// The conversion options the options byte asks for, with the input given as `path`.
inline ConversionOptions conversion_options(std::uint8_t bits, const std::string& path) {
  ConversionOptions options;
  options.inputs.push_back(parse_input_spec(path));
  options.interpreter.mode = (bits & 0x01) != 0 ? TraceMode::kBareMetal : TraceMode::kFreeRtos;
  options.interpreter.core_count = (bits & 0x40) != 0 ? 2 : 1;
  options.threads = (bits & 0x04) != 0 ? ConversionThreads::kTwo : ConversionThreads::kOne;
  static constexpr const char* kFormats[] = {"auto", "auto", "auto", "auto", "bin", "hex", "base64", "postmortem"};
  options.format = kFormats[(bits >> 3) & 0x7];
  options.schemas = &schema_set(bits);
  return options;
}

/// The fuzz input as a conversion's: the options byte, and the rest placed
/// where the conversion reads it (the memfd, or stdin while this lives).
class ConversionInput {
 public:
  /// `size` is at least 1.
  ConversionInput(const std::uint8_t* data, std::size_t size)
      : bits_(data[0]), path_(place_input(bits_, data + 1, size - 1, piped_)) {}

  [[nodiscard]] std::uint8_t bits() const noexcept { return bits_; }
  [[nodiscard]] bool piped() const noexcept { return piped_.has_value(); }
  /// Options for `bits` (the input's, or changed). Their schema set is shared
  /// and reset by the next call: convert with them before asking again.
  ConversionOptions options(std::uint8_t bits) { return conversion_options(bits, path_); }

 private:
  std::uint8_t bits_;
  std::optional<PipedStdin> piped_;
  std::string path_;
};

/// An error message as the CLI prints it: one line, not empty.
inline void require_message(const std::string& message) {
  require(!message.empty() && message.find('\n') == std::string::npos);
}

}  // namespace tband::fuzz
