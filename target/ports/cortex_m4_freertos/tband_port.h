/* tband port for FreeRTOS on a Cortex-M4 built with GCC: a documented example.
 *
 * Critical section: the kernel's own. With FreeRTOS the hooks run in tasks,
 * in interrupts and inside the kernel (the scheduler switches tasks in an
 * interrupt), so the critical section asks the core which it is in:
 * taskENTER_CRITICAL_FROM_ISR() in an interrupt, taskENTER_CRITICAL()
 * elsewhere (both nest, so a hook may run inside the kernel's own critical
 * sections). As for any FreeRTOS API, an interrupt above
 * configMAX_SYSCALL_INTERRUPT_PRIORITY must not trace. One core.
 *
 * Timestamp and backends: as the bare-metal Cortex-M4 port
 * (ports/cortex_m4_gcc/tband_cm4_common.h): add
 * ports/cortex_m4_gcc/tband_port_cortex_m4.c to the build, call
 * tband_cm4_init_cycle_counter() once at boot (see that port for the
 * extension's one condition), and set in tband_config.h:
 *   TBAND_CM4_NS_PER_CYCLE     nanoseconds per CPU cycle (whole)
 *   TBAND_CM4_STREAM(buf, len)  with the streaming backend (true: dropped)
 *   TBAND_CM4_EXTERNAL(buf, len, is_metadata)  with the external backend
 *   TBAND_CM4_SNAPSHOT_FULL()   optional, with the snapshot backend
 *
 * This header includes FreeRTOS.h and task.h; tband.h, which
 * FreeRTOSConfig.h includes, does not include it (that would be a cycle):
 * only the tracer's own sources read the port. */
#ifndef TBAND_PORT_CORTEX_M4_FREERTOS_H_
#define TBAND_PORT_CORTEX_M4_FREERTOS_H_

#include "../cortex_m4_gcc/tband_cm4_common.h"
#include "FreeRTOS.h"
#include "task.h"

/* The two macros open and close one block; the interrupt state and the
 * saved mask live in it. */
#define tband_portENTER_CRITICAL_FROM_ANY()                                \
  const bool tband_port_from_isr = xPortIsInsideInterrupt() != pdFALSE; \
  UBaseType_t tband_port_saved_mask = 0;                                   \
  if (tband_port_from_isr) {                                               \
    tband_port_saved_mask = taskENTER_CRITICAL_FROM_ISR();                 \
  } else {                                                                 \
    taskENTER_CRITICAL();                                                  \
  }
#define tband_portEXIT_CRITICAL_FROM_ANY()                  \
  if (tband_port_from_isr) {                                \
    taskEXIT_CRITICAL_FROM_ISR(tband_port_saved_mask);      \
  } else {                                                  \
    taskEXIT_CRITICAL();                                    \
  }

#endif /* TBAND_PORT_CORTEX_M4_FREERTOS_H_ */
