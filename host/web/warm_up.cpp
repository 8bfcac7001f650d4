// The converter's warm-up, which web/worker.js runs a few rounds of while
// the page waits for a file: each round converts a small built-in trace of
// the benchmark mix, as the page converts (.pftrace, JSON and stats, written
// to /dev/null).
//
// Why: V8 runs a WebAssembly function on quickly compiled code at first,
// compiles it again, optimised, once it is hot, and uses the optimised code
// from the function's next call on; a frame that is running keeps its code.
// A conversion's loop is one call, so a page's first conversion ran on the
// quick code to its end: 0.87 s against 0.63 s for the same 10 M events the
// second time (bench/RESULTS.md). After the warm-up the first real
// conversion is such a second call.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <emscripten/emscripten.h>
#include <nlohmann/json.hpp>

#include "mix_encoder.hpp"
#include "wasm_api.hpp"

namespace {

constexpr const char* kWarmUpTrace = "/tmp/tband_warm_up.bin";
// Enough events that one round is a few milliseconds: 20 rounds make V8
// optimise the loop (bench/RESULTS.md), and a job waits at most one round.
constexpr int kWarmUpEvents = 5000;

// Writes the trace into the module's file system (once); false if it cannot.
bool write_warm_up_trace() {
  static bool written = false;
  if (written) {
    return true;
  }
  std::vector<std::uint8_t> bytes;
  const auto add = [&bytes](auto&& encode) {
    std::uint8_t frame[tband::enc::kMaxFramedLen];
    const std::size_t n = encode(frame);
    bytes.insert(bytes.end(), frame, frame + n);
  };
  tband::bench::add_mix_metadata(add);
  tband::bench::BenchmarkMix mix;
  for (int i = 0; i < kWarmUpEvents; ++i) {
    const tband::bench::MixStep step = mix.next();
    add([&step](std::uint8_t* out) { return tband::bench::encode_mix_step(step, out); });
  }
  std::FILE* file = std::fopen(kWarmUpTrace, "wb");
  if (file == nullptr) {
    return false;
  }
  const bool complete = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  written = std::fclose(file) == 0 && complete;
  return written;
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE int tband_web_warm_up() {
  if (!write_warm_up_trace()) {
    return 4;  // the CLI's output error
  }
  const nlohmann::json request = {{"inputs", {kWarmUpTrace}}, {"perfetto", "/dev/null"}, {"json", "/dev/null"},
                                  {"stats", true}};
  const nlohmann::json summary = nlohmann::json::parse(tband_web_convert(request.dump().c_str()));
  return summary.value("exit_code", 70);
}
