/* tband port for a bare-metal Cortex-M4 built with GCC: a documented example.
 *
 * Critical section: PRIMASK is saved, interrupts are disabled, PRIMASK is
 * restored; so hooks may be called from interrupts and from code that already
 * disabled them. One core.
 *
 * Timestamp: the DWT cycle counter (CYCCNT), extended to 64 bits in software
 * (tband_port_cortex_m4.c). Call tband_cm4_init_cycle_counter() once at boot.
 * The extension sees each wrap of the 32-bit counter only if a timestamp is
 * taken at least once per 2^32 cycles (26 s at 168 MHz): trace something, or
 * call tband_cm4_timestamp() (safe from any context) from a periodic interrupt.
 *
 * Set in tband_config.h:
 *   TBAND_CM4_NS_PER_CYCLE  nanoseconds per CPU cycle, an integer (the trace
 *                           format's ns_per_ts is whole nanoseconds): 10 at 100 MHz.
 *   TBAND_CM4_STREAM(buf, len)  with the streaming backend: returns true if
 *                           it dropped the data (e.g. a UART or RTT writer).
 *                           All or nothing: it takes the whole buffer or none.
 *   TBAND_CM4_STREAM_START_RETRY_WAIT()  optional, with
 *                           tband_configBACKEND_STREAM_START_RETRIES: runs
 *                           before start hands the hook what it dropped again.
 *   TBAND_CM4_EXTERNAL(buf, len, is_metadata)  likewise for the external backend.
 * A timer other than the DWT (QEMU does not model it) can replace the
 * timestamp: define tband_portTIMESTAMP() and tband_portTIMESTAMP_RESOLUTION_NS
 * before this header is read, e.g. in tband_config.h.
 *
 * What tband_start_streaming() needs from the link: it runs with interrupts
 * off (PRIMASK), so a UART ring drained from an interrupt does not drain
 * while it runs. Without start retries the hook must take the whole
 * metadata buffer (up to tband_configMETADATA_BUF_SIZE bytes) in one call:
 * start when the ring is empty and has that much room, or let the hook wait
 * for the UART itself (the QEMU examples' writer polls its TX-full flag and
 * never drops). With retries the hook gets one frame at a time, and the wait
 * must let the link drain in a bounded time: move bytes from the ring to the
 * UART's transmit register by polling, or, for RTT, wait a fixed time for
 * the debug probe, which reads the up-buffer without the CPU
 * (target/README.md, Streaming start over a lossy link). */
#ifndef TBAND_PORT_CORTEX_M4_GCC_H_
#define TBAND_PORT_CORTEX_M4_GCC_H_

#include "tband_cm4_common.h"

#define tband_portENTER_CRITICAL_FROM_ANY()   \
  uint32_t tband_port_primask;                \
  __asm volatile("mrs %0, primask\n\tcpsid i" \
                 : "=r"(tband_port_primask)   \
                 :                            \
                 : "memory")
#define tband_portEXIT_CRITICAL_FROM_ANY() __asm volatile("msr primask, %0" : : "r"(tband_port_primask) : "memory")

#endif /* TBAND_PORT_CORTEX_M4_GCC_H_ */
