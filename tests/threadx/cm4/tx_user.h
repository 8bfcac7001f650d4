/* Build options of the ThreadX kernel (ports/cortex_m4/gnu) for tband's
   trace scenario on QEMU's mps2-an386 (platform.c), included by the port's
   tx_port.h and its assembly files through TX_INCLUDE_USER_DEFINE_FILE:
   macros only. tband's own file, not the kernel's. */
#ifndef TBAND_THREADX_CM4_TX_USER_H
#define TBAND_THREADX_CM4_TX_USER_H

#define TX_ENABLE_EVENT_TRACE

/* Time stamps: the board's FPGAIO counter, 25 MHz, 32 bits (so
   --threadx-clock-hz 25000000). The port's default, DWT CYCCNT, is not
   modelled by QEMU (it reads 0). */
#define TX_TRACE_TIME_SOURCE (*(volatile ULONG*)0x40028018UL)
#define TX_TRACE_TIME_MASK 0xFFFFFFFFUL

#endif
