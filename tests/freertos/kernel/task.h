/* Stand-in for the FreeRTOS kernel's task.h: the task API the stand-in's
 * tasks.c implements (see FreeRTOS.h), with the real names and signatures,
 * plus the stand-in's scenario controls (standin_*). */
#ifndef INC_TASK_H
#define INC_TASK_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include task.h"
#endif

#include "list.h"

#ifdef __cplusplus
extern "C" {
#endif

#define tskKERNEL_VERSION_MAJOR STANDIN_KERNEL_VERSION
#define tskKERNEL_VERSION_MINOR STANDIN_KERNEL_MINOR
#define tskIDLE_PRIORITY ((UBaseType_t)0U)

struct tskTaskControlBlock; /* The old naming convention is used to prevent breaking kernel aware debuggers. */
typedef struct tskTaskControlBlock* TaskHandle_t;

typedef enum { eRunning = 0, eReady, eBlocked, eSuspended, eDeleted, eInvalid } eTaskState;

#define taskENTER_CRITICAL() portENTER_CRITICAL()
#define taskEXIT_CRITICAL() portEXIT_CRITICAL()
#define taskENTER_CRITICAL_FROM_ISR() portSET_INTERRUPT_MASK_FROM_ISR()
#define taskEXIT_CRITICAL_FROM_ISR(x) portCLEAR_INTERRUPT_MASK_FROM_ISR(x)
#define taskYIELD() portYIELD()

BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char* const pcName, const uint16_t usStackDepth,
                       void* const pvParameters, UBaseType_t uxPriority, TaskHandle_t* const pxCreatedTask);
void vTaskDelete(TaskHandle_t xTaskToDelete);
void vTaskDelay(const TickType_t xTicksToDelay);
BaseType_t xTaskDelayUntil(TickType_t* const pxPreviousWakeTime, const TickType_t xTimeIncrement);
void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority);
UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask);
void vTaskSuspend(TaskHandle_t xTaskToSuspend);
void vTaskResume(TaskHandle_t xTaskToResume);
BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume);
void vTaskStartScheduler(void);
void vTaskSuspendAll(void);
BaseType_t xTaskResumeAll(void);
TickType_t xTaskGetTickCount(void);
eTaskState eTaskGetState(TaskHandle_t xTask);
TaskHandle_t xTaskGetCurrentTaskHandle(void);
/* V11 declares it for one core only; SMP has the ...ForCore() one alone. */
#if STANDIN_KERNEL_VERSION == 10 || configNUMBER_OF_CORES == 1
TaskHandle_t xTaskGetIdleTaskHandle(void);
#endif
#if STANDIN_KERNEL_VERSION >= 11
TaskHandle_t xTaskGetIdleTaskHandleForCore(BaseType_t xCoreID);
#endif
UBaseType_t uxTaskGetTaskNumber(TaskHandle_t xTask);
void vTaskSetTaskNumber(TaskHandle_t xTask, const UBaseType_t uxHandle);

#if configUSE_TASK_NOTIFICATIONS == 1
typedef enum { eNoAction = 0, eSetBits, eIncrement, eSetValueWithOverwrite, eSetValueWithoutOverwrite } eNotifyAction;
/* Stand-in only: ulTaskNotifyTake() would have blocked (see errSTANDIN_BLOCKED). */
#define standinNOTIFY_BLOCKED ((uint32_t)0xDEADBEEFUL)
BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                              eNotifyAction eAction, uint32_t* pulPreviousNotificationValue);
BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                                     eNotifyAction eAction, uint32_t* pulPreviousNotificationValue,
                                     BaseType_t* pxHigherPriorityTaskWoken);
void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                   BaseType_t* pxHigherPriorityTaskWoken);
BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWait, uint32_t ulBitsToClearOnEntry,
                                  uint32_t ulBitsToClearOnExit, uint32_t* pulNotificationValue,
                                  TickType_t xTicksToWait);
uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWait, BaseType_t xClearCountOnExit, TickType_t xTicksToWait);
#define xTaskNotify(xTaskToNotify, ulValue, eAction) xTaskGenericNotify((xTaskToNotify), 0, (ulValue), (eAction), NULL)
#define xTaskNotifyIndexed(xTaskToNotify, uxIndexToNotify, ulValue, eAction) \
  xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), NULL)
#define xTaskNotifyGive(xTaskToNotify) xTaskGenericNotify((xTaskToNotify), 0, 0, eIncrement, NULL)
#define xTaskNotifyFromISR(xTaskToNotify, ulValue, eAction, pxHigherPriorityTaskWoken) \
  xTaskGenericNotifyFromISR((xTaskToNotify), 0, (ulValue), (eAction), NULL, (pxHigherPriorityTaskWoken))
#define vTaskNotifyGiveFromISR(xTaskToNotify, pxHigherPriorityTaskWoken) \
  vTaskGenericNotifyGiveFromISR((xTaskToNotify), 0, (pxHigherPriorityTaskWoken))
#define xTaskNotifyWait(ulBitsToClearOnEntry, ulBitsToClearOnExit, pulNotificationValue, xTicksToWait) \
  xTaskGenericNotifyWait(0, (ulBitsToClearOnEntry), (ulBitsToClearOnExit), (pulNotificationValue), (xTicksToWait))
#define ulTaskNotifyTake(xClearCountOnExit, xTicksToWait) ulTaskGenericNotifyTake(0, (xClearCountOnExit), (xTicksToWait))
#define ulTaskNotifyTakeIndexed(uxIndexToWaitOn, xClearCountOnExit, xTicksToWait) \
  ulTaskGenericNotifyTake((uxIndexToWaitOn), (xClearCountOnExit), (xTicksToWait))
#endif

/* Kernel-internal (used by queue.c and timers.c). */
BaseType_t xTaskIncrementTick(void);
#if configNUMBER_OF_CORES == 1
void vTaskSwitchContext(void);
#else
void vTaskSwitchContext(BaseType_t xCoreID);
#endif
void vTaskPlaceOnEventList(List_t* const pxEventList, const TickType_t xTicksToWait);
void vTaskPlaceOnEventListRestricted(List_t* const pxEventList, TickType_t xTicksToWait,
                                     const BaseType_t xWaitIndefinitely);
BaseType_t xTaskRemoveFromEventList(List_t* const pxEventList);
BaseType_t xTaskPriorityInherit(TaskHandle_t const pxMutexHolder);
BaseType_t xTaskPriorityDisinherit(TaskHandle_t const pxMutexHolder);
TaskHandle_t pvTaskIncrementMutexHeldCount(void);
void vTaskMissedYield(void);
/* event_groups.c: the bit in an event list item's value the kernel keeps for itself. */
#define taskEVENT_LIST_ITEM_VALUE_IN_USE ((TickType_t)0x80000000UL)
void vTaskPlaceOnUnorderedEventList(List_t* pxEventList, const TickType_t xItemValue, const TickType_t xTicksToWait);
/* Stand-in: the waiter itself stands for its event list item. */
void vTaskRemoveFromUnorderedEventList(TaskHandle_t xWaiter, const TickType_t xItemValue);
TickType_t uxTaskResetEventItemValue(void);
TickType_t standin_event_item_value(TaskHandle_t xTask); /* listGET_LIST_ITEM_VALUE */
/* Stand-in: a call that blocked marks the running task; the call made again
 * once the task runs asks whether it resumes one (and clears the mark). */
void standin_call_blocked(void);
BaseType_t standin_call_resumes(void);

/* ---- Stand-in scenario controls: what the hardware and the port would do ---- */
/* The core the calling code runs on from now on (interrupts and tasks alike). */
void standin_set_core(BaseType_t xCoreID);
/* SMP: the port starting the scheduler on another core (its first switch). */
void standin_start_core(BaseType_t xCoreID);
/* An interrupt on the current core: between enter and exit the code is in
 * interrupt context; a switch requested inside happens at the exit. */
void standin_isr_enter(void);
void standin_isr_exit(void);
/* The tick interrupt: xTaskIncrementTick() and the switch it asks for. */
void standin_tick(void);
/* The task running on a core, and a task's name. */
TaskHandle_t standin_running(BaseType_t xCoreID);
const char* standin_task_name(TaskHandle_t xTask);

#ifdef __cplusplus
}
#endif

#endif /* INC_TASK_H */
