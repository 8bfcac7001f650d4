/* Build options of the ThreadX kernel for tband's trace scenario
   (scenario.c), included by the kernel's tx_port.h through
   TX_INCLUDE_USER_DEFINE_FILE. tband's own file, not the kernel's. */
#ifndef TBAND_THREADX_TX_USER_H
#define TBAND_THREADX_TX_USER_H

#define TX_ENABLE_EVENT_TRACE

/* Time stamps: microseconds of CLOCK_MONOTONIC (so --threadx-clock-hz 1000000),
   cut to TBAND_TIME_BITS bits to try the reader's unwrapping. */
unsigned int tband_scenario_time_us(void);
#define TX_TRACE_TIME_SOURCE tband_scenario_time_us()
#ifndef TBAND_TIME_BITS
#define TBAND_TIME_BITS 32
#endif
#if TBAND_TIME_BITS == 16
#define TX_TRACE_TIME_MASK 0x0000FFFFUL
#else
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL
#endif

#endif
