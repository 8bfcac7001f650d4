/* Stand-in for the FreeRTOS kernel's FreeRTOS.h, for testing tband's kernel
 * hooks without the kernel's sources.
 *
 * What it keeps of the real kernel is what the hooks depend on: the include
 * order (FreeRTOSConfig.h first, so tband.h's trace macros come before the
 * defaults below), the types, and the list of trace macros with their
 * parameters, each defaulting to nothing unless FreeRTOSConfig.h defined it.
 * The lists follow FreeRTOS.h of V10.x (checked against V10.3.1 and V10.5.0)
 * and V11.x (V11.3's, with the traceENTER_/traceRETURN_ pairs reduced to the
 * ones the stand-in calls). The kernel's files here (tasks.c, queue.c,
 * timers.c) call the macros where the real ones do, with the same names in
 * scope.
 *
 * Versions (compile definitions):
 *   STANDIN_KERNEL_VERSION  10 or 11
 *   STANDIN_KERNEL_MINOR  V11's minor version (default 3): below 2 the kernel
 *     has no traceSTARTING_SCHEDULER (V11.0, V11.1)
 *   STANDIN_KERNEL_EXT_HOOKS  1: V11 with the "_EXT" hooks proposed in
 *     FreeRTOS-Kernel pull request 1085 (traceTASK_DELAY_EXT,
 *     traceQUEUE_SEND_EXT, ...), which fall back on the plain hooks
 *   configNUMBER_OF_CORES (FreeRTOSConfig.h, V11): 2 makes it the SMP kernel */
#ifndef INC_FREERTOS_H
#define INC_FREERTOS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "FreeRTOSConfig.h"

#if !defined(STANDIN_KERNEL_VERSION) || (STANDIN_KERNEL_VERSION != 10 && STANDIN_KERNEL_VERSION != 11)
#error "stand-in kernel: define STANDIN_KERNEL_VERSION as 10 or 11"
#endif
#ifndef STANDIN_KERNEL_MINOR
#define STANDIN_KERNEL_MINOR (STANDIN_KERNEL_VERSION == 10 ? 6 : 3)
#endif
#ifndef STANDIN_KERNEL_EXT_HOOKS
#define STANDIN_KERNEL_EXT_HOOKS 0
#endif

/* ---- projdefs.h ---- */
typedef void (*TaskFunction_t)(void*);
#define pdFALSE ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdPASS (pdTRUE)
#define pdFAIL (pdFALSE)
#define errQUEUE_EMPTY ((BaseType_t)0)
#define errQUEUE_FULL ((BaseType_t)0)
#define errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY (-1)
/* Stand-in only: the call would have blocked. The task now waits on the
 * object's event list and the core switched to another task; the scenario
 * calls again once the task runs, as the real call's loop would retry. */
#define errSTANDIN_BLOCKED ((BaseType_t)-100)

/* ---- portable.h / portmacro.h (the stand-in port) ---- */
typedef long BaseType_t;
typedef unsigned long UBaseType_t;
typedef uint32_t TickType_t;
typedef uint32_t StackType_t;
#define portMAX_DELAY ((TickType_t)0xffffffffUL)
#define portSTACK_TYPE StackType_t

void vPortEnterCritical(void);
void vPortExitCritical(void);
UBaseType_t uxPortSetInterruptMaskFromISR(void);
void vPortClearInterruptMaskFromISR(UBaseType_t uxSavedInterruptStatus);
BaseType_t xPortIsInsideInterrupt(void);
void vPortYield(void);
BaseType_t xPortGetCoreID(void);
#define portENTER_CRITICAL() vPortEnterCritical()
#define portEXIT_CRITICAL() vPortExitCritical()
#define portSET_INTERRUPT_MASK_FROM_ISR() uxPortSetInterruptMaskFromISR()
#define portCLEAR_INTERRUPT_MASK_FROM_ISR(x) vPortClearInterruptMaskFromISR(x)
#define portYIELD() vPortYield()
#define portYIELD_WITHIN_API portYIELD
#define portYIELD_FROM_ISR(x) \
  do {                        \
    if ((x) != pdFALSE) {     \
      vPortYield();           \
    }                         \
  } while (0)
#define portGET_CORE_ID() ((BaseType_t)xPortGetCoreID())
#define portDISABLE_INTERRUPTS() ((void)0)

#ifndef configNUMBER_OF_CORES
#define configNUMBER_OF_CORES 1 /* V11's default; V10 has one core */
#endif
#if STANDIN_KERNEL_VERSION == 10 && configNUMBER_OF_CORES != 1
#error "stand-in kernel: V10 has no SMP kernel"
#endif
#ifndef configMAX_TASK_NAME_LEN
#define configMAX_TASK_NAME_LEN 16
#endif
#ifndef configUSE_TIMERS
#define configUSE_TIMERS 0
#endif
#ifndef configUSE_MUTEXES
#define configUSE_MUTEXES 0
#endif
#ifndef configUSE_RECURSIVE_MUTEXES
#define configUSE_RECURSIVE_MUTEXES 0
#endif
#ifndef configUSE_COUNTING_SEMAPHORES
#define configUSE_COUNTING_SEMAPHORES 0
#endif
#ifndef configUSE_QUEUE_SETS
#define configUSE_QUEUE_SETS 0
#endif
#ifndef configQUEUE_REGISTRY_SIZE
#define configQUEUE_REGISTRY_SIZE 0U
#endif
#ifndef configUSE_TRACE_FACILITY
#define configUSE_TRACE_FACILITY 0
#endif
#ifndef configUSE_TIME_SLICING
#define configUSE_TIME_SLICING 1
#endif
#ifndef INCLUDE_xTaskGetIdleTaskHandle
#define INCLUDE_xTaskGetIdleTaskHandle 0
#endif
#ifndef configUSE_TASK_NOTIFICATIONS
#define configUSE_TASK_NOTIFICATIONS 1
#endif
#ifndef configTASK_NOTIFICATION_ARRAY_ENTRIES
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 1
#endif

/* ---- The trace macros: empty unless defined before this point ---- */
#ifndef traceSTART
#define traceSTART()
#endif
#ifndef traceEND
#define traceEND()
#endif
#ifndef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN()
#endif
#if STANDIN_KERNEL_VERSION >= 11 && STANDIN_KERNEL_MINOR >= 2
#ifndef traceSTARTING_SCHEDULER
#define traceSTARTING_SCHEDULER(xIdleTaskHandles)
#endif
#endif
#ifndef traceINCREASE_TICK_COUNT
#define traceINCREASE_TICK_COUNT(x)
#endif
#ifndef traceLOW_POWER_IDLE_BEGIN
#define traceLOW_POWER_IDLE_BEGIN()
#endif
#ifndef traceLOW_POWER_IDLE_END
#define traceLOW_POWER_IDLE_END()
#endif
#ifndef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT()
#endif
#ifndef traceTASK_PRIORITY_INHERIT
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)
#endif
#ifndef traceTASK_PRIORITY_DISINHERIT
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)
#endif
#ifndef traceBLOCKING_ON_QUEUE_RECEIVE
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_PEEK
#define traceBLOCKING_ON_QUEUE_PEEK(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_SEND
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue)
#endif
#ifndef traceMOVED_TASK_TO_READY_STATE
#define traceMOVED_TASK_TO_READY_STATE(pxTCB)
#endif
#ifndef tracePOST_MOVED_TASK_TO_READY_STATE
#define tracePOST_MOVED_TASK_TO_READY_STATE(pxTCB)
#endif
#if STANDIN_KERNEL_VERSION >= 11
#ifndef traceMOVED_TASK_TO_DELAYED_LIST
#define traceMOVED_TASK_TO_DELAYED_LIST()
#endif
#ifndef traceMOVED_TASK_TO_OVERFLOW_DELAYED_LIST
#define traceMOVED_TASK_TO_OVERFLOW_DELAYED_LIST()
#endif
#endif
#ifndef traceQUEUE_CREATE
#define traceQUEUE_CREATE(pxNewQueue)
#endif
#ifndef traceQUEUE_CREATE_FAILED
#define traceQUEUE_CREATE_FAILED(ucQueueType)
#endif
#ifndef traceCREATE_MUTEX
#define traceCREATE_MUTEX(pxNewQueue)
#endif
#ifndef traceCREATE_MUTEX_FAILED
#define traceCREATE_MUTEX_FAILED()
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE
#define traceGIVE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE_FAILED
#define traceGIVE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE
#define traceTAKE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE_FAILED
#define traceTAKE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif
#ifndef traceCREATE_COUNTING_SEMAPHORE
#define traceCREATE_COUNTING_SEMAPHORE()
#endif
#ifndef traceCREATE_COUNTING_SEMAPHORE_FAILED
#define traceCREATE_COUNTING_SEMAPHORE_FAILED()
#endif
#ifndef traceQUEUE_SET_SEND
#define traceQUEUE_SET_SEND traceQUEUE_SEND
#endif
#ifndef traceQUEUE_SEND
#define traceQUEUE_SEND(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FAILED
#define traceQUEUE_SEND_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE
#define traceQUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceQUEUE_PEEK
#define traceQUEUE_PEEK(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FAILED
#define traceQUEUE_PEEK_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR
#define traceQUEUE_PEEK_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FAILED
#define traceQUEUE_RECEIVE_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR
#define traceQUEUE_SEND_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR_FAILED
#define traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR_FAILED
#define traceQUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR_FAILED
#define traceQUEUE_PEEK_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_DELETE
#define traceQUEUE_DELETE(pxQueue)
#endif
#ifndef traceTASK_CREATE
#define traceTASK_CREATE(pxNewTCB)
#endif
#ifndef traceTASK_CREATE_FAILED
#define traceTASK_CREATE_FAILED()
#endif
#ifndef traceTASK_DELETE
#define traceTASK_DELETE(pxTaskToDelete)
#endif
#ifndef traceTASK_DELAY_UNTIL
#define traceTASK_DELAY_UNTIL(x)
#endif
#ifndef traceTASK_DELAY
#define traceTASK_DELAY()
#endif
#ifndef traceTASK_PRIORITY_SET
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority)
#endif
#ifndef traceTASK_SUSPEND
#define traceTASK_SUSPEND(pxTaskToSuspend)
#endif
#ifndef traceTASK_RESUME
#define traceTASK_RESUME(pxTaskToResume)
#endif
#ifndef traceTASK_RESUME_FROM_ISR
#define traceTASK_RESUME_FROM_ISR(pxTaskToResume)
#endif
#ifndef traceTASK_INCREMENT_TICK
#define traceTASK_INCREMENT_TICK(xTickCount)
#endif
#ifndef traceTIMER_CREATE
#define traceTIMER_CREATE(pxNewTimer)
#endif
#ifndef traceTIMER_CREATE_FAILED
#define traceTIMER_CREATE_FAILED()
#endif
#ifndef traceTIMER_COMMAND_SEND
#define traceTIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)
#endif
#ifndef traceTIMER_EXPIRED
#define traceTIMER_EXPIRED(pxTimer)
#endif
#ifndef traceTIMER_COMMAND_RECEIVED
#define traceTIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue)
#endif
#ifndef traceQUEUE_REGISTRY_ADD
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName)
#endif
/* Task notifications (V10.4 and later pass the index). */
#ifndef traceTASK_NOTIFY_TAKE_BLOCK
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_TAKE
#define traceTASK_NOTIFY_TAKE(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT_BLOCK
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY_WAIT(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY
#define traceTASK_NOTIFY(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_FROM_ISR
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_GIVE_FROM_ISR
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)
#endif
/* Event groups. */
#ifndef traceEVENT_GROUP_CREATE
#define traceEVENT_GROUP_CREATE(xEventGroup)
#endif
#ifndef traceEVENT_GROUP_CREATE_FAILED
#define traceEVENT_GROUP_CREATE_FAILED()
#endif
#ifndef traceEVENT_GROUP_SYNC_BLOCK
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)
#endif
#ifndef traceEVENT_GROUP_SYNC_END
#define traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred) (void)(xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_BLOCK
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_END
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred) (void)(xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS
#define traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS_FROM_ISR
#define traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_SET_BITS
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_SET_BITS_FROM_ISR
#define traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_DELETE
#define traceEVENT_GROUP_DELETE(xEventGroup)
#endif
/* Stream and message buffers (V10 names the type parameter xIsMessageBuffer). */
#ifndef traceSTREAM_BUFFER_CREATE_FAILED
#define traceSTREAM_BUFFER_CREATE_FAILED(xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_CREATE_STATIC_FAILED
#define traceSTREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_CREATE
#define traceSTREAM_BUFFER_CREATE(pxStreamBuffer, xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_DELETE
#define traceSTREAM_BUFFER_DELETE(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RESET
#define traceSTREAM_BUFFER_RESET(xStreamBuffer)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_SEND
#define traceBLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND
#define traceSTREAM_BUFFER_SEND(xStreamBuffer, xBytesSent)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FAILED
#define traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FROM_ISR
#define traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_RECEIVE
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE
#define traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FAILED
#define traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FROM_ISR
#define traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength)
#endif
#if STANDIN_KERNEL_VERSION >= 11
#ifndef traceSTREAM_BUFFER_RESET_FROM_ISR
#define traceSTREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer)
#endif
#endif

#if STANDIN_KERNEL_VERSION >= 11
/* V11: a pair per API function; the ones the stand-in's functions call. */
#ifndef traceENTER_xQueueGenericReset
#define traceENTER_xQueueGenericReset(xQueue, xNewQueue)
#endif
#ifndef traceRETURN_xQueueGenericReset
#define traceRETURN_xQueueGenericReset(xReturn)
#endif
#ifndef traceENTER_xQueueCreateSet
#define traceENTER_xQueueCreateSet(uxEventQueueLength)
#endif
#ifndef traceRETURN_xQueueCreateSet
#define traceRETURN_xQueueCreateSet(pxQueue)
#endif
#ifndef traceENTER_xQueueAddToSet
#define traceENTER_xQueueAddToSet(xQueueOrSemaphore, xQueueSet)
#endif
#ifndef traceRETURN_xQueueAddToSet
#define traceRETURN_xQueueAddToSet(xReturn)
#endif
#ifndef traceENTER_xQueueRemoveFromSet
#define traceENTER_xQueueRemoveFromSet(xQueueOrSemaphore, xQueueSet)
#endif
#ifndef traceRETURN_xQueueRemoveFromSet
#define traceRETURN_xQueueRemoveFromSet(xReturn)
#endif
#ifndef traceENTER_xQueueSelectFromSet
#define traceENTER_xQueueSelectFromSet(xQueueSet, xTicksToWait)
#endif
#ifndef traceRETURN_xQueueSelectFromSet
#define traceRETURN_xQueueSelectFromSet(xReturn)
#endif
#ifndef traceENTER_xQueueSelectFromSetFromISR
#define traceENTER_xQueueSelectFromSetFromISR(xQueueSet)
#endif
#ifndef traceRETURN_xQueueSelectFromSetFromISR
#define traceRETURN_xQueueSelectFromSetFromISR(xReturn)
#endif
#ifndef traceENTER_vTaskDelay
#define traceENTER_vTaskDelay(xTicksToDelay)
#endif
#ifndef traceRETURN_vTaskDelay
#define traceRETURN_vTaskDelay()
#endif
#ifndef traceENTER_xQueueGenericSend
#define traceENTER_xQueueGenericSend(xQueue, pvItemToQueue, xTicksToWait, xCopyPosition)
#endif
#ifndef traceRETURN_xQueueGenericSend
#define traceRETURN_xQueueGenericSend(xReturn)
#endif
#ifndef traceENTER_xTimerCreateTimerTask
#define traceENTER_xTimerCreateTimerTask()
#endif
#ifndef traceRETURN_xTimerCreateTimerTask
#define traceRETURN_xTimerCreateTimerTask(xReturn)
#endif
#endif

#if STANDIN_KERNEL_EXT_HOOKS
/* Pull request 1085: extended hooks with explicit parameters that fall back
 * on the plain ones (a kernel calls either, never both, at one place). */
#ifndef traceTASK_DELAY_EXT
#define traceTASK_DELAY_EXT(xTicksToDelay) traceTASK_DELAY()
#endif
#ifndef traceQUEUE_SEND_EXT
#define traceQUEUE_SEND_EXT(pxQueue, xCopyPosition) traceQUEUE_SEND(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR_EXT
#define traceQUEUE_SEND_FROM_ISR_EXT(pxQueue, xCopyPosition) traceQUEUE_SEND_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_RESET
#define traceQUEUE_RESET(pxQueue, xNewQueue)
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* INC_FREERTOS_H */
