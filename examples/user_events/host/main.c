/* The motor controller on the host, with tband's host port: a simulated
 * clock (1 ms per tick, in nanoseconds) and the tick "interrupt" called from
 * the main loop. Writes the trace to the file given as the only argument.
 *
 *   motor_host_streaming trace.bin   (or motor_host_snapshot trace.bin) */
#include <stdint.h>
#include <stdio.h>

#include "motor_app.h"
#include "tband.h"
#include "tband_port.h"

#define NS_PER_TICK 1000000u
#define MAX_TICKS 10000u /* the plan takes about 300 */

static FILE* g_trace;

#if tband_configUSE_BACKEND_STREAMING
/* The streaming backend's sink: every frame, metadata first. Returns true
 * (dropped) only when the file cannot take it. */
static bool stream_to_file(void* context, unsigned core_id, const uint8_t* buf, size_t len, bool is_metadata) {
  (void)context;
  (void)core_id;
  (void)is_metadata;
  return fwrite(buf, 1, len, g_trace) != len;
}
#else
static void write_bytes(const volatile uint8_t* data, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    fputc(data[i], g_trace);
  }
}
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TRACE_FILE\n", argv[0]);
    return 2;
  }
  g_trace = fopen(argv[1], "wb");
  if (g_trace == NULL) {
    perror(argv[1]);
    return 1;
  }
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(0);
  motor_app_name_everything();
#if tband_configUSE_BACKEND_STREAMING
  tband_host_set_sink(stream_to_file, NULL);
  if (tband_start_streaming() != 0) {
    fprintf(stderr, "could not start streaming\n");
    return 1;
  }
#else
  if (tband_trigger_snapshot() != 0) {
    fprintf(stderr, "could not start the snapshot\n");
    return 1;
  }
#endif
  tband_host_set_time(1000);
  motor_app_start();

  unsigned tick = 1;
  for (; tick <= MAX_TICKS; ++tick) {
    tband_host_set_time((uint64_t)tick * NS_PER_TICK);
    motor_app_tick();
    tband_host_set_time((uint64_t)tick * NS_PER_TICK + NS_PER_TICK / 4);
    if (!motor_app_step()) {
      break;
    }
  }

#if tband_configUSE_BACKEND_STREAMING
  tband_stop_streaming();
#else
  tband_stop_snapshot();
  /* The metadata buffer, then the events: together one complete stream. */
  write_bytes(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  write_bytes(tband_get_core_snapshot_buf(0), tband_get_core_snapshot_buf_amnt(0));
#endif
  const uint32_t dropped = tband_get_dropped_evt_cnt();
  if (fclose(g_trace) != 0) {
    perror(argv[1]);
    return 1;
  }
  printf("%s: plan done after %u ticks, %u events dropped\n", argv[1], tick, (unsigned)dropped);
  return dropped == 0 && tick <= MAX_TICKS ? 0 : 1;
}
