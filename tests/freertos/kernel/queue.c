/* Stand-in for the FreeRTOS kernel's queue.c (see FreeRTOS.h): queues,
 * semaphores, mutexes (with priority inheritance), the registry and queue
 * sets. The trace macros are called where the real functions call them,
 * before or after the state changes as there, with the same names in scope
 * (pxQueue, xTicksToWait, xCopyPosition, xHandle, uxInitialCount,
 * xQueueOrSemaphore, xQueueSet). A call
 * that would block returns errSTANDIN_BLOCKED after the task blocked and the
 * core switched away (see FreeRTOS.h). */
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

typedef struct SemaphoreData {
  TaskHandle_t xMutexHolder;
  UBaseType_t uxRecursiveCallCount;
} SemaphoreData_t;

/* The queue, with the real field names (tband's macros read uxMessagesWaiting,
 * uxLength, uxQueueNumber and ucQueueType). */
typedef struct QueueDefinition {
  int8_t* pcHead; /* NULL for a mutex (queueQUEUE_IS_MUTEX) */
  int8_t* pcWriteTo;
  SemaphoreData_t xSemaphore;
  List_t xTasksWaitingToSend;
  List_t xTasksWaitingToReceive;
  volatile UBaseType_t uxMessagesWaiting;
  UBaseType_t uxLength;
  UBaseType_t uxItemSize;
#if configUSE_QUEUE_SETS == 1
  struct QueueDefinition* pxQueueSetContainer;
#endif
#if configUSE_TRACE_FACILITY == 1
  UBaseType_t uxQueueNumber;
  uint8_t ucQueueType;
#endif
} xQUEUE;
typedef xQUEUE Queue_t;

#define uxQueueType pcHead
#define queueQUEUE_IS_MUTEX NULL
#define queueSEMAPHORE_QUEUE_ITEM_LENGTH ((UBaseType_t)0)
#define queueMUTEX_GIVE_BLOCK_TIME ((TickType_t)0U)

#if configUSE_PREEMPTION == 0
#define queueYIELD_IF_USING_PREEMPTION()
#else
#define queueYIELD_IF_USING_PREEMPTION() portYIELD_WITHIN_API()
#endif

/* ---- Waking and blocking (what every sending and receiving call ends with) ---- */

/* Task context: readies the highest-priority task waiting on the list, and
 * switches if it outranks the caller. */
static void prvWakeWaiter(List_t* const pxWaitingList) {
  if (listLIST_IS_EMPTY(pxWaitingList) == pdFALSE) {
    if (xTaskRemoveFromEventList(pxWaitingList) != pdFALSE) {
      queueYIELD_IF_USING_PREEMPTION();
    }
  }
}

/* Interrupt context: the same; the switch waits for the interrupt's end. */
static void prvWakeWaiterFromISR(List_t* const pxWaitingList, BaseType_t* const pxHigherPriorityTaskWoken) {
  if (listLIST_IS_EMPTY(pxWaitingList) == pdFALSE) {
    if (xTaskRemoveFromEventList(pxWaitingList) != pdFALSE && pxHigherPriorityTaskWoken != NULL) {
      *pxHigherPriorityTaskWoken = pdTRUE;
    }
  }
}

/* The caller, with the scheduler suspended and the blocking traced, waits on
 * the list; the core switches to another task. */
static BaseType_t prvBlockOn(List_t* const pxWaitingList, const TickType_t xTicksToWait) {
  vTaskPlaceOnEventList(pxWaitingList, xTicksToWait);
  if (xTaskResumeAll() == pdFALSE) {
    portYIELD_WITHIN_API();
  }
  return errSTANDIN_BLOCKED;
}

/* ---- Creation -------------------------------------------------------------------- */

BaseType_t xQueueGenericReset(QueueHandle_t xQueue, BaseType_t xNewQueue) {
  BaseType_t xReturn = pdPASS;
  Queue_t* const pxQueue = xQueue;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueGenericReset(xQueue, xNewQueue);
#endif
#if STANDIN_KERNEL_EXT_HOOKS
  traceQUEUE_RESET(pxQueue, xNewQueue);
#endif
  taskENTER_CRITICAL();
  {
    pxQueue->uxMessagesWaiting = (UBaseType_t)0U;
    pxQueue->pcWriteTo = pxQueue->pcHead;
    if (xNewQueue == pdFALSE) {
      prvWakeWaiter(&(pxQueue->xTasksWaitingToSend));
    } else {
      vListInitialise(&(pxQueue->xTasksWaitingToSend));
      vListInitialise(&(pxQueue->xTasksWaitingToReceive));
    }
  }
  taskEXIT_CRITICAL();
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueGenericReset(xReturn);
#endif
  return xReturn;
}

static void prvInitialiseNewQueue(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize,
                                  uint8_t* pucQueueStorage, const uint8_t ucQueueType, Queue_t* pxNewQueue) {
  (void)ucQueueType;
  pxNewQueue->pcHead = (uxItemSize == 0) ? (int8_t*)pxNewQueue : (int8_t*)pucQueueStorage;
  pxNewQueue->uxLength = uxQueueLength;
  pxNewQueue->uxItemSize = uxItemSize;
  (void)xQueueGenericReset(pxNewQueue, pdTRUE);
#if configUSE_TRACE_FACILITY == 1
  pxNewQueue->ucQueueType = ucQueueType;
#endif
#if configUSE_QUEUE_SETS == 1
  pxNewQueue->pxQueueSetContainer = NULL;
#endif
  traceQUEUE_CREATE(pxNewQueue);
}

QueueHandle_t xQueueGenericCreate(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize,
                                  const uint8_t ucQueueType) {
  /* Not cleared, as in the kernel: the queue number must come from the tracer. */
  Queue_t* pxNewQueue = (Queue_t*)malloc(sizeof(Queue_t) + uxQueueLength * uxItemSize);
  if (pxNewQueue == NULL) {
    traceQUEUE_CREATE_FAILED(ucQueueType);
    return NULL;
  }
  memset(pxNewQueue, 0xA5, sizeof(Queue_t));
  prvInitialiseNewQueue(uxQueueLength, uxItemSize, (uint8_t*)(pxNewQueue + 1), ucQueueType, pxNewQueue);
  return pxNewQueue;
}

/* ---- Moving items ---------------------------------------------------------------- */

static BaseType_t prvCopyDataToQueue(Queue_t* const pxQueue, const void* pvItemToQueue, const BaseType_t xPosition) {
  BaseType_t xReturn = pdFALSE;
  UBaseType_t uxMessagesWaiting = pxQueue->uxMessagesWaiting;
  if (pxQueue->uxItemSize == 0) {
    if (pxQueue->uxQueueType == queueQUEUE_IS_MUTEX) {
      xReturn = xTaskPriorityDisinherit(pxQueue->xSemaphore.xMutexHolder);
      pxQueue->xSemaphore.xMutexHolder = NULL;
    }
  } else if (pvItemToQueue != NULL) {
    /* The real kernel asserts a non-NULL item here; the check also tells
       GCC -O3 that a mutex's NULL item never reaches memcpy. */
    if (xPosition == queueSEND_TO_BACK) {
      memcpy(pxQueue->pcHead + uxMessagesWaiting * pxQueue->uxItemSize, pvItemToQueue, pxQueue->uxItemSize);
    } else {
      /* Front or overwrite: the stand-in keeps items in order. */
      if (xPosition == queueOVERWRITE && uxMessagesWaiting > 0) {
        --uxMessagesWaiting;
      }
      memmove(pxQueue->pcHead + pxQueue->uxItemSize, pxQueue->pcHead, uxMessagesWaiting * pxQueue->uxItemSize);
      memcpy(pxQueue->pcHead, pvItemToQueue, pxQueue->uxItemSize);
    }
  }
  pxQueue->uxMessagesWaiting = uxMessagesWaiting + (UBaseType_t)1;
  return xReturn;
}

static void prvCopyDataFromQueue(Queue_t* const pxQueue, void* const pvBuffer, BaseType_t xRemove) {
  if (pxQueue->uxItemSize != 0) {
    memcpy(pvBuffer, pxQueue->pcHead, pxQueue->uxItemSize);
    if (xRemove != pdFALSE) {
      memmove(pxQueue->pcHead, pxQueue->pcHead + pxQueue->uxItemSize,
              (pxQueue->uxMessagesWaiting - 1) * pxQueue->uxItemSize);
    }
  }
}

#if configUSE_QUEUE_SETS == 1
static BaseType_t prvNotifyQueueSetContainer(const Queue_t* const pxQueue) {
  Queue_t* pxQueueSetContainer = pxQueue->pxQueueSetContainer;
  BaseType_t xReturn = pdFALSE;
  if (pxQueueSetContainer->uxMessagesWaiting < pxQueueSetContainer->uxLength) {
    traceQUEUE_SET_SEND(pxQueueSetContainer);
    xReturn = prvCopyDataToQueue(pxQueueSetContainer, &pxQueue, queueSEND_TO_BACK);
    if (listLIST_IS_EMPTY(&(pxQueueSetContainer->xTasksWaitingToReceive)) == pdFALSE) {
      if (xTaskRemoveFromEventList(&(pxQueueSetContainer->xTasksWaitingToReceive)) != pdFALSE) {
        xReturn = pdTRUE;
      }
    }
  }
  return xReturn;
}
#endif

/* Interrupt context, after an item went in: a set's member puts its handle in
 * the set (unless it overwrote an item), any other queue wakes its receiver.
 * (The stand-in has no queue locks: the kernel does this at once when the
 * queue is not locked.) */
static void prvNotifyOrWakeFromISR(Queue_t* const pxQueue, const BaseType_t xOverwroteItem,
                                   BaseType_t* const pxHigherPriorityTaskWoken) {
#if configUSE_QUEUE_SETS == 1
  if (pxQueue->pxQueueSetContainer != NULL) {
    if (xOverwroteItem == pdFALSE && prvNotifyQueueSetContainer(pxQueue) != pdFALSE &&
        pxHigherPriorityTaskWoken != NULL) {
      *pxHigherPriorityTaskWoken = pdTRUE;
    }
    return;
  }
#endif
  (void)xOverwroteItem;
  prvWakeWaiterFromISR(&(pxQueue->xTasksWaitingToReceive), pxHigherPriorityTaskWoken);
}

BaseType_t xQueueGenericSend(QueueHandle_t xQueue, const void* const pvItemToQueue, TickType_t xTicksToWait,
                             const BaseType_t xCopyPosition) {
  BaseType_t xYieldRequired;
  Queue_t* const pxQueue = xQueue;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueGenericSend(xQueue, pvItemToQueue, xTicksToWait, xCopyPosition);
#endif
  taskENTER_CRITICAL();
  {
    if (pxQueue->uxMessagesWaiting < pxQueue->uxLength || xCopyPosition == queueOVERWRITE) {
#if STANDIN_KERNEL_EXT_HOOKS
      traceQUEUE_SEND_EXT(pxQueue, xCopyPosition);
#else
      traceQUEUE_SEND(pxQueue);
#endif
#if configUSE_QUEUE_SETS == 1
      const UBaseType_t uxPreviousMessagesWaiting = pxQueue->uxMessagesWaiting;
#endif
      xYieldRequired = prvCopyDataToQueue(pxQueue, pvItemToQueue, xCopyPosition);
#if configUSE_QUEUE_SETS == 1
      if (pxQueue->pxQueueSetContainer != NULL) {
        /* An overwritten item leaves the count, and the set, as they were. */
        if (!(xCopyPosition == queueOVERWRITE && uxPreviousMessagesWaiting != (UBaseType_t)0) &&
            prvNotifyQueueSetContainer(pxQueue) != pdFALSE) {
          queueYIELD_IF_USING_PREEMPTION();
        }
      } else
#endif
          if (listLIST_IS_EMPTY(&(pxQueue->xTasksWaitingToReceive)) == pdFALSE) {
        if (xTaskRemoveFromEventList(&(pxQueue->xTasksWaitingToReceive)) != pdFALSE) {
          queueYIELD_IF_USING_PREEMPTION();
        }
      } else if (xYieldRequired != pdFALSE) {
        queueYIELD_IF_USING_PREEMPTION();
      }
      taskEXIT_CRITICAL();
#if STANDIN_KERNEL_VERSION >= 11
      traceRETURN_xQueueGenericSend(pdPASS);
#endif
      return pdPASS;
    }
    if (xTicksToWait == (TickType_t)0) {
      taskEXIT_CRITICAL();
      traceQUEUE_SEND_FAILED(pxQueue);
#if STANDIN_KERNEL_VERSION >= 11
      traceRETURN_xQueueGenericSend(errQUEUE_FULL);
#endif
      return errQUEUE_FULL;
    }
  }
  taskEXIT_CRITICAL();
  vTaskSuspendAll();
  traceBLOCKING_ON_QUEUE_SEND(pxQueue);
  return prvBlockOn(&(pxQueue->xTasksWaitingToSend), xTicksToWait);
}

BaseType_t xQueueGenericSendFromISR(QueueHandle_t xQueue, const void* const pvItemToQueue,
                                    BaseType_t* const pxHigherPriorityTaskWoken, const BaseType_t xCopyPosition) {
  BaseType_t xReturn;
  Queue_t* const pxQueue = xQueue;
  const UBaseType_t uxSavedInterruptStatus = taskENTER_CRITICAL_FROM_ISR();
  {
    if (pxQueue->uxMessagesWaiting < pxQueue->uxLength || xCopyPosition == queueOVERWRITE) {
#if STANDIN_KERNEL_EXT_HOOKS
      traceQUEUE_SEND_FROM_ISR_EXT(pxQueue, xCopyPosition);
#else
      traceQUEUE_SEND_FROM_ISR(pxQueue);
#endif
      const UBaseType_t uxPreviousMessagesWaiting = pxQueue->uxMessagesWaiting;
      (void)prvCopyDataToQueue(pxQueue, pvItemToQueue, xCopyPosition);
      prvNotifyOrWakeFromISR(pxQueue, xCopyPosition == queueOVERWRITE && uxPreviousMessagesWaiting != (UBaseType_t)0,
                             pxHigherPriorityTaskWoken);
      xReturn = pdPASS;
    } else {
      traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue);
      xReturn = errQUEUE_FULL;
    }
  }
  taskEXIT_CRITICAL_FROM_ISR(uxSavedInterruptStatus);
  return xReturn;
}

BaseType_t xQueueGiveFromISR(QueueHandle_t xQueue, BaseType_t* const pxHigherPriorityTaskWoken) {
  BaseType_t xReturn;
  Queue_t* const pxQueue = xQueue;
  const UBaseType_t uxSavedInterruptStatus = taskENTER_CRITICAL_FROM_ISR();
  {
    const UBaseType_t uxMessagesWaiting = pxQueue->uxMessagesWaiting;
    if (uxMessagesWaiting < pxQueue->uxLength) {
      traceQUEUE_SEND_FROM_ISR(pxQueue);
      pxQueue->uxMessagesWaiting = uxMessagesWaiting + (UBaseType_t)1;
      prvNotifyOrWakeFromISR(pxQueue, pdFALSE, pxHigherPriorityTaskWoken);
      xReturn = pdPASS;
    } else {
      traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue);
      xReturn = errQUEUE_FULL;
    }
  }
  taskEXIT_CRITICAL_FROM_ISR(uxSavedInterruptStatus);
  return xReturn;
}

BaseType_t xQueueReceive(QueueHandle_t xQueue, void* const pvBuffer, TickType_t xTicksToWait) {
  Queue_t* const pxQueue = xQueue;
  taskENTER_CRITICAL();
  {
    const UBaseType_t uxMessagesWaiting = pxQueue->uxMessagesWaiting;
    if (uxMessagesWaiting > (UBaseType_t)0) {
      prvCopyDataFromQueue(pxQueue, pvBuffer, pdTRUE);
      traceQUEUE_RECEIVE(pxQueue);
      pxQueue->uxMessagesWaiting = uxMessagesWaiting - (UBaseType_t)1;
      prvWakeWaiter(&(pxQueue->xTasksWaitingToSend));
      taskEXIT_CRITICAL();
      return pdPASS;
    }
    if (xTicksToWait == (TickType_t)0) {
      taskEXIT_CRITICAL();
      traceQUEUE_RECEIVE_FAILED(pxQueue);
      return errQUEUE_EMPTY;
    }
  }
  taskEXIT_CRITICAL();
  vTaskSuspendAll();
  traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue);
  return prvBlockOn(&(pxQueue->xTasksWaitingToReceive), xTicksToWait);
}

BaseType_t xQueueSemaphoreTake(QueueHandle_t xQueue, TickType_t xTicksToWait) {
  Queue_t* const pxQueue = xQueue;
  taskENTER_CRITICAL();
  {
    const UBaseType_t uxSemaphoreCount = pxQueue->uxMessagesWaiting;
    if (uxSemaphoreCount > (UBaseType_t)0) {
      traceQUEUE_RECEIVE(pxQueue);
      pxQueue->uxMessagesWaiting = uxSemaphoreCount - (UBaseType_t)1;
      if (pxQueue->uxQueueType == queueQUEUE_IS_MUTEX) {
        pxQueue->xSemaphore.xMutexHolder = pvTaskIncrementMutexHeldCount();
      }
      prvWakeWaiter(&(pxQueue->xTasksWaitingToSend));
      taskEXIT_CRITICAL();
      return pdPASS;
    }
    if (xTicksToWait == (TickType_t)0) {
      taskEXIT_CRITICAL();
      traceQUEUE_RECEIVE_FAILED(pxQueue);
      return errQUEUE_EMPTY;
    }
  }
  taskEXIT_CRITICAL();
  vTaskSuspendAll();
  traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue);
  if (pxQueue->uxQueueType == queueQUEUE_IS_MUTEX) {
    taskENTER_CRITICAL();
    { (void)xTaskPriorityInherit(pxQueue->xSemaphore.xMutexHolder); }
    taskEXIT_CRITICAL();
  }
  return prvBlockOn(&(pxQueue->xTasksWaitingToReceive), xTicksToWait);
}

BaseType_t xQueuePeek(QueueHandle_t xQueue, void* const pvBuffer, TickType_t xTicksToWait) {
  Queue_t* const pxQueue = xQueue;
  taskENTER_CRITICAL();
  {
    if (pxQueue->uxMessagesWaiting > (UBaseType_t)0) {
      prvCopyDataFromQueue(pxQueue, pvBuffer, pdFALSE);
      traceQUEUE_PEEK(pxQueue);
      prvWakeWaiter(&(pxQueue->xTasksWaitingToReceive));
      taskEXIT_CRITICAL();
      return pdPASS;
    }
    if (xTicksToWait == (TickType_t)0) {
      taskEXIT_CRITICAL();
      traceQUEUE_PEEK_FAILED(pxQueue);
      return errQUEUE_EMPTY;
    }
  }
  taskEXIT_CRITICAL();
  vTaskSuspendAll();
  traceBLOCKING_ON_QUEUE_PEEK(pxQueue);
  return prvBlockOn(&(pxQueue->xTasksWaitingToReceive), xTicksToWait);
}

BaseType_t xQueueReceiveFromISR(QueueHandle_t xQueue, void* const pvBuffer, BaseType_t* const pxHigherPriorityTaskWoken) {
  BaseType_t xReturn;
  Queue_t* const pxQueue = xQueue;
  const UBaseType_t uxSavedInterruptStatus = taskENTER_CRITICAL_FROM_ISR();
  {
    const UBaseType_t uxMessagesWaiting = pxQueue->uxMessagesWaiting;
    if (uxMessagesWaiting > (UBaseType_t)0) {
      traceQUEUE_RECEIVE_FROM_ISR(pxQueue);
      prvCopyDataFromQueue(pxQueue, pvBuffer, pdTRUE);
      pxQueue->uxMessagesWaiting = uxMessagesWaiting - (UBaseType_t)1;
      prvWakeWaiterFromISR(&(pxQueue->xTasksWaitingToSend), pxHigherPriorityTaskWoken);
      xReturn = pdPASS;
    } else {
      xReturn = pdFAIL;
      traceQUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue);
    }
  }
  taskEXIT_CRITICAL_FROM_ISR(uxSavedInterruptStatus);
  return xReturn;
}

/* For the timer task: blocks on an empty queue without the caller's retry
 * loop (the caller yields). */
void vQueueWaitForMessageRestricted(QueueHandle_t xQueue, TickType_t xTicksToWait, const BaseType_t xWaitIndefinitely) {
  /* As the real one: no traceBLOCKING_ON_QUEUE_RECEIVE here; the task's
   * blocking is traced by vTaskPlaceOnEventListRestricted(). */
  Queue_t* const pxQueue = xQueue;
  if (pxQueue->uxMessagesWaiting == (UBaseType_t)0U) {
    vTaskSuspendAll();
    vTaskPlaceOnEventListRestricted(&(pxQueue->xTasksWaitingToReceive), xTicksToWait, xWaitIndefinitely);
    (void)xTaskResumeAll();
  }
}

UBaseType_t uxQueueMessagesWaiting(const QueueHandle_t xQueue) { return xQueue->uxMessagesWaiting; }

/* ---- Semaphores and mutexes ---------------------------------------------------------------- */

static void prvInitialiseMutex(Queue_t* pxNewQueue) {
  if (pxNewQueue != NULL) {
    pxNewQueue->xSemaphore.xMutexHolder = NULL;
    pxNewQueue->uxQueueType = queueQUEUE_IS_MUTEX;
    pxNewQueue->xSemaphore.uxRecursiveCallCount = 0;
    traceCREATE_MUTEX(pxNewQueue);
    (void)xQueueGenericSend(pxNewQueue, NULL, (TickType_t)0U, queueSEND_TO_BACK);
  } else {
    traceCREATE_MUTEX_FAILED();
  }
}

QueueHandle_t xQueueCreateMutex(const uint8_t ucQueueType) {
  QueueHandle_t xNewQueue;
  const UBaseType_t uxMutexLength = (UBaseType_t)1, uxMutexSize = (UBaseType_t)0;
  xNewQueue = xQueueGenericCreate(uxMutexLength, uxMutexSize, ucQueueType);
  prvInitialiseMutex((Queue_t*)xNewQueue);
  return xNewQueue;
}

QueueHandle_t xQueueCreateCountingSemaphore(const UBaseType_t uxMaxCount, const UBaseType_t uxInitialCount) {
  QueueHandle_t xHandle = NULL;
  if (uxMaxCount != 0U && uxInitialCount <= uxMaxCount) {
    xHandle = xQueueGenericCreate(uxMaxCount, queueSEMAPHORE_QUEUE_ITEM_LENGTH, queueQUEUE_TYPE_COUNTING_SEMAPHORE);
    if (xHandle != NULL) {
      ((Queue_t*)xHandle)->uxMessagesWaiting = uxInitialCount;
      traceCREATE_COUNTING_SEMAPHORE();
    } else {
      traceCREATE_COUNTING_SEMAPHORE_FAILED();
    }
  }
  return xHandle;
}

BaseType_t xQueueTakeMutexRecursive(QueueHandle_t xMutex, TickType_t xTicksToWait) {
  BaseType_t xReturn;
  Queue_t* const pxMutex = (Queue_t*)xMutex;
  traceTAKE_MUTEX_RECURSIVE(pxMutex);
  if (pxMutex->xSemaphore.xMutexHolder == xTaskGetCurrentTaskHandle()) {
    (pxMutex->xSemaphore.uxRecursiveCallCount)++;
    xReturn = pdPASS;
  } else {
    xReturn = xQueueSemaphoreTake(pxMutex, xTicksToWait);
    if (xReturn == pdPASS) {
      (pxMutex->xSemaphore.uxRecursiveCallCount)++;
    } else {
      traceTAKE_MUTEX_RECURSIVE_FAILED(pxMutex);
    }
  }
  return xReturn;
}

BaseType_t xQueueGiveMutexRecursive(QueueHandle_t xMutex) {
  BaseType_t xReturn;
  Queue_t* const pxMutex = (Queue_t*)xMutex;
  if (pxMutex->xSemaphore.xMutexHolder == xTaskGetCurrentTaskHandle()) {
    traceGIVE_MUTEX_RECURSIVE(pxMutex);
    (pxMutex->xSemaphore.uxRecursiveCallCount)--;
    if (pxMutex->xSemaphore.uxRecursiveCallCount == (UBaseType_t)0) {
      (void)xQueueGenericSend(pxMutex, NULL, queueMUTEX_GIVE_BLOCK_TIME, queueSEND_TO_BACK);
    }
    xReturn = pdPASS;
  } else {
    xReturn = pdFAIL;
    traceGIVE_MUTEX_RECURSIVE_FAILED(pxMutex);
  }
  return xReturn;
}

/* ---- Registry, sets, numbers ------------------------------------------------------------- */

#if configQUEUE_REGISTRY_SIZE > 0
typedef struct QUEUE_REGISTRY_ITEM {
  const char* pcQueueName;
  QueueHandle_t xHandle;
} xQueueRegistryItem;
static xQueueRegistryItem xQueueRegistry[configQUEUE_REGISTRY_SIZE];

void vQueueAddToRegistry(QueueHandle_t xQueue, const char* pcQueueName) {
  for (UBaseType_t ux = 0; ux < (UBaseType_t)configQUEUE_REGISTRY_SIZE; ux++) {
    if (xQueueRegistry[ux].pcQueueName == NULL) {
      xQueueRegistry[ux].pcQueueName = pcQueueName;
      xQueueRegistry[ux].xHandle = xQueue;
      traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName);
      break;
    }
  }
}
#endif

#if configUSE_QUEUE_SETS == 1
QueueSetHandle_t xQueueCreateSet(const UBaseType_t uxEventQueueLength) {
  QueueSetHandle_t pxQueue;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueCreateSet(uxEventQueueLength);
#endif
  pxQueue = xQueueGenericCreate(uxEventQueueLength, (UBaseType_t)sizeof(Queue_t*), queueQUEUE_TYPE_SET);
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueCreateSet(pxQueue);
#endif
  return pxQueue;
}

/* V11 traces these four on entry and return (V10 not at all); a membership
 * change only happens, as in the kernel, for an empty queue. */
BaseType_t xQueueAddToSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet) {
  BaseType_t xReturn;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueAddToSet(xQueueOrSemaphore, xQueueSet);
#endif
  taskENTER_CRITICAL();
  {
    if (((Queue_t*)xQueueOrSemaphore)->pxQueueSetContainer != NULL ||
        ((Queue_t*)xQueueOrSemaphore)->uxMessagesWaiting != (UBaseType_t)0) {
      xReturn = pdFAIL;
    } else {
      ((Queue_t*)xQueueOrSemaphore)->pxQueueSetContainer = xQueueSet;
      xReturn = pdPASS;
    }
  }
  taskEXIT_CRITICAL();
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueAddToSet(xReturn);
#endif
  return xReturn;
}

BaseType_t xQueueRemoveFromSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet) {
  BaseType_t xReturn;
  Queue_t* const pxQueueOrSemaphore = (Queue_t*)xQueueOrSemaphore;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueRemoveFromSet(xQueueOrSemaphore, xQueueSet);
#endif
  if (pxQueueOrSemaphore->pxQueueSetContainer != xQueueSet ||
      pxQueueOrSemaphore->uxMessagesWaiting != (UBaseType_t)0) {
    xReturn = pdFAIL;
  } else {
    taskENTER_CRITICAL();
    { pxQueueOrSemaphore->pxQueueSetContainer = NULL; }
    taskEXIT_CRITICAL();
    xReturn = pdPASS;
  }
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueRemoveFromSet(xReturn);
#endif
  return xReturn;
}

/* A call that would block returns NULL here, its receive having returned
 * errSTANDIN_BLOCKED, without the return hook: the kernel's call has not
 * returned yet. The scenario calls it again once the task runs (the
 * kernel's retry loop). */
QueueSetMemberHandle_t xQueueSelectFromSet(QueueSetHandle_t xQueueSet, const TickType_t xTicksToWait) {
  QueueSetMemberHandle_t xReturn = NULL;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueSelectFromSet(xQueueSet, xTicksToWait);
#endif
  if (xQueueReceive((QueueHandle_t)xQueueSet, &xReturn, xTicksToWait) == errSTANDIN_BLOCKED) {
    return NULL;
  }
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueSelectFromSet(xReturn);
#endif
  return xReturn;
}

QueueSetMemberHandle_t xQueueSelectFromSetFromISR(QueueSetHandle_t xQueueSet) {
  QueueSetMemberHandle_t xReturn = NULL;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_xQueueSelectFromSetFromISR(xQueueSet);
#endif
  (void)xQueueReceiveFromISR((QueueHandle_t)xQueueSet, &xReturn, NULL);
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_xQueueSelectFromSetFromISR(xReturn);
#endif
  return xReturn;
}
#endif

#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxQueueGetQueueNumber(QueueHandle_t xQueue) { return ((Queue_t*)xQueue)->uxQueueNumber; }
void vQueueSetQueueNumber(QueueHandle_t xQueue, UBaseType_t uxQueueNumber) {
  ((Queue_t*)xQueue)->uxQueueNumber = uxQueueNumber;
}
uint8_t ucQueueGetQueueType(QueueHandle_t xQueue) { return ((Queue_t*)xQueue)->ucQueueType; }
#endif
