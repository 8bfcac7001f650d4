/* tband_configENABLE 0 from C11: every call compiles (-Wall -Wextra -Werror)
 * and does nothing. Returns how many checks failed. */
#include <stddef.h>

#include "tband.h"

int tband_disabled_c_calls(void);

int tband_disabled_c_calls(void) {
  int failures = 0;
  tband_gather_system_metadata();
  tband_isr_name(1, "x");
  tband_isr_enter(1);
  tband_isr_exit(1);
  tband_evtmarker_name(1, "x");
  tband_evtmarker(1, "x");
  tband_evtmarker_begin(1, "x");
  tband_evtmarker_end(1);
  tband_valmarker_name(1, "x");
  tband_valmarker(1, -1);
  failures += tband_tracing_enabled();
  failures += !tband_tracing_finished();
  failures += tband_start_streaming() != 0;
  failures += tband_get_metadata_buf(0) != NULL;
  return failures;
}
