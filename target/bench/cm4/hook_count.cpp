// The Cortex-M4 side of target/bench/run_cm4_hook_count.py: the benchmark mix
// on QEMU's mps2-an386, for one tracer (tband in the configuration it is
// built with, or barectf with BENCH_BARECTF), counted in instructions.
//
// Run under `-icount shift=0`, QEMU advances its virtual clock by 1 ns per
// instruction, and the board's FPGAIO counter counts that clock at 25 MHz: one
// count per 40 instructions. As on the host (hook_loops.hpp), every kind has a
// loop that makes its calls and a baseline loop that does the same without
// them; (counts(run) - counts(baseline)) * 40 / calls is the figure. A loop of
// 100 NOPs calibrates the method. Results go to UART0 as
// "<name> <milli-instructions per call>" and "calls <name> <calls>" lines;
// then QEMU exits.
#include <stddef.h>
#include <stdint.h>

#include "benchmark_mix.hpp"
#include "board.h"

extern "C" {
uint64_t tband_bench_now = 0;
}

#if defined(BENCH_BARECTF)
#include "barectf.h"

namespace {
constexpr size_t kPacketSize = 4096;
constexpr size_t kPackets = 16;  // kept in RAM, as on the host
barectf_default_ctx g_ctx;
uint8_t g_packets[kPackets][kPacketSize];
size_t g_current = 0;

uint64_t clock_value(void*) { return tband_bench_now; }
int backend_full(void*) { return 0; }
void open_packet(void*) { barectf_default_open_packet(&g_ctx); }
void close_packet(void*) {
  barectf_default_close_packet(&g_ctx);
  g_current = (g_current + 1) % kPackets;
  barectf_packet_set_buf(&g_ctx, g_packets[g_current], kPacketSize);
}

bool start_tracer() {
  barectf_platform_callbacks callbacks{};
  callbacks.default_clock_get_value = clock_value;
  callbacks.is_backend_full = backend_full;
  callbacks.open_packet = open_packet;
  callbacks.close_packet = close_packet;
  barectf_init(&g_ctx, g_packets[0], kPacketSize, callbacks, nullptr);
  open_packet(nullptr);
  return true;
}
}  // namespace

#define BENCH_ISR_ENTER(id) barectf_trace_isr_enter(&g_ctx, id)
#define BENCH_ISR_EXIT(id) barectf_trace_isr_exit(&g_ctx, id)
#define BENCH_EVTMARKER_BEGIN(id, msg) barectf_trace_evtmarker_begin(&g_ctx, id, msg)
#define BENCH_EVTMARKER_END(id) barectf_trace_evtmarker_end(&g_ctx, id)
#define BENCH_VALMARKER(id, val) barectf_trace_valmarker(&g_ctx, id, val)
#else
#include "filter_mode.hpp"
#include "tband.h"

namespace {
bool start_tracer() {
#if tband_configUSE_BACKEND_STREAMING == 1
  return tband_start_streaming() == 0 && bench::apply_filter_mode();
#else
  return tband_trigger_snapshot() == 0 && bench::apply_filter_mode();
#endif
}
}  // namespace

#define BENCH_ISR_ENTER(id) tband_isr_enter(id)
#define BENCH_ISR_EXIT(id) tband_isr_exit(id)
#define BENCH_EVTMARKER_BEGIN(id, msg) tband_evtmarker_begin(id, msg)
#define BENCH_EVTMARKER_END(id) tband_evtmarker_end(id)
#define BENCH_VALMARKER(id, val) tband_valmarker(id, val)
#endif

namespace {

using tband::bench::MixStep;
using Kind = MixStep::Kind;

constexpr size_t kCycles = 2000;
constexpr size_t kSteps = kCycles * tband::bench::kMixEventsPerCycle;
MixStep g_steps[kSteps];

#define BENCH_BARRIER() __asm volatile("" ::: "memory")

#define BENCH_KIND_LOOPS(name, step_kind, call)                 \
  __attribute__((noinline)) void run_##name() {                 \
    for (const MixStep& step : g_steps) {                       \
      if (step.kind == (step_kind)) {                           \
        tband_bench_now = step.ts;                              \
        call;                                                   \
        BENCH_BARRIER();                                        \
      }                                                         \
    }                                                           \
  }                                                             \
  __attribute__((noinline)) void baseline_##name() {            \
    for (const MixStep& step : g_steps) {                       \
      if (step.kind == (step_kind)) {                           \
        tband_bench_now = step.ts;                              \
        BENCH_BARRIER();                                        \
        (void)step.value;                                       \
      }                                                         \
    }                                                           \
  }

BENCH_KIND_LOOPS(isr_enter, Kind::kIsrEnter, BENCH_ISR_ENTER(tband::bench::kMixIsrId))
BENCH_KIND_LOOPS(isr_exit, Kind::kIsrExit, BENCH_ISR_EXIT(tband::bench::kMixIsrId))
BENCH_KIND_LOOPS(evtmarker_begin, Kind::kEvtmarkerBegin,
                 BENCH_EVTMARKER_BEGIN(tband::bench::kMixEvtmarkerId, tband::bench::kMixMessage))
BENCH_KIND_LOOPS(evtmarker_end, Kind::kEvtmarkerEnd, BENCH_EVTMARKER_END(tband::bench::kMixEvtmarkerId))
BENCH_KIND_LOOPS(valmarker, Kind::kValmarker, BENCH_VALMARKER(tband::bench::kMixValmarkerId, step.value))

__attribute__((noinline)) void run_mix() {
  for (const MixStep& step : g_steps) {
    tband_bench_now = step.ts;
    switch (step.kind) {
      case Kind::kIsrEnter:
        BENCH_ISR_ENTER(tband::bench::kMixIsrId);
        break;
      case Kind::kEvtmarkerBegin:
        BENCH_EVTMARKER_BEGIN(tband::bench::kMixEvtmarkerId, tband::bench::kMixMessage);
        break;
      case Kind::kValmarker:
        BENCH_VALMARKER(tband::bench::kMixValmarkerId, step.value);
        break;
      case Kind::kEvtmarkerEnd:
        BENCH_EVTMARKER_END(tband::bench::kMixEvtmarkerId);
        break;
      case Kind::kIsrExit:
        BENCH_ISR_EXIT(tband::bench::kMixIsrId);
        break;
    }
    BENCH_BARRIER();
  }
}

__attribute__((noinline)) void baseline_mix() {
  for (const MixStep& step : g_steps) {
    tband_bench_now = step.ts;
    switch (step.kind) {  // same dispatch as run_mix, without the calls
      case Kind::kIsrEnter:
      case Kind::kEvtmarkerBegin:
      case Kind::kValmarker:
      case Kind::kEvtmarkerEnd:
      case Kind::kIsrExit:
        BENCH_BARRIER();
        break;
    }
    (void)step.value;
  }
}

constexpr size_t kCalibrationLoops = 1000;
__attribute__((noinline)) void run_calibration() {
  for (size_t i = 0; i < kCalibrationLoops; ++i) {
    __asm volatile(".rept 100\n\tnop\n\t.endr" ::: "memory");
  }
}
__attribute__((noinline)) void baseline_calibration() {
  for (size_t i = 0; i < kCalibrationLoops; ++i) {
    __asm volatile("" ::: "memory");
  }
}

// Instructions of fn, as the FPGAIO counter sees them under -icount shift=0.
uint64_t instructions(void (*fn)()) {
  const uint64_t start = board_clock();
  fn();
  return (board_clock() - start) * BOARD_NS_PER_COUNT;
}

void put_uint(uint64_t value) {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) {
    board_uart_write(reinterpret_cast<const uint8_t*>(&digits[--n]), 1);
  }
}

void report(const char* name, void (*run)(), void (*baseline)(), uint64_t calls) {
  const uint64_t with_calls = instructions(run);
  const uint64_t without = instructions(baseline);
  board_uart_puts(name);
  board_uart_puts(" ");
  put_uint(with_calls > without ? (with_calls - without) * 1000 / calls : 0);
  board_uart_puts("\ncalls ");  // for the cycle model (cm4_cycle_model.py)
  board_uart_puts(name);
  board_uart_puts(" ");
  put_uint(calls);
  board_uart_puts("\n");
}

}  // namespace

extern "C" void app_systick_handler(void) {}
extern "C" void app_adc_timer_handler(void) {}
extern "C" void app_fault_handler(void) {
  board_uart_puts("fault\n");
  board_exit(2);
}

int main() {
  board_uart_init();
  tband::bench::BenchmarkMix mix;
  for (MixStep& step : g_steps) {
    step = mix.next();
  }
  if (!start_tracer()) {
    board_uart_puts("starting the tracer failed\n");
    return 1;
  }
  report("calibration_100_nops", run_calibration, baseline_calibration, kCalibrationLoops);
  // The same order as on the host (hook_loops.hpp run_all).
  report("isr_enter", run_isr_enter, baseline_isr_enter, kCycles);
  report("evtmarker_begin", run_evtmarker_begin, baseline_evtmarker_begin, kCycles);
  report("valmarker", run_valmarker, baseline_valmarker, kCycles);
  report("evtmarker_end", run_evtmarker_end, baseline_evtmarker_end, kCycles);
  report("isr_exit", run_isr_exit, baseline_isr_exit, kCycles);
  report("mix", run_mix, baseline_mix, kSteps);
  board_uart_puts("done\n");
  return 0;
}
