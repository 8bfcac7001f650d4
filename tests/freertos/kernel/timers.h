/* Stand-in for the FreeRTOS kernel's timers.h: the timer service task (the
 * stand-in has no software timers). */
#ifndef TIMERS_H
#define TIMERS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include timers.h"
#endif

#include "task.h"

#ifdef __cplusplus
extern "C" {
#endif

BaseType_t xTimerCreateTimerTask(void);
TaskHandle_t xTimerGetTimerDaemonTaskHandle(void);

/* Stand-in: the timer task, running, waits for a command (blocks on its queue). */
void standin_timer_task_wait(void);

#ifdef __cplusplus
}
#endif

#endif /* TIMERS_H */
