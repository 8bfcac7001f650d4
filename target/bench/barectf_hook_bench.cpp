// The barectf side of target/bench/run_hook_bench.py: barectf's generated
// tracer (barectf/config.yaml or config_compact.yaml) on the same calls and
// workload. Its platform keeps the packets in RAM: barectf writes each event
// straight into the open 4 KiB packet, and a full packet is closed and the
// next of 16 packet buffers (64 KiB, the size of tband's benchmark ring)
// opened, without copying; the reader is taken to keep up. With BENCH_RECORD
// every closed packet is also appended to the recorded trace.
//   barectf_hook_bench measure [cycles]     every loop once, for callgrind
//   barectf_hook_bench trace FILE [cycles]  the mix once; writes the packets to FILE
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "barectf.h"

namespace {
constexpr std::size_t kPacketSize = 4096;
constexpr std::size_t kPackets = 16;
barectf_default_ctx g_ctx;
std::uint8_t g_packets[kPackets][kPacketSize];
std::size_t g_current = 0;
std::vector<std::uint8_t> g_recorded;
}  // namespace

#define BENCH_ISR_ENTER(id) barectf_trace_isr_enter(&g_ctx, id)
#define BENCH_ISR_EXIT(id) barectf_trace_isr_exit(&g_ctx, id)
#define BENCH_EVTMARKER_BEGIN(id, msg) barectf_trace_evtmarker_begin(&g_ctx, id, msg)
#define BENCH_EVTMARKER_END(id) barectf_trace_evtmarker_end(&g_ctx, id)
#define BENCH_VALMARKER(id, val) barectf_trace_valmarker(&g_ctx, id, val)
#include "hook_loops.hpp"

extern "C" {
std::uint64_t tband_bench_now = 0;
}

namespace {

std::uint64_t clock_value(void*) { return tband_bench_now; }
int backend_full(void*) { return 0; }
void open_packet(void*) { barectf_default_open_packet(&g_ctx); }
void close_packet(void*) {
  barectf_default_close_packet(&g_ctx);
#ifdef BENCH_RECORD
  g_recorded.insert(g_recorded.end(), g_packets[g_current], g_packets[g_current] + kPacketSize);
#endif
  g_current = (g_current + 1) % kPackets;
  barectf_packet_set_buf(&g_ctx, g_packets[g_current], kPacketSize);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "measure";
  const int cycles_arg = mode == "trace" ? 3 : 2;
  const std::size_t cycles = argc > cycles_arg ? std::strtoul(argv[cycles_arg], nullptr, 10) : 100000;
  const auto steps = bench::make_mix(cycles);
  barectf_platform_callbacks callbacks{};
  callbacks.default_clock_get_value = clock_value;
  callbacks.is_backend_full = backend_full;
  callbacks.open_packet = open_packet;
  callbacks.close_packet = close_packet;
  barectf_init(&g_ctx, g_packets[0], kPacketSize, callbacks, nullptr);
  open_packet(nullptr);
  if (mode == "measure") {
    bench::run_all(steps);
    return 0;
  }
  if (mode == "trace" && argc > 2) {
    bench::run_mix(steps);
    if (barectf_packet_is_open(&g_ctx) && !barectf_packet_is_empty(&g_ctx)) {
      close_packet(nullptr);
    }
    std::ofstream(argv[2], std::ios::binary)
        .write(reinterpret_cast<const char*>(g_recorded.data()), static_cast<std::streamsize>(g_recorded.size()));
    std::printf("events %zu bytes %zu\n", steps.size(), g_recorded.size());
    return 0;
  }
  std::fprintf(stderr, "usage: %s measure [cycles] | trace FILE [cycles]\n", argv[0]);
  return 2;
}
