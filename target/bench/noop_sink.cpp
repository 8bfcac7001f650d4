// The benchmark's stream sink: takes every frame, drops nothing, does nothing.
// A separate translation unit, so the tracer must really write the bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

std::vector<std::uint8_t> g_bench_recorded;  // unused here; tband_hook_bench.cpp links against it

extern "C" bool tband_bench_sink(const std::uint8_t* buf, std::size_t len) {
  (void)buf;
  (void)len;
  return false;
}
