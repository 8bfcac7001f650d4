/* Stand-in for the FreeRTOS kernel's timers.h: the timer service task and
 * software timers (see timers.c), with the real names and command values. */
#ifndef TIMERS_H
#define TIMERS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include timers.h"
#endif

#include "task.h"

#ifdef __cplusplus
extern "C" {
#endif

#define tmrCOMMAND_START_DONT_TRACE ((BaseType_t)0)
#define tmrCOMMAND_START ((BaseType_t)1)
#define tmrCOMMAND_RESET ((BaseType_t)2)
#define tmrCOMMAND_STOP ((BaseType_t)3)
#define tmrCOMMAND_CHANGE_PERIOD ((BaseType_t)4)
#define tmrCOMMAND_DELETE ((BaseType_t)5)
#define tmrFIRST_FROM_ISR_COMMAND ((BaseType_t)6)
#define tmrCOMMAND_START_FROM_ISR ((BaseType_t)6)
#define tmrCOMMAND_RESET_FROM_ISR ((BaseType_t)7)
#define tmrCOMMAND_STOP_FROM_ISR ((BaseType_t)8)
#define tmrCOMMAND_CHANGE_PERIOD_FROM_ISR ((BaseType_t)9)

struct tmrTimerControl;
typedef struct tmrTimerControl* TimerHandle_t;
typedef void (*TimerCallbackFunction_t)(TimerHandle_t xTimer);

BaseType_t xTimerCreateTimerTask(void);
TaskHandle_t xTimerGetTimerDaemonTaskHandle(void);

TimerHandle_t xTimerCreate(const char* const pcTimerName, const TickType_t xTimerPeriodInTicks,
                           const BaseType_t xAutoReload, void* const pvTimerID,
                           TimerCallbackFunction_t pxCallbackFunction);
BaseType_t xTimerGenericCommand(TimerHandle_t xTimer, const BaseType_t xCommandID, const TickType_t xOptionalValue,
                                BaseType_t* const pxHigherPriorityTaskWoken, const TickType_t xTicksToWait);
#define xTimerStart(xTimer, xTicksToWait) \
  xTimerGenericCommand((xTimer), tmrCOMMAND_START, xTaskGetTickCount(), NULL, (xTicksToWait))
#define xTimerStop(xTimer, xTicksToWait) xTimerGenericCommand((xTimer), tmrCOMMAND_STOP, 0U, NULL, (xTicksToWait))
#define xTimerChangePeriod(xTimer, xNewPeriod, xTicksToWait) \
  xTimerGenericCommand((xTimer), tmrCOMMAND_CHANGE_PERIOD, (xNewPeriod), NULL, (xTicksToWait))
#define xTimerDelete(xTimer, xTicksToWait) xTimerGenericCommand((xTimer), tmrCOMMAND_DELETE, 0U, NULL, (xTicksToWait))
#define xTimerReset(xTimer, xTicksToWait) \
  xTimerGenericCommand((xTimer), tmrCOMMAND_RESET, xTaskGetTickCount(), NULL, (xTicksToWait))
#define xTimerStopFromISR(xTimer, pxHigherPriorityTaskWoken) \
  xTimerGenericCommand((xTimer), tmrCOMMAND_STOP_FROM_ISR, 0, (pxHigherPriorityTaskWoken), 0U)
#define xTimerResetFromISR(xTimer, pxHigherPriorityTaskWoken) \
  xTimerGenericCommand((xTimer), tmrCOMMAND_RESET_FROM_ISR, xTaskGetTickCount(), (pxHigherPriorityTaskWoken), 0U)
#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxTimerGetTimerNumber(TimerHandle_t xTimer);
#endif

/* Stand-in: the timer task, running, waits for a command or its next
 * timer's expiry (blocks on its queue); standin_timer_task_run() is the
 * timer task's work once it runs again: the timers due expire (callbacks
 * called), the commands queued are carried out, and it waits again. */
void standin_timer_task_wait(void);
void standin_timer_task_run(void);
/* Set: a command a task sends is carried out before xTimerGenericCommand
 * returns, as when the real kernel's timer task has the higher priority and
 * preempts the sender (a deleted timer is freed before the trace macro). */
extern BaseType_t standin_timer_task_preempts;

#ifdef __cplusplus
}
#endif

#endif /* TIMERS_H */
