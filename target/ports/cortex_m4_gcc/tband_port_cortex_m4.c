/* Cortex-M4 port: the DWT cycle counter as a 64-bit timestamp. */
#include <stdint.h>

#include "tband.h"

#if tband_configENABLE == 1

#include "tband_port.h"

#define DEMCR (*(volatile uint32_t*)0xE000EDFCu)
#define DWT_CTRL (*(volatile uint32_t*)0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t*)0xE0001004u)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_CYCCNTENA 1u

void tband_cm4_init_cycle_counter(void) {
  DEMCR |= DEMCR_TRCENA;
  DWT_CYCCNT = 0;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
}

/* Safe from any context: the read and the extension happen with interrupts
 * off (the tracer calls it inside its critical section anyway). */
uint64_t tband_cm4_timestamp(void) {
  static uint32_t high;
  static uint32_t last;
  tband_portENTER_CRITICAL_FROM_ANY();
  const uint32_t now = DWT_CYCCNT;
  if (now < last) {
    ++high;
  }
  last = now;
  const uint64_t ts = ((uint64_t)high << 32) | now;
  tband_portEXIT_CRITICAL_FROM_ANY();
  return ts;
}

#endif
