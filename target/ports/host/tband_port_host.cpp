// Host port implementation: per-core mutexes as critical sections, a shared
// clock, and a settable sink for backend data.
#include "tband_port.h"

#include <atomic>
#include <chrono>
#include <mutex>

namespace {

std::mutex g_core_mutexes[TBAND_HOST_MAX_CORES];
thread_local unsigned t_core_id = 0;

std::atomic<int> g_clock{TBAND_HOST_CLOCK_REAL};
std::atomic<std::uint64_t> g_manual_time{0};
std::atomic<std::uint64_t> g_counter_time{0};
const auto g_epoch = std::chrono::steady_clock::now();

std::atomic<tband_host_sink> g_sink{nullptr};
std::atomic<void*> g_sink_context{nullptr};
std::atomic<unsigned> g_snapshot_full_calls{0};
std::atomic<unsigned> g_stream_retry_waits{0};

bool deliver(const std::uint8_t* buf, std::size_t len, bool is_metadata) {
  const tband_host_sink sink = g_sink.load(std::memory_order_acquire);
  if (sink == nullptr) {
    return false;
  }
  return sink(g_sink_context.load(std::memory_order_acquire), t_core_id, buf, len, is_metadata);
}

}  // namespace

extern "C" {

std::uint64_t tband_host_timestamp(void) {
  switch (g_clock.load(std::memory_order_relaxed)) {
    case TBAND_HOST_CLOCK_MANUAL:
      return g_manual_time.load(std::memory_order_relaxed);
    case TBAND_HOST_CLOCK_COUNTER:
      return g_counter_time.fetch_add(1, std::memory_order_relaxed) + 1;
    default:
      return static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_epoch).count());
  }
}

void tband_host_enter_critical(void) { g_core_mutexes[t_core_id].lock(); }
void tband_host_exit_critical(void) { g_core_mutexes[t_core_id].unlock(); }
unsigned tband_host_core_id(void) { return t_core_id; }

bool tband_host_stream_data(const std::uint8_t* buf, std::size_t len) { return deliver(buf, len, false); }
bool tband_host_external_event(const std::uint8_t* buf, std::size_t len, bool is_metadata) {
  return deliver(buf, len, is_metadata);
}
void tband_host_snapshot_full(void) { g_snapshot_full_calls.fetch_add(1, std::memory_order_relaxed); }
void tband_host_stream_retry_wait(void) { g_stream_retry_waits.fetch_add(1, std::memory_order_relaxed); }

void tband_host_set_core_id(unsigned core_id) { t_core_id = core_id < TBAND_HOST_MAX_CORES ? core_id : 0; }

void tband_host_set_clock(enum tband_host_clock clock) {
  g_counter_time.store(0, std::memory_order_relaxed);
  g_clock.store(clock, std::memory_order_relaxed);
}
void tband_host_set_time(std::uint64_t ts) { g_manual_time.store(ts, std::memory_order_relaxed); }

void tband_host_set_sink(tband_host_sink sink, void* context) {
  g_sink_context.store(context, std::memory_order_release);
  g_sink.store(sink, std::memory_order_release);
}

unsigned tband_host_snapshot_full_calls(void) { return g_snapshot_full_calls.load(std::memory_order_relaxed); }
void tband_host_reset_snapshot_full_calls(void) { g_snapshot_full_calls.store(0, std::memory_order_relaxed); }
unsigned tband_host_stream_retry_waits(void) { return g_stream_retry_waits.load(std::memory_order_relaxed); }
void tband_host_reset_stream_retry_waits(void) { g_stream_retry_waits.store(0, std::memory_order_relaxed); }

}  // extern "C"
