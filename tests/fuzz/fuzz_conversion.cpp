// Fuzz target for the whole conversion (tband conv): the input file sniffed
// or read in the format the options byte gives (fuzz_input.hpp), deframed,
// decoded, interpreted and written as Perfetto and JSON. Invariants checked
// on every input (a violation traps or aborts, so the fuzzer records it):
//  - no crash, out-of-bounds access or undefined behaviour (ASan, UBSan);
//  - convert() returns or throws InputError with a one-line message; nothing
//    else (a UsageError or a write failure would be a bug here);
//  - a finished conversion's outputs are whole: the JSON parses, the Perfetto
//    trace parses as a Trace message, and their sizes are what it reported;
//  - two threads give the same bytes as one (when the options ask for both).
// A campaign compares the two threads on 1 input in 8 only (full_checks()):
// the decoding pipeline maps and clears 16 batches (megabytes) per
// conversion, which took most of a run's time under ASan. The corpus replay
// compares every input that asks.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "perfetto_trace.pb.h"

namespace {

using tband::fuzz::require;

/// An output in memory: a FILE* for the conversion, the bytes afterwards.
class MemoryOutput {
 public:
  MemoryOutput() : file_(::open_memstream(&data_, &size_)) { require(file_ != nullptr); }
  MemoryOutput(const MemoryOutput&) = delete;
  MemoryOutput& operator=(const MemoryOutput&) = delete;
  ~MemoryOutput() {
    std::fclose(file_);
    std::free(data_);
  }
  [[nodiscard]] std::FILE* file() const { return file_; }
  [[nodiscard]] std::string bytes() {
    require(std::fflush(file_) == 0);
    return {data_, size_};
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};

struct Outputs {
  std::string perfetto;
  std::string json;
};

/// One conversion; nothing when the input is rejected.
std::optional<Outputs> convert_once(tband::ConversionOptions options) {
  MemoryOutput perfetto;
  MemoryOutput json;
  options.perfetto = {perfetto.file(), "perfetto"};
  options.json = {json.file(), "json"};
  tband::ConversionResult result;
  try {
    result = tband::convert(options);
  } catch (const tband::InputError& e) {
    tband::fuzz::require_message(e.what());
    return std::nullopt;
  }
  Outputs out{perfetto.bytes(), json.bytes()};
  require(result.perfetto_bytes == out.perfetto.size());
  require(result.json_bytes == out.json.size());
  require(nlohmann::json::accept(out.json));
  perfetto::protos::Trace trace;
  require(trace.ParseFromString(out.perfetto));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  tband::fuzz::fuzzing = true;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  tband::fuzz::ConversionInput input{data, size};
  const std::uint8_t bits = input.bits();
  const auto one = convert_once(input.options(static_cast<std::uint8_t>(bits & ~0x04u)));
  if ((bits & 0x04) != 0 && !input.piped() && tband::fuzz::full_checks(data, size)) {  // a pipe is read once
    const auto two = convert_once(input.options(bits));
    require(one.has_value() == two.has_value());
    if (one) {
      require(one->perfetto == two->perfetto && one->json == two->json);
    }
  }
  return 0;
}
