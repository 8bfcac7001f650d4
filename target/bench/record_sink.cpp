// The benchmark's recording stream sink (trace mode): keeps every frame.
#include <cstddef>
#include <cstdint>
#include <vector>

std::vector<std::uint8_t> g_bench_recorded;

extern "C" bool tband_bench_sink(const std::uint8_t* buf, std::size_t len) {
  g_bench_recorded.insert(g_bench_recorded.end(), buf, buf + len);
  return false;
}
