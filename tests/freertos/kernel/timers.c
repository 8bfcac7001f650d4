/* Stand-in for the FreeRTOS kernel's timers.c: the timer service task, which
 * vTaskStartScheduler() creates (configUSE_TIMERS 1), and software timers
 * driven by commands on its queue, as in V10 and V11. The trace macros are
 * called where the real functions call them, with the same names in scope
 * (pxNewTimer, xTimer, pxTimer, the command and its value, xReturn). The
 * stand-in's timer task does its work when the scenario calls
 * standin_timer_task_run(); commands are sent without waiting for room. */
#include <stdlib.h>

#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "timers.h"

#if configUSE_TIMERS == 1

#ifndef configTIMER_SERVICE_TASK_NAME
#define configTIMER_SERVICE_TASK_NAME "Tmr Svc"
#endif

#define tmrSTATUS_IS_ACTIVE ((uint8_t)0x01)
#define tmrSTATUS_IS_AUTORELOAD ((uint8_t)0x04)
#define standinMAX_TIMERS 8

typedef struct tmrTimerControl {
  const char* pcTimerName;
  TickType_t xTimerPeriodInTicks;
  void* pvTimerID;
  TimerCallbackFunction_t pxCallbackFunction;
#if configUSE_TRACE_FACILITY == 1
  UBaseType_t uxTimerNumber;
#endif
  uint8_t ucStatus;
  TickType_t xExpiryTime; /* stand-in: the real kernel keeps it in the timer's list item */
} Timer_t;

typedef struct {
  BaseType_t xMessageID;
  TickType_t xMessageValue;
  Timer_t* pxTimer;
} DaemonTaskMessage_t;

static TaskHandle_t xTimerTaskHandle = NULL;
static QueueHandle_t xTimerQueue = NULL;
BaseType_t standin_timer_task_preempts = pdFALSE;
static void prvProcessReceivedCommands(void);
static Timer_t* pxActiveTimers[standinMAX_TIMERS]; /* the active list, unsorted */

static void prvTimerTask(void* pvParameters) { (void)pvParameters; }

static void prvCheckForValidListAndQueue(void) {
  if (xTimerQueue == NULL) {
    xTimerQueue = xQueueCreate((UBaseType_t)configTIMER_QUEUE_LENGTH, sizeof(DaemonTaskMessage_t));
#if configQUEUE_REGISTRY_SIZE > 0
    if (xTimerQueue != NULL) {
      vQueueAddToRegistry(xTimerQueue, "TmrQ");
    }
#endif
  }
}

BaseType_t xTimerCreateTimerTask(void) {
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xTimerCreateTimerTask();
#endif
  prvCheckForValidListAndQueue();
  const BaseType_t xReturn = xTaskCreate(prvTimerTask, configTIMER_SERVICE_TASK_NAME, 128, NULL,
                                         ((UBaseType_t)configTIMER_TASK_PRIORITY), &xTimerTaskHandle);
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xTimerCreateTimerTask(xReturn);
#endif
  return xReturn;
}

TaskHandle_t xTimerGetTimerDaemonTaskHandle(void) { return xTimerTaskHandle; }

static void prvInitialiseNewTimer(const char* const pcTimerName, const TickType_t xTimerPeriodInTicks,
                                  const BaseType_t xAutoReload, void* const pvTimerID,
                                  TimerCallbackFunction_t pxCallbackFunction, Timer_t* pxNewTimer) {
  prvCheckForValidListAndQueue();
  pxNewTimer->pcTimerName = pcTimerName;
  pxNewTimer->xTimerPeriodInTicks = xTimerPeriodInTicks;
  pxNewTimer->pvTimerID = pvTimerID;
  pxNewTimer->pxCallbackFunction = pxCallbackFunction;
  if (xAutoReload != pdFALSE) {
    pxNewTimer->ucStatus |= tmrSTATUS_IS_AUTORELOAD;
  }
  traceTIMER_CREATE(pxNewTimer);
}

TimerHandle_t xTimerCreate(const char* const pcTimerName, const TickType_t xTimerPeriodInTicks,
                           const BaseType_t xAutoReload, void* const pvTimerID,
                           TimerCallbackFunction_t pxCallbackFunction) {
  /* The kernel does not clear the trace field: neither does the stand-in. */
  Timer_t* pxNewTimer = (Timer_t*)malloc(sizeof(Timer_t));
  if (pxNewTimer != NULL) {
    pxNewTimer->ucStatus = 0x00;
    prvInitialiseNewTimer(pcTimerName, xTimerPeriodInTicks, xAutoReload, pvTimerID, pxCallbackFunction, pxNewTimer);
  } else {
    traceTIMER_CREATE_FAILED();
  }
  return pxNewTimer;
}

BaseType_t xTimerGenericCommand(TimerHandle_t xTimer, const BaseType_t xCommandID, const TickType_t xOptionalValue,
                                BaseType_t* const pxHigherPriorityTaskWoken, const TickType_t xTicksToWait) {
  BaseType_t xReturn = pdFAIL;
  (void)xTicksToWait;
  if (xTimerQueue != NULL && xTimer != NULL) {
    DaemonTaskMessage_t xMessage;
    xMessage.xMessageID = xCommandID;
    xMessage.xMessageValue = xOptionalValue;
    xMessage.pxTimer = xTimer;
    if (xCommandID < tmrFIRST_FROM_ISR_COMMAND) {
      xReturn = xQueueSend(xTimerQueue, &xMessage, 0);
      if (xReturn == pdPASS && standin_timer_task_preempts) {
        prvProcessReceivedCommands(); /* before the trace macro, as on the real kernel */
      }
    } else {
      xReturn = xQueueSendFromISR(xTimerQueue, &xMessage, pxHigherPriorityTaskWoken);
    }
    traceTIMER_COMMAND_SEND(xTimer, xCommandID, xOptionalValue, xReturn);
  }
  return xReturn;
}

#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxTimerGetTimerNumber(TimerHandle_t xTimer) { return xTimer->uxTimerNumber; }
#endif

static void prvSetActive(Timer_t* pxTimer, BaseType_t xActive) {
  for (int i = 0; i < standinMAX_TIMERS; i++) {
    if (pxActiveTimers[i] == pxTimer) {
      pxActiveTimers[i] = NULL;
    }
  }
  pxTimer->ucStatus &= (uint8_t)~tmrSTATUS_IS_ACTIVE;
  for (int i = 0; xActive != pdFALSE && i < standinMAX_TIMERS; i++) {
    if (pxActiveTimers[i] == NULL) {
      pxActiveTimers[i] = pxTimer;
      pxTimer->ucStatus |= tmrSTATUS_IS_ACTIVE;
      break;
    }
  }
}

/* prvProcessExpiredTimer(): an auto-reload timer goes on, a one-shot stops. */
static void prvProcessExpiredTimers(const TickType_t xTimeNow) {
  for (int i = 0; i < standinMAX_TIMERS; i++) {
    Timer_t* const pxTimer = pxActiveTimers[i];
    if (pxTimer == NULL || pxTimer->xExpiryTime > xTimeNow) {
      continue;
    }
    if ((pxTimer->ucStatus & tmrSTATUS_IS_AUTORELOAD) != 0) {
      pxTimer->xExpiryTime += pxTimer->xTimerPeriodInTicks;
    } else {
      prvSetActive(pxTimer, pdFALSE);
    }
    traceTIMER_EXPIRED(pxTimer);
    pxTimer->pxCallbackFunction((TimerHandle_t)pxTimer);
  }
}

/* prvProcessReceivedCommands(). */
static void prvProcessReceivedCommands(void) {
  DaemonTaskMessage_t xMessage;
  while (xQueueReceive(xTimerQueue, &xMessage, 0) != pdFAIL) {
    Timer_t* const pxTimer = xMessage.pxTimer;
    traceTIMER_COMMAND_RECEIVED(pxTimer, xMessage.xMessageID, xMessage.xMessageValue);
    const TickType_t xTimeNow = xTaskGetTickCount();
    switch (xMessage.xMessageID) {
      case tmrCOMMAND_START:
      case tmrCOMMAND_START_FROM_ISR:
      case tmrCOMMAND_RESET:
      case tmrCOMMAND_RESET_FROM_ISR:
        pxTimer->xExpiryTime = xMessage.xMessageValue + pxTimer->xTimerPeriodInTicks;
        prvSetActive(pxTimer, pdTRUE);
        break;
      case tmrCOMMAND_STOP:
      case tmrCOMMAND_STOP_FROM_ISR:
        prvSetActive(pxTimer, pdFALSE);
        break;
      case tmrCOMMAND_CHANGE_PERIOD:
      case tmrCOMMAND_CHANGE_PERIOD_FROM_ISR:
        pxTimer->xTimerPeriodInTicks = xMessage.xMessageValue;
        pxTimer->xExpiryTime = xTimeNow + pxTimer->xTimerPeriodInTicks;
        prvSetActive(pxTimer, pdTRUE);
        break;
      case tmrCOMMAND_DELETE:
        prvSetActive(pxTimer, pdFALSE);
        free(pxTimer);
        break;
      default:
        break;
    }
  }
}

/* prvTimerTask()'s wait: for a command, or until its next timer expires. */
void standin_timer_task_wait(void) {
  BaseType_t xListWasEmpty = pdTRUE;
  TickType_t xNextExpireTime = 0;
  for (int i = 0; i < standinMAX_TIMERS; i++) {
    if (pxActiveTimers[i] != NULL && (xListWasEmpty != pdFALSE || pxActiveTimers[i]->xExpiryTime < xNextExpireTime)) {
      xNextExpireTime = pxActiveTimers[i]->xExpiryTime;
      xListWasEmpty = pdFALSE;
    }
  }
  const TickType_t xTimeNow = xTaskGetTickCount();
  vQueueWaitForMessageRestricted(xTimerQueue, xNextExpireTime - xTimeNow, xListWasEmpty);
  portYIELD_WITHIN_API();
}

void standin_timer_task_run(void) {
  prvProcessExpiredTimers(xTaskGetTickCount());
  prvProcessReceivedCommands();
  standin_timer_task_wait();
}

#endif
