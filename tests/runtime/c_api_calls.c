/* The C API used from C11 (compiled with -std=c11 -Wall -Wextra -Wpedantic
 * -Werror): every function of the streaming configuration, once. */
#include "c_api_calls.h"

#include "tband.h"
#include "tband_port.h"

int tband_c_api_calls(void) {
  int failures = 0;
  tband_host_set_time(100);
  tband_gather_system_metadata();
  tband_isr_name(3, "timer");
  tband_evtmarker_name(1, "work");
  tband_valmarker_name(2, "level");
  failures += tband_get_metadata_buf(0) == NULL;
  failures += tband_get_metadata_buf_amnt(0) == 0;
  failures += tband_start_streaming() != 0;
  failures += !tband_tracing_enabled();
  failures += tband_tracing_finished();
  failures += tband_tracing_backend_finished(0);
  tband_host_set_time(110);
  tband_isr_enter(3);
  tband_host_set_time(120);
  tband_evtmarker(1, "go");
  tband_evtmarker_begin(1, "span");
  tband_host_set_time(130);
  tband_valmarker(2, -7);
  tband_evtmarker_end(1);
  tband_host_set_time(140);
  tband_isr_exit(3);
  failures += tband_get_dropped_evt_cnt() != 0;
  failures += tband_stop_streaming() != 0;
  failures += !tband_tracing_finished();
  failures += tband_restart_streaming() != 0;
  failures += tband_stop_streaming() != 0;
  return failures;
}
