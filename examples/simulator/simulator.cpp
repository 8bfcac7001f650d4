// tband_sim: the demo workload on the host, for users without an ARM
// toolchain or QEMU. Each of 2 to 4 threads acts as one core running the
// sensor workload (examples/workload): a 1 kHz tick interrupt, a 2 kHz "ADC"
// interrupt and the main loop, all on that core's thread, as on a target
// where interrupts run on the core that takes them. Interrupts are due by the
// host's clock; the tracer streams each core's events into its own file
// (<out-dir>/core<N>.bin), to be converted with `tband conv core0.bin@0 ...`.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "sensor_workload.h"
#include "tband.h"
#include "tband_port.h"

namespace {

constexpr unsigned kMaxCores = TBAND_HOST_CORES;

struct CoreOutput {
  std::FILE* file = nullptr;
  std::uint64_t bytes = 0;
};

CoreOutput g_outputs[kMaxCores];

// Runs on the core's thread inside its critical section: write and go on.
bool write_frame(void*, unsigned core, const std::uint8_t* buf, std::size_t len, bool) {
  CoreOutput& out = g_outputs[core];
  const bool written = std::fwrite(buf, 1, len, out.file) == len;
  out.bytes += written ? len : 0;
  return !written;  // a failed write is reported as a drop, and counted
}

void run_core(unsigned core, std::chrono::milliseconds run_time, std::atomic<unsigned>* named,
              std::atomic<bool>* go) {
  tband_host_set_core_id(core);
  sensor_workload workload{};
  workload.adc_state = 1 + core;
  workload_name_everything();
  named->fetch_add(1);
  while (!go->load()) {
    std::this_thread::yield();
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto end = start + run_time;
  auto next_tick = start + std::chrono::milliseconds(1);
  // Cores' ADC interrupts are not in step with each other or with the tick.
  auto next_adc = start + std::chrono::microseconds(500 + 97 * core);
  // Until every interrupt due in the run time has been taken: a thread that
  // lost its core (a busy machine) catches up, even after the run time, so
  // each core takes the same number of interrupts however it was scheduled.
  while (next_tick <= end || next_adc <= end) {
    const auto now = Clock::now();
    if (next_tick <= end && now >= next_tick) {
      workload_tick_isr(&workload);
      next_tick += std::chrono::milliseconds(1);
    } else if (next_adc <= end && now >= next_adc) {
      workload_adc_isr(&workload);
      next_adc += std::chrono::microseconds(500);
    } else if (!workload_main_step(&workload)) {
      std::this_thread::yield();
    }
  }
}

int usage() {
  std::fprintf(stderr,
               "usage: tband_sim [--cores N] [--ms MILLISECONDS] [--out-dir DIR]\n"
               "  Runs the demo workload on N threads acting as cores (2-4, default 2) for the given\n"
               "  time (default 300 ms) and writes DIR/core<N>.bin (default DIR: .).\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned cores = 2;
  long run_ms = 300;
  std::filesystem::path out_dir = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      return usage();
    }
    if (arg == "--cores") {
      cores = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (arg == "--ms") {
      run_ms = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--out-dir") {
      out_dir = argv[++i];
    } else {
      return usage();
    }
  }
  if (cores < 2 || cores > kMaxCores || run_ms <= 0) {
    return usage();
  }
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  for (unsigned c = 0; c < cores; ++c) {
    const std::filesystem::path path = out_dir / ("core" + std::to_string(c) + ".bin");
    g_outputs[c].file = std::fopen(path.c_str(), "wb");
    if (g_outputs[c].file == nullptr) {
      std::fprintf(stderr, "tband_sim: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  tband_host_set_clock(TBAND_HOST_CLOCK_REAL);
  tband_host_set_sink(write_frame, nullptr);

  // Every core names its interrupts and markers before tracing starts, as
  // firmware does at boot; the metadata buffers keep them for the start. The
  // start waits for all of them, however late a busy machine runs a thread,
  // so that the first core's file carries every core's names.
  std::atomic<unsigned> named{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (unsigned c = 0; c < cores; ++c) {
    threads.emplace_back(run_core, c, std::chrono::milliseconds(run_ms), &named, &go);
  }
  while (named.load() < cores) {
    std::this_thread::yield();
  }
  if (tband_start_streaming() != 0) {
    std::fprintf(stderr, "tband_sim: could not start streaming\n");
    return 1;
  }
  go.store(true);
  for (std::thread& t : threads) {
    t.join();
  }
  (void)tband_stop_streaming();
  std::uint64_t total = 0;
  for (unsigned c = 0; c < cores; ++c) {
    std::fclose(g_outputs[c].file);
    total += g_outputs[c].bytes;
  }
  std::printf("tband_sim: %u cores, %ld ms, %llu bytes of trace in %s/core*.bin, %u events dropped\n", cores, run_ms,
              static_cast<unsigned long long>(total), out_dir.c_str(), tband_get_dropped_evt_cnt());
  return 0;
}
