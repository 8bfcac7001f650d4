// The benchmark's storing stream sink: copies every frame it is handed into a
// 64 KiB ring in RAM, as a stream hook that feeds a UART or DMA driver, or a
// ring a debugger reads, would. The reader is taken to keep up (old bytes are
// overwritten), so nothing is dropped; the ring has external linkage so that
// the compiler must really store the bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>

#if !defined(BENCH_FREESTANDING)  // the Cortex-M4 count (cm4/hook_count.cpp) has no C++ library
#include <vector>
std::vector<std::uint8_t> g_bench_recorded;  // unused here; tband_hook_bench.cpp links against it
#endif

inline constexpr std::size_t kBenchRingSize = std::size_t{1} << 16;
extern "C" {
alignas(64) std::uint8_t g_bench_ring[kBenchRingSize];
std::size_t g_bench_ring_head = 0;
}

extern "C" bool tband_bench_sink(const std::uint8_t* buf, std::size_t len) {
  const std::size_t at = g_bench_ring_head & (kBenchRingSize - 1);
  const std::size_t room = kBenchRingSize - at;
  if (len <= room) {
    std::memcpy(g_bench_ring + at, buf, len);
  } else {  // wraps
    std::memcpy(g_bench_ring + at, buf, room);
    std::memcpy(g_bench_ring, buf + room, len - room);
  }
  g_bench_ring_head += len;
  return false;
}
