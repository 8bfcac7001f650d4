/* Stand-in for the FreeRTOS kernel's timers.c: the timer service task, which
 * vTaskStartScheduler() creates (configUSE_TIMERS 1). */
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "timers.h"

#if configUSE_TIMERS == 1

#ifndef configTIMER_SERVICE_TASK_NAME
#define configTIMER_SERVICE_TASK_NAME "Tmr Svc"
#endif

static TaskHandle_t xTimerTaskHandle = NULL;
static QueueHandle_t xTimerQueue = NULL;

static void prvTimerTask(void* pvParameters) { (void)pvParameters; }

static void prvCheckForValidListAndQueue(void) {
  if (xTimerQueue == NULL) {
    xTimerQueue = xQueueCreate((UBaseType_t)configTIMER_QUEUE_LENGTH, sizeof(uint32_t));
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

/* prvTimerTask() with no timer running: it waits for a command. */
void standin_timer_task_wait(void) {
  vQueueWaitForMessageRestricted(xTimerQueue, portMAX_DELAY, pdTRUE);
  portYIELD_WITHIN_API();
}

TaskHandle_t xTimerGetTimerDaemonTaskHandle(void) { return xTimerTaskHandle; }

#endif
