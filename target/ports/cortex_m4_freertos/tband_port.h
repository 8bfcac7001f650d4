/* tband port for FreeRTOS on a Cortex-M4 built with GCC: a documented example.
 *
 * Critical section: the kernel's interrupt mask, saved and restored:
 * portSET_INTERRUPT_MASK_FROM_ISR() raises BASEPRI to
 * configMAX_SYSCALL_INTERRUPT_PRIORITY and returns the value it found,
 * portCLEAR_INTERRUPT_MASK_FROM_ISR() puts that value back. Both are valid
 * in tasks, in interrupts and inside the kernel's own critical sections, and
 * never unmask what the hook did not mask. (taskENTER_CRITICAL() /
 * taskEXIT_CRITICAL() must not be used: the kernel calls some hooks with
 * interrupts off but the port's nesting count at 0, e.g. V10's
 * vTaskStartScheduler() calls traceTASK_SWITCHED_IN() there, and
 * taskEXIT_CRITICAL() would turn interrupts on.) As for any FreeRTOS API,
 * an interrupt above configMAX_SYSCALL_INTERRUPT_PRIORITY must not trace.
 * One core.
 *
 * Timestamp and backends: as the bare-metal Cortex-M4 port
 * (ports/cortex_m4_gcc/tband_cm4_common.h): add
 * ports/cortex_m4_gcc/tband_port_cortex_m4.c to the build, call
 * tband_cm4_init_cycle_counter() once at boot (see that port for the
 * extension's one condition), and set in tband_config.h:
 *   TBAND_CM4_NS_PER_CYCLE     nanoseconds per CPU cycle (whole)
 *   TBAND_CM4_STREAM(buf, len)  with the streaming backend (true: dropped)
 *   TBAND_CM4_STREAM_START_RETRY_WAIT()  optional, with start retries
 *   TBAND_CM4_EXTERNAL(buf, len, is_metadata)  with the external backend
 *   TBAND_CM4_SNAPSHOT_FULL()   optional, with the snapshot backend
 *
 * tband_start_streaming() runs with BASEPRI raised: as for the bare-metal
 * port, the link must take the metadata while the kernel's interrupts are
 * masked (see that port), and must not wait on a FreeRTOS object (no kernel
 * call from the hook or the wait).
 *
 * This header includes FreeRTOS.h (for portmacro.h); tband.h, which
 * FreeRTOSConfig.h includes, does not include it (that would be a cycle):
 * only the tracer's own sources read the port. */
#ifndef TBAND_PORT_CORTEX_M4_FREERTOS_H_
#define TBAND_PORT_CORTEX_M4_FREERTOS_H_

#include "../cortex_m4_gcc/tband_cm4_common.h"
#include "FreeRTOS.h"

/* The two macros open and close one block; the saved mask lives in it. */
#define tband_portENTER_CRITICAL_FROM_ANY() const UBaseType_t tband_port_saved_mask = portSET_INTERRUPT_MASK_FROM_ISR()
#define tband_portEXIT_CRITICAL_FROM_ANY() portCLEAR_INTERRUPT_MASK_FROM_ISR(tband_port_saved_mask)

#endif /* TBAND_PORT_CORTEX_M4_FREERTOS_H_ */
