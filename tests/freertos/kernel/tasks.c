/* Stand-in for the FreeRTOS kernel's tasks.c (see FreeRTOS.h).
 *
 * The scheduler's state and decisions are the real kernel's, reduced: ready
 * lists per priority read round robin, a delayed list, a suspended list,
 * event lists on queues, priority inheritance, deletion, and for the V11 SMP
 * kernel one running task per core. Every trace macro is called where the
 * real function calls it, in the same order relative to the state changes,
 * with the same names in scope (the TCB and its fields, pxCurrentTCB,
 * xTicksToDelay, xTimeToWake, xIdleTaskHandles), since tband's macros read
 * them. Stacks, contexts and timeouts of blocked calls are left out. */
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

#if configUSE_MUTEXES != 1
#error "stand-in kernel: needs configUSE_MUTEXES 1"
#endif
#ifndef configIDLE_TASK_NAME
#define configIDLE_TASK_NAME "IDLE"
#endif
#define taskNOT_RUNNING ((BaseType_t)-1)

/* The task control block, with the real field names (the ones tband's macros
 * read are uxPriority, pcTaskName and uxTaskNumber). */
typedef struct tskTaskControlBlock {
  volatile StackType_t* pxTopOfStack;
  UBaseType_t uxPriority;
  StackType_t* pxStack;
#if configNUMBER_OF_CORES > 1
  volatile BaseType_t xTaskRunState;
#endif
  char pcTaskName[configMAX_TASK_NAME_LEN];
#if configUSE_TRACE_FACILITY == 1
  UBaseType_t uxTCBNumber;  /* the kernel's own count */
  UBaseType_t uxTaskNumber; /* for third-party trace code: tband's id */
#endif
#if configUSE_MUTEXES == 1
  UBaseType_t uxBasePriority;
  UBaseType_t uxMutexesHeld;
#endif
#if configUSE_TASK_NOTIFICATIONS == 1
  volatile uint32_t ulNotifiedValue[configTASK_NOTIFICATION_ARRAY_ENTRIES];
  volatile uint8_t ucNotifyState[configTASK_NOTIFICATION_ARRAY_ENTRIES];
  BaseType_t xStandinNotifyBlocked; /* stand-in: a notify call blocked, its next call goes on after the wait */
#endif
  /* Stand-in: which list the task is on, its wake-up tick when delayed, and
   * the event list it waits on. */
  List_t* pxStateList;
  TickType_t xWakeTick;
  List_t* pxEventList;
  TickType_t xEventItemValue;      /* the real xEventListItem's value (event groups keep their bits there) */
  BaseType_t xStandinCallBlocked;  /* stand-in: an event group call blocked, its next call goes on after the wait */
} tskTCB;
typedef tskTCB TCB_t;

#if configNUMBER_OF_CORES == 1
TCB_t* volatile pxCurrentTCB = NULL;
#else
TCB_t* volatile pxCurrentTCBs[configNUMBER_OF_CORES];
#define pxCurrentTCB xTaskGetCurrentTaskHandle()
#endif

static List_t pxReadyTasksLists[configMAX_PRIORITIES];
static List_t xDelayedTaskList;
static List_t xPendingReadyList;
static List_t xSuspendedTaskList;
static List_t xTasksWaitingTermination;
static volatile UBaseType_t uxCurrentNumberOfTasks = 0;
static volatile TickType_t xTickCount = 0;
static volatile BaseType_t xSchedulerRunning = pdFALSE;
static volatile UBaseType_t uxSchedulerSuspended = 0;
static volatile BaseType_t xYieldPendings[configNUMBER_OF_CORES];
static UBaseType_t uxTaskNumber = 0; /* the kernel's count (not the TCB field) */
static BaseType_t xListsInitialised = pdFALSE;
#if STANDIN_KERNEL_VERSION >= 11
static TaskHandle_t xIdleTaskHandles[configNUMBER_OF_CORES];
#else
static TaskHandle_t xIdleTaskHandle = NULL;
#endif

void vStandinSwitchIfPending(void); /* port.c */
void vStandinYieldCore(BaseType_t xCoreID);

BaseType_t xStandinSchedulerCanSwitch(void);
BaseType_t xStandinSchedulerCanSwitch(void) {
  return (xSchedulerRunning != pdFALSE && uxSchedulerSuspended == 0) ? pdTRUE : pdFALSE;
}

#define prvGetTCBFromHandle(pxHandle) (((pxHandle) == NULL) ? (TCB_t*)pxCurrentTCB : (TCB_t*)(pxHandle))

#if configUSE_PREEMPTION == 0
#define taskYIELD_IF_USING_PREEMPTION()
#else
#define taskYIELD_IF_USING_PREEMPTION() portYIELD_WITHIN_API()
#endif

static void prvInitialiseTaskLists(void) {
  for (UBaseType_t uxPriority = 0; uxPriority < configMAX_PRIORITIES; uxPriority++) {
    vListInitialise(&pxReadyTasksLists[uxPriority]);
  }
  vListInitialise(&xDelayedTaskList);
  vListInitialise(&xPendingReadyList);
  vListInitialise(&xSuspendedTaskList);
  vListInitialise(&xTasksWaitingTermination);
  xListsInitialised = pdTRUE;
}

static void prvMoveToList(TCB_t* pxTCB, List_t* pxList) {
  if (pxTCB->pxStateList != NULL) {
    (void)uxListRemove(pxTCB->pxStateList, pxTCB);
  }
  pxTCB->pxStateList = pxList;
  if (pxList != NULL) {
    vListInsertEnd(pxList, pxTCB);
  }
}

static void prvRemoveFromEventList(TCB_t* pxTCB) {
  if (pxTCB->pxEventList != NULL) {
    (void)uxListRemove(pxTCB->pxEventList, pxTCB);
    pxTCB->pxEventList = NULL;
  }
}

/* The kernel's prvAddTaskToReadyList() macro. */
#define prvAddTaskToReadyList(pxTCB)                                 \
  do {                                                               \
    traceMOVED_TASK_TO_READY_STATE(pxTCB);                           \
    prvMoveToList((pxTCB), &pxReadyTasksLists[(pxTCB)->uxPriority]); \
    tracePOST_MOVED_TASK_TO_READY_STATE(pxTCB);                      \
  } while (0)

#if configNUMBER_OF_CORES > 1
/* SMP: asks the core running the lowest-priority task below pxTCB's to
 * switch (prvYieldForTask). */
static void prvYieldForTask(const TCB_t* pxTCB) {
  BaseType_t xLowestCore = taskNOT_RUNNING;
  UBaseType_t uxLowest = pxTCB->uxPriority;
  for (BaseType_t xCoreID = 0; xCoreID < configNUMBER_OF_CORES; xCoreID++) {
    const TCB_t* pxRunning = pxCurrentTCBs[xCoreID];
    if (pxRunning == NULL || pxRunning->uxPriority < uxLowest) {
      uxLowest = pxRunning == NULL ? 0 : pxRunning->uxPriority;
      xLowestCore = xCoreID;
    }
  }
  if (xLowestCore != taskNOT_RUNNING && xSchedulerRunning != pdFALSE) {
    vStandinYieldCore(xLowestCore);
  }
}
#endif

/* Makes a task ready that another task or an interrupt woke; whether the
 * caller's core must switch (on SMP the core to switch is asked directly). */
static BaseType_t prvReadyWokenTask(TCB_t* pxTCB) {
  if (uxSchedulerSuspended != 0) {
    prvMoveToList(pxTCB, &xPendingReadyList);
    return pdFALSE;
  }
  prvAddTaskToReadyList(pxTCB);
#if configNUMBER_OF_CORES == 1
  return (configUSE_PREEMPTION == 1 && pxTCB->uxPriority > pxCurrentTCB->uxPriority) ? pdTRUE : pdFALSE;
#else
  if (configUSE_PREEMPTION == 1) {
    prvYieldForTask(pxTCB);
  }
  return pdFALSE;
#endif
}

static void prvAddNewTaskToReadyList(TCB_t* pxNewTCB) {
  taskENTER_CRITICAL();
  {
    uxCurrentNumberOfTasks++;
    if (xListsInitialised == pdFALSE) {
      prvInitialiseTaskLists();
    }
#if configNUMBER_OF_CORES == 1
    if (pxCurrentTCB == NULL) {
      pxCurrentTCB = pxNewTCB;
    } else if (xSchedulerRunning == pdFALSE && pxCurrentTCB->uxPriority <= pxNewTCB->uxPriority) {
      pxCurrentTCB = pxNewTCB;
    }
#else
    /* SMP: every core starts on its idle task (assigned in
     * vTaskStartScheduler()). */
#endif
    uxTaskNumber++;
#if configUSE_TRACE_FACILITY == 1
    pxNewTCB->uxTCBNumber = uxTaskNumber;
#endif
    traceTASK_CREATE(pxNewTCB);
    prvAddTaskToReadyList(pxNewTCB);
  }
  taskEXIT_CRITICAL();
  if (xSchedulerRunning != pdFALSE) {
#if configNUMBER_OF_CORES == 1
    if (pxCurrentTCB->uxPriority < pxNewTCB->uxPriority) {
      taskYIELD_IF_USING_PREEMPTION();
    }
#else
    prvYieldForTask(pxNewTCB);
#endif
  }
}

BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char* const pcName, const uint16_t usStackDepth,
                       void* const pvParameters, UBaseType_t uxPriority, TaskHandle_t* const pxCreatedTask) {
  (void)pxTaskCode;
  (void)usStackDepth;
  (void)pvParameters;
  /* The kernel does not clear a new TCB's trace fields: neither does the
   * stand-in, so an id the tracer forgot to set would show. */
  TCB_t* pxNewTCB = (TCB_t*)malloc(sizeof(TCB_t));
  if (pxNewTCB == NULL) {
    traceTASK_CREATE_FAILED();
    return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
  }
  memset(pxNewTCB, 0xA5, sizeof(TCB_t));
  pxNewTCB->pxStack = NULL;
  pxNewTCB->pxTopOfStack = NULL;
  /* prvInitialiseNewTask() */
  size_t x = 0;
  for (; x < (size_t)configMAX_TASK_NAME_LEN - 1 && pcName[x] != '\0'; x++) {
    pxNewTCB->pcTaskName[x] = pcName[x];
  }
  pxNewTCB->pcTaskName[x] = '\0';
  if (uxPriority >= (UBaseType_t)configMAX_PRIORITIES) {
    uxPriority = (UBaseType_t)configMAX_PRIORITIES - 1U;
  }
  pxNewTCB->uxPriority = uxPriority;
#if configUSE_MUTEXES == 1
  pxNewTCB->uxBasePriority = uxPriority;
  pxNewTCB->uxMutexesHeld = 0;
#endif
#if configNUMBER_OF_CORES > 1
  pxNewTCB->xTaskRunState = taskNOT_RUNNING;
#endif
  pxNewTCB->pxStateList = NULL;
  pxNewTCB->pxEventList = NULL;
  pxNewTCB->xWakeTick = 0;
  pxNewTCB->xEventItemValue = 0;
  pxNewTCB->xStandinCallBlocked = pdFALSE;
#if configUSE_TASK_NOTIFICATIONS == 1
  (void)memset((void*)pxNewTCB->ulNotifiedValue, 0x00, sizeof(pxNewTCB->ulNotifiedValue));
  (void)memset((void*)pxNewTCB->ucNotifyState, 0x00, sizeof(pxNewTCB->ucNotifyState));
  pxNewTCB->xStandinNotifyBlocked = pdFALSE;
#endif
  if (pxCreatedTask != NULL) {
    *pxCreatedTask = (TaskHandle_t)pxNewTCB;
  }
  prvAddNewTaskToReadyList(pxNewTCB);
  return pdPASS;
}

/* ---- Selecting the task to run -------------------------------------------------- */

#if configNUMBER_OF_CORES == 1

void vTaskSwitchContext(void) {
  if (uxSchedulerSuspended != 0) {
    xYieldPendings[0] = pdTRUE;
    return;
  }
  xYieldPendings[0] = pdFALSE;
  traceTASK_SWITCHED_OUT();
  /* taskSELECT_HIGHEST_PRIORITY_TASK() */
  UBaseType_t uxTopPriority = configMAX_PRIORITIES - 1;
  while (listLIST_IS_EMPTY(&pxReadyTasksLists[uxTopPriority]) != pdFALSE) {
    --uxTopPriority;
  }
  pxCurrentTCB = (TCB_t*)pvListGetOwnerOfNextEntry(&pxReadyTasksLists[uxTopPriority]);
  traceTASK_SWITCHED_IN();
}

#else

TaskHandle_t xTaskGetCurrentTaskHandle(void) {
  const UBaseType_t uxSavedInterruptStatus = portSET_INTERRUPT_MASK_FROM_ISR();
  TaskHandle_t xReturn = pxCurrentTCBs[portGET_CORE_ID()];
  portCLEAR_INTERRUPT_MASK_FROM_ISR(uxSavedInterruptStatus);
  return xReturn;
}

/* prvSelectHighestPriorityTask(): the highest-priority ready task that no
 * other core runs, round robin within a priority. */
static void prvSelectHighestPriorityTask(BaseType_t xCoreID) {
  for (BaseType_t xPriority = configMAX_PRIORITIES - 1; xPriority >= 0; xPriority--) {
    List_t* pxList = &pxReadyTasksLists[xPriority];
    for (UBaseType_t uxTries = 0; uxTries < listCURRENT_LIST_LENGTH(pxList); uxTries++) {
      TCB_t* pxTCB = (TCB_t*)pvListGetOwnerOfNextEntry(pxList);
      if (pxTCB->xTaskRunState == taskNOT_RUNNING || pxTCB->xTaskRunState == xCoreID) {
        if (pxCurrentTCBs[xCoreID] != NULL && pxCurrentTCBs[xCoreID]->xTaskRunState == xCoreID) {
          pxCurrentTCBs[xCoreID]->xTaskRunState = taskNOT_RUNNING;
        }
        pxTCB->xTaskRunState = xCoreID;
        pxCurrentTCBs[xCoreID] = pxTCB;
        return;
      }
    }
  }
}

void vTaskSwitchContext(BaseType_t xCoreID) {
  if (uxSchedulerSuspended != 0) {
    xYieldPendings[xCoreID] = pdTRUE;
    return;
  }
  xYieldPendings[xCoreID] = pdFALSE;
  traceTASK_SWITCHED_OUT();
  prvSelectHighestPriorityTask(xCoreID);
  traceTASK_SWITCHED_IN();
}

#endif

/* ---- Starting, suspending and resuming the scheduler ----------------------------- */

static void prvIdleTask(void* pvParameters) { (void)pvParameters; }

void vTaskStartScheduler(void) {
  BaseType_t xReturn = pdPASS;
#if STANDIN_KERNEL_VERSION >= 11
  /* prvCreateIdleTasks(): one per core, "IDLE" then the core's number on SMP. */
  for (BaseType_t xCoreID = 0; xCoreID < configNUMBER_OF_CORES && xReturn == pdPASS; xCoreID++) {
    char cIdleName[configMAX_TASK_NAME_LEN] = configIDLE_TASK_NAME;
#if configNUMBER_OF_CORES > 1
    const size_t xLength = strlen(cIdleName);
    cIdleName[xLength] = (char)('0' + xCoreID);
    cIdleName[xLength + 1] = '\0';
#endif
    xReturn = xTaskCreate(prvIdleTask, cIdleName, 128, NULL, tskIDLE_PRIORITY, &xIdleTaskHandles[xCoreID]);
#if configNUMBER_OF_CORES > 1
    if (xReturn == pdPASS) {
      xIdleTaskHandles[xCoreID]->xTaskRunState = xCoreID;
      pxCurrentTCBs[xCoreID] = xIdleTaskHandles[xCoreID];
    }
#endif
  }
#else
  xReturn = xTaskCreate(prvIdleTask, configIDLE_TASK_NAME, 128, NULL, tskIDLE_PRIORITY, &xIdleTaskHandle);
#endif
#if configUSE_TIMERS == 1
  if (xReturn == pdPASS) {
    xReturn = xTimerCreateTimerTask();
  }
#endif
  if (xReturn == pdPASS) {
    portDISABLE_INTERRUPTS();
    xSchedulerRunning = pdTRUE;
    xTickCount = 0;
    traceTASK_SWITCHED_IN();
#if STANDIN_KERNEL_VERSION >= 11 && STANDIN_KERNEL_MINOR >= 2
    traceSTARTING_SCHEDULER(xIdleTaskHandles);
#endif
    /* xPortStartScheduler(): the first task now runs (on the host: the
     * scenario goes on as that task). */
  }
}

#if configNUMBER_OF_CORES > 1
/* The port starts another core on its idle task (no hook), and the core's
 * first yield picks what it should run. */
void standin_start_core(BaseType_t xCoreID) {
  standin_set_core(xCoreID);
  vTaskSwitchContext(xCoreID);
}
#else
void standin_start_core(BaseType_t xCoreID) { (void)xCoreID; }
#endif

void vTaskSuspendAll(void) { ++uxSchedulerSuspended; }

BaseType_t xTaskResumeAll(void) {
  BaseType_t xAlreadyYielded = pdFALSE;
  taskENTER_CRITICAL();
  {
    --uxSchedulerSuspended;
    if (uxSchedulerSuspended == 0) {
      while (listLIST_IS_EMPTY(&xPendingReadyList) == pdFALSE) {
        TCB_t* pxTCB = (TCB_t*)xPendingReadyList.pvOwners[0];
        prvAddTaskToReadyList(pxTCB);
        if (pxTCB->uxPriority > pxCurrentTCB->uxPriority) {
          xYieldPendings[portGET_CORE_ID()] = pdTRUE;
        }
      }
      if (xYieldPendings[portGET_CORE_ID()] != pdFALSE) {
#if configUSE_PREEMPTION != 0
        xAlreadyYielded = pdTRUE;
#endif
        taskYIELD_IF_USING_PREEMPTION();
      }
    }
  }
  taskEXIT_CRITICAL();
  return xAlreadyYielded;
}

TickType_t xTaskGetTickCount(void) { return xTickCount; }

/* ---- Delays --------------------------------------------------------------------- */

static void prvAddCurrentTaskToDelayedList(TickType_t xTicksToWait, const BaseType_t xCanBlockIndefinitely) {
  TCB_t* pxCurrent = (TCB_t*)pxCurrentTCB;
  if (xTicksToWait == portMAX_DELAY && xCanBlockIndefinitely != pdFALSE) {
    prvMoveToList(pxCurrent, &xSuspendedTaskList);
  } else {
    pxCurrent->xWakeTick = xTickCount + xTicksToWait;
#if STANDIN_KERNEL_VERSION >= 11
    traceMOVED_TASK_TO_DELAYED_LIST();
#endif
    prvMoveToList(pxCurrent, &xDelayedTaskList);
  }
}

void vTaskDelay(const TickType_t xTicksToDelay) {
  BaseType_t xAlreadyYielded = pdFALSE;
#if STANDIN_KERNEL_VERSION >= 11
  traceENTER_vTaskDelay(xTicksToDelay);
#endif
  if (xTicksToDelay > (TickType_t)0U) {
    vTaskSuspendAll();
    {
#if STANDIN_KERNEL_EXT_HOOKS
      traceTASK_DELAY_EXT(xTicksToDelay);
#else
      traceTASK_DELAY();
#endif
      prvAddCurrentTaskToDelayedList(xTicksToDelay, pdFALSE);
    }
    xAlreadyYielded = xTaskResumeAll();
  }
  if (xAlreadyYielded == pdFALSE) {
    portYIELD_WITHIN_API();
  }
#if STANDIN_KERNEL_VERSION >= 11
  traceRETURN_vTaskDelay();
#endif
}

BaseType_t xTaskDelayUntil(TickType_t* const pxPreviousWakeTime, const TickType_t xTimeIncrement) {
  TickType_t xTimeToWake;
  BaseType_t xAlreadyYielded, xShouldDelay = pdFALSE;
  vTaskSuspendAll();
  {
    const TickType_t xConstTickCount = xTickCount;
    xTimeToWake = *pxPreviousWakeTime + xTimeIncrement;
    if (xTimeToWake > xConstTickCount) {
      xShouldDelay = pdTRUE;
    }
    *pxPreviousWakeTime = xTimeToWake;
    if (xShouldDelay != pdFALSE) {
      traceTASK_DELAY_UNTIL(xTimeToWake);
      prvAddCurrentTaskToDelayedList(xTimeToWake - xConstTickCount, pdFALSE);
    }
  }
  xAlreadyYielded = xTaskResumeAll();
  if (xAlreadyYielded == pdFALSE) {
    portYIELD_WITHIN_API();
  }
  return xShouldDelay;
}

/* ---- Priorities, suspension, deletion ---------------------------------------------- */

void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority) {
  TCB_t* pxTCB;
  UBaseType_t uxCurrentBasePriority, uxPriorityUsedOnEntry;
  BaseType_t xYieldRequired = pdFALSE;
  if (uxNewPriority >= (UBaseType_t)configMAX_PRIORITIES) {
    uxNewPriority = (UBaseType_t)configMAX_PRIORITIES - 1U;
  }
  taskENTER_CRITICAL();
  {
    pxTCB = prvGetTCBFromHandle(xTask);
    traceTASK_PRIORITY_SET(pxTCB, uxNewPriority);
    uxCurrentBasePriority = pxTCB->uxBasePriority;
    if (uxCurrentBasePriority != uxNewPriority) {
      if (uxNewPriority > uxCurrentBasePriority) {
        if (pxTCB != pxCurrentTCB && uxNewPriority > pxCurrentTCB->uxPriority) {
          xYieldRequired = pdTRUE;
        }
      } else if (pxTCB == pxCurrentTCB) {
        xYieldRequired = pdTRUE;
      }
      uxPriorityUsedOnEntry = pxTCB->uxPriority;
      if (pxTCB->uxBasePriority == pxTCB->uxPriority || uxNewPriority > pxTCB->uxPriority) {
        pxTCB->uxPriority = uxNewPriority;
      }
      pxTCB->uxBasePriority = uxNewPriority;
      if (pxTCB->pxStateList == &pxReadyTasksLists[uxPriorityUsedOnEntry]) {
        prvAddTaskToReadyList(pxTCB);
      }
      if (xYieldRequired != pdFALSE) {
        taskYIELD_IF_USING_PREEMPTION();
      }
    }
  }
  taskEXIT_CRITICAL();
}

UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask) { return prvGetTCBFromHandle(xTask)->uxPriority; }

void vTaskSuspend(TaskHandle_t xTaskToSuspend) {
  TCB_t* pxTCB;
  taskENTER_CRITICAL();
  {
    pxTCB = prvGetTCBFromHandle(xTaskToSuspend);
    traceTASK_SUSPEND(pxTCB);
    prvRemoveFromEventList(pxTCB);
    prvMoveToList(pxTCB, &xSuspendedTaskList);
  }
  taskEXIT_CRITICAL();
  if (pxTCB == pxCurrentTCB && xSchedulerRunning != pdFALSE) {
    portYIELD_WITHIN_API();
  }
}

static BaseType_t prvTaskIsTaskSuspended(const TCB_t* const pxTCB) {
  return (pxTCB->pxStateList == &xSuspendedTaskList && pxTCB->pxEventList == NULL) ? pdTRUE : pdFALSE;
}

void vTaskResume(TaskHandle_t xTaskToResume) {
  TCB_t* const pxTCB = xTaskToResume;
  if (pxTCB != pxCurrentTCB && pxTCB != NULL) {
    taskENTER_CRITICAL();
    {
      if (prvTaskIsTaskSuspended(pxTCB) != pdFALSE) {
        traceTASK_RESUME(pxTCB);
        prvAddTaskToReadyList(pxTCB);
        if (pxTCB->uxPriority > pxCurrentTCB->uxPriority) {
          taskYIELD_IF_USING_PREEMPTION();
        }
      }
    }
    taskEXIT_CRITICAL();
  }
}

BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume) {
  BaseType_t xYieldRequired = pdFALSE;
  TCB_t* const pxTCB = xTaskToResume;
  const UBaseType_t uxSavedInterruptStatus = taskENTER_CRITICAL_FROM_ISR();
  {
    if (prvTaskIsTaskSuspended(pxTCB) != pdFALSE) {
      traceTASK_RESUME_FROM_ISR(pxTCB);
      xYieldRequired = prvReadyWokenTask(pxTCB);
      if (xYieldRequired != pdFALSE) {
        xYieldPendings[portGET_CORE_ID()] = pdTRUE;
      }
    }
  }
  taskEXIT_CRITICAL_FROM_ISR(uxSavedInterruptStatus);
  return xYieldRequired;
}

void vTaskDelete(TaskHandle_t xTaskToDelete) {
  TCB_t* pxTCB;
  BaseType_t xDeletingRunningTask;
  taskENTER_CRITICAL();
  {
    pxTCB = prvGetTCBFromHandle(xTaskToDelete);
    prvRemoveFromEventList(pxTCB);
    uxTaskNumber++;
    xDeletingRunningTask = (pxTCB == pxCurrentTCB) ? pdTRUE : pdFALSE;
    prvMoveToList(pxTCB, &xTasksWaitingTermination);
    if (xDeletingRunningTask != pdFALSE) {
      traceTASK_DELETE(pxTCB);
    } else {
      --uxCurrentNumberOfTasks;
      traceTASK_DELETE(pxTCB);
      /* prvDeleteTCB() frees it; the stand-in keeps it, for standin_task_name(). */
    }
  }
  taskEXIT_CRITICAL();
  if (xSchedulerRunning != pdFALSE && xDeletingRunningTask != pdFALSE) {
    portYIELD_WITHIN_API();
  }
}

/* ---- The tick ------------------------------------------------------------------------- */

BaseType_t xTaskIncrementTick(void) {
  BaseType_t xSwitchRequired = pdFALSE;
  traceTASK_INCREMENT_TICK(xTickCount);
  if (uxSchedulerSuspended == 0) {
    const TickType_t xConstTickCount = xTickCount + 1;
    xTickCount = xConstTickCount;
    for (UBaseType_t i = 0; i < listCURRENT_LIST_LENGTH(&xDelayedTaskList);) {
      TCB_t* pxTCB = (TCB_t*)xDelayedTaskList.pvOwners[i];
      if (pxTCB->xWakeTick > xConstTickCount) {
        i++;
        continue;
      }
      prvRemoveFromEventList(pxTCB); /* a blocked call timed out */
      if (prvReadyWokenTask(pxTCB) != pdFALSE) {
        xSwitchRequired = pdTRUE;
      }
    }
#if configUSE_PREEMPTION == 1 && configUSE_TIME_SLICING == 1
    if (listCURRENT_LIST_LENGTH(&pxReadyTasksLists[pxCurrentTCB->uxPriority]) > 1U) {
      xSwitchRequired = pdTRUE;
    }
#endif
  }
  return xSwitchRequired;
}

/* ---- Event lists (queue.c) and priority inheritance ----------------------------------- */

void vTaskPlaceOnEventList(List_t* const pxEventList, const TickType_t xTicksToWait) {
  TCB_t* pxCurrent = (TCB_t*)pxCurrentTCB;
  pxCurrent->pxEventList = pxEventList;
  vListInsertEnd(pxEventList, pxCurrent);
  prvAddCurrentTaskToDelayedList(xTicksToWait, pdTRUE);
}

#if configUSE_TIMERS == 1
/* The timer task's wait (timers.c, through vQueueWaitForMessageRestricted()):
 * the real kernel traces it as a delay until now + the timeout, portMAX_DELAY
 * when it waits indefinitely (so the tick wraps to now - 1). */
void vTaskPlaceOnEventListRestricted(List_t* const pxEventList, TickType_t xTicksToWait,
                                     const BaseType_t xWaitIndefinitely) {
  TCB_t* pxCurrent = (TCB_t*)pxCurrentTCB;
  pxCurrent->pxEventList = pxEventList;
  vListInsertEnd(pxEventList, pxCurrent);
  if (xWaitIndefinitely != pdFALSE) {
    xTicksToWait = portMAX_DELAY;
  }
  traceTASK_DELAY_UNTIL((xTickCount + xTicksToWait));
  prvAddCurrentTaskToDelayedList(xTicksToWait, xWaitIndefinitely);
}
#endif

BaseType_t xTaskRemoveFromEventList(List_t* const pxEventList) {
  /* The highest-priority waiter (the real event lists are sorted). */
  TCB_t* pxUnblockedTCB = NULL;
  for (UBaseType_t i = 0; i < listCURRENT_LIST_LENGTH(pxEventList); i++) {
    TCB_t* pxTCB = (TCB_t*)pxEventList->pvOwners[i];
    if (pxUnblockedTCB == NULL || pxTCB->uxPriority > pxUnblockedTCB->uxPriority) {
      pxUnblockedTCB = pxTCB;
    }
  }
  if (pxUnblockedTCB == NULL) {
    return pdFALSE;
  }
  prvRemoveFromEventList(pxUnblockedTCB);
  const BaseType_t xReturn = prvReadyWokenTask(pxUnblockedTCB);
  if (xReturn != pdFALSE) {
    xYieldPendings[portGET_CORE_ID()] = pdTRUE;
  }
  return xReturn;
}

/* Event groups: the waiter keeps what it waits for in its event list item's
 * value; the setter wakes it by handing it the group's bits there. */
void vTaskPlaceOnUnorderedEventList(List_t* pxEventList, const TickType_t xItemValue, const TickType_t xTicksToWait) {
  ((TCB_t*)pxCurrentTCB)->xEventItemValue = xItemValue | taskEVENT_LIST_ITEM_VALUE_IN_USE;
  vTaskPlaceOnEventList(pxEventList, xTicksToWait);
}

void vTaskRemoveFromUnorderedEventList(TaskHandle_t xWaiter, const TickType_t xItemValue) {
  TCB_t* const pxTCB = xWaiter;
  pxTCB->xEventItemValue = xItemValue | taskEVENT_LIST_ITEM_VALUE_IN_USE;
  prvRemoveFromEventList(pxTCB);
  prvAddTaskToReadyList(pxTCB); /* the scheduler is suspended: the switch waits for it */
  if (pxTCB->uxPriority > pxCurrentTCB->uxPriority) {
    xYieldPendings[portGET_CORE_ID()] = pdTRUE;
  }
}

TickType_t uxTaskResetEventItemValue(void) {
  TCB_t* const pxTCB = (TCB_t*)pxCurrentTCB;
  const TickType_t uxReturn = pxTCB->xEventItemValue;
  pxTCB->xEventItemValue = (TickType_t)configMAX_PRIORITIES - (TickType_t)pxTCB->uxPriority;
  return uxReturn;
}

TickType_t standin_event_item_value(TaskHandle_t xTask) { return ((const TCB_t*)xTask)->xEventItemValue; }

void standin_call_blocked(void) { ((TCB_t*)pxCurrentTCB)->xStandinCallBlocked = pdTRUE; }

BaseType_t standin_call_resumes(void) {
  TCB_t* const pxTCB = (TCB_t*)pxCurrentTCB;
  const BaseType_t xResumes = pxTCB->xStandinCallBlocked;
  pxTCB->xStandinCallBlocked = pdFALSE;
  return xResumes;
}

TaskHandle_t pvTaskIncrementMutexHeldCount(void) {
  TCB_t* pxTCB = (TCB_t*)pxCurrentTCB;
  if (pxTCB != NULL) {
    (pxTCB->uxMutexesHeld)++;
  }
  return pxTCB;
}

BaseType_t xTaskPriorityInherit(TaskHandle_t const pxMutexHolder) {
  TCB_t* const pxMutexHolderTCB = pxMutexHolder;
  BaseType_t xReturn = pdFALSE;
  if (pxMutexHolder != NULL) {
    if (pxMutexHolderTCB->uxPriority < pxCurrentTCB->uxPriority) {
      if (pxMutexHolderTCB->pxStateList == &pxReadyTasksLists[pxMutexHolderTCB->uxPriority]) {
        pxMutexHolderTCB->uxPriority = pxCurrentTCB->uxPriority;
        prvAddTaskToReadyList(pxMutexHolderTCB);
      } else {
        pxMutexHolderTCB->uxPriority = pxCurrentTCB->uxPriority;
      }
      traceTASK_PRIORITY_INHERIT(pxMutexHolderTCB, pxCurrentTCB->uxPriority);
      xReturn = pdTRUE;
    }
  }
  return xReturn;
}

BaseType_t xTaskPriorityDisinherit(TaskHandle_t const pxMutexHolder) {
  TCB_t* const pxTCB = pxMutexHolder;
  BaseType_t xReturn = pdFALSE;
  if (pxMutexHolder != NULL) {
    (pxTCB->uxMutexesHeld)--;
    if (pxTCB->uxPriority != pxTCB->uxBasePriority && pxTCB->uxMutexesHeld == 0) {
      traceTASK_PRIORITY_DISINHERIT(pxTCB, pxTCB->uxBasePriority);
      pxTCB->uxPriority = pxTCB->uxBasePriority;
      prvAddTaskToReadyList(pxTCB);
      xReturn = pdTRUE;
    }
  }
  return xReturn;
}

void vTaskMissedYield(void) { xYieldPendings[portGET_CORE_ID()] = pdTRUE; }

/* ---- Task notifications ------------------------------------------------------------------
 * As the real ones (V10.4 and later: arrays of notifications). The waiting
 * calls block as V10 does (the _BLOCK macro in a critical section, after
 * the task went on the delayed list) or as V11 does (scheduler suspended,
 * the macro before that); a blocked call returns
 * standinNOTIFY_BLOCKED and the scenario calls it again once the task runs:
 * that call goes on where the real one would after its yield. */

#if configUSE_TASK_NOTIFICATIONS == 1

#define taskNOT_WAITING_NOTIFICATION ((uint8_t)0)
#define taskWAITING_NOTIFICATION ((uint8_t)1)
#define taskNOTIFICATION_RECEIVED ((uint8_t)2)

/* The first half of a wait: whether the task blocked. bPending: a
 * notification is already there (take: a non-zero count). */
#if STANDIN_KERNEL_VERSION == 10
#define standinNOTIFY_WAIT_FIRST_HALF(bPending, onEntry, traceBLOCK)  \
  do {                                                                \
    taskENTER_CRITICAL();                                             \
    if (!(bPending)) {                                                \
      onEntry;                                                        \
      pxCurrentTCB->ucNotifyState[uxIndexToWait] = taskWAITING_NOTIFICATION; \
      if (xTicksToWait > (TickType_t)0) {                             \
        prvAddCurrentTaskToDelayedList(xTicksToWait, pdTRUE);         \
        traceBLOCK(uxIndexToWait);                                    \
        pxSelf->xStandinNotifyBlocked = pdTRUE;                       \
        portYIELD_WITHIN_API();                                       \
      }                                                               \
    }                                                                 \
    taskEXIT_CRITICAL();                                              \
  } while (0)
#else
#define standinNOTIFY_WAIT_FIRST_HALF(bPending, onEntry, traceBLOCK)  \
  do {                                                                \
    if (!(bPending) && xTicksToWait > (TickType_t)0) {                \
      BaseType_t xShouldBlock = pdFALSE;                              \
      vTaskSuspendAll();                                              \
      taskENTER_CRITICAL();                                           \
      if (!(bPending)) {                                              \
        onEntry;                                                      \
        pxCurrentTCB->ucNotifyState[uxIndexToWait] = taskWAITING_NOTIFICATION; \
        xShouldBlock = pdTRUE;                                        \
      }                                                               \
      taskEXIT_CRITICAL();                                            \
      if (xShouldBlock == pdTRUE) {                                   \
        traceBLOCK(uxIndexToWait);                                    \
        prvAddCurrentTaskToDelayedList(xTicksToWait, pdTRUE);         \
        pxSelf->xStandinNotifyBlocked = pdTRUE;                       \
      }                                                               \
      if (xTaskResumeAll() == pdFALSE && xShouldBlock == pdTRUE) {    \
        portYIELD_WITHIN_API();                                       \
      }                                                               \
    }                                                                 \
  } while (0)
#endif

uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWait, BaseType_t xClearCountOnExit, TickType_t xTicksToWait) {
  TCB_t* const pxSelf = (TCB_t*)pxCurrentTCB;
  uint32_t ulReturn;
  if (pxSelf->xStandinNotifyBlocked == pdFALSE) {
    standinNOTIFY_WAIT_FIRST_HALF(pxCurrentTCB->ulNotifiedValue[uxIndexToWait] != 0UL, (void)0,
                                  traceTASK_NOTIFY_TAKE_BLOCK);
    if (pxSelf->xStandinNotifyBlocked != pdFALSE) {
      return standinNOTIFY_BLOCKED;
    }
  }
  pxSelf->xStandinNotifyBlocked = pdFALSE;
  taskENTER_CRITICAL();
  {
    traceTASK_NOTIFY_TAKE(uxIndexToWait);
    ulReturn = pxCurrentTCB->ulNotifiedValue[uxIndexToWait];
    if (ulReturn != 0UL) {
      pxCurrentTCB->ulNotifiedValue[uxIndexToWait] = (xClearCountOnExit != pdFALSE) ? 0UL : ulReturn - (uint32_t)1;
    }
    pxCurrentTCB->ucNotifyState[uxIndexToWait] = taskNOT_WAITING_NOTIFICATION;
  }
  taskEXIT_CRITICAL();
  return ulReturn;
}

BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWait, uint32_t ulBitsToClearOnEntry,
                                  uint32_t ulBitsToClearOnExit, uint32_t* pulNotificationValue,
                                  TickType_t xTicksToWait) {
  TCB_t* const pxSelf = (TCB_t*)pxCurrentTCB;
  BaseType_t xReturn;
  if (pxSelf->xStandinNotifyBlocked == pdFALSE) {
    standinNOTIFY_WAIT_FIRST_HALF(pxCurrentTCB->ucNotifyState[uxIndexToWait] == taskNOTIFICATION_RECEIVED,
                                  pxCurrentTCB->ulNotifiedValue[uxIndexToWait] &= ~ulBitsToClearOnEntry,
                                  traceTASK_NOTIFY_WAIT_BLOCK);
    if (pxSelf->xStandinNotifyBlocked != pdFALSE) {
      return errSTANDIN_BLOCKED;
    }
  }
  pxSelf->xStandinNotifyBlocked = pdFALSE;
  taskENTER_CRITICAL();
  {
    traceTASK_NOTIFY_WAIT(uxIndexToWait);
    if (pulNotificationValue != NULL) {
      *pulNotificationValue = pxCurrentTCB->ulNotifiedValue[uxIndexToWait];
    }
    if (pxCurrentTCB->ucNotifyState[uxIndexToWait] != taskNOTIFICATION_RECEIVED) {
      xReturn = pdFALSE;
    } else {
      pxCurrentTCB->ulNotifiedValue[uxIndexToWait] &= ~ulBitsToClearOnExit;
      xReturn = pdTRUE;
    }
    pxCurrentTCB->ucNotifyState[uxIndexToWait] = taskNOT_WAITING_NOTIFICATION;
  }
  taskEXIT_CRITICAL();
  return xReturn;
}

/* The action on the value; whether it could be done. */
static BaseType_t prvNotifyAction(TCB_t* pxTCB, UBaseType_t uxIndexToNotify, uint32_t ulValue, eNotifyAction eAction,
                                  uint8_t ucOriginalNotifyState) {
  switch (eAction) {
    case eSetBits:
      pxTCB->ulNotifiedValue[uxIndexToNotify] |= ulValue;
      break;
    case eIncrement:
      (pxTCB->ulNotifiedValue[uxIndexToNotify])++;
      break;
    case eSetValueWithOverwrite:
      pxTCB->ulNotifiedValue[uxIndexToNotify] = ulValue;
      break;
    case eSetValueWithoutOverwrite:
      if (ucOriginalNotifyState == taskNOTIFICATION_RECEIVED) {
        return pdFAIL;
      }
      pxTCB->ulNotifiedValue[uxIndexToNotify] = ulValue;
      break;
    case eNoAction:
    default:
      break;
  }
  return pdPASS;
}

BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                              eNotifyAction eAction, uint32_t* pulPreviousNotificationValue) {
  TCB_t* pxTCB = xTaskToNotify;
  BaseType_t xReturn;
  uint8_t ucOriginalNotifyState;
  taskENTER_CRITICAL();
  {
    if (pulPreviousNotificationValue != NULL) {
      *pulPreviousNotificationValue = pxTCB->ulNotifiedValue[uxIndexToNotify];
    }
    ucOriginalNotifyState = pxTCB->ucNotifyState[uxIndexToNotify];
    pxTCB->ucNotifyState[uxIndexToNotify] = taskNOTIFICATION_RECEIVED;
    xReturn = prvNotifyAction(pxTCB, uxIndexToNotify, ulValue, eAction, ucOriginalNotifyState);
    traceTASK_NOTIFY(uxIndexToNotify);
    if (ucOriginalNotifyState == taskWAITING_NOTIFICATION) {
      prvAddTaskToReadyList(pxTCB);
#if configNUMBER_OF_CORES == 1
      if (pxTCB->uxPriority > pxCurrentTCB->uxPriority) {
        taskYIELD_IF_USING_PREEMPTION();
      }
#else
      prvYieldForTask(pxTCB);
#endif
    }
  }
  taskEXIT_CRITICAL();
  return xReturn;
}

BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                                     eNotifyAction eAction, uint32_t* pulPreviousNotificationValue,
                                     BaseType_t* pxHigherPriorityTaskWoken) {
  TCB_t* pxTCB = xTaskToNotify;
  BaseType_t xReturn;
  uint8_t ucOriginalNotifyState;
  const UBaseType_t uxSavedInterruptStatus = portSET_INTERRUPT_MASK_FROM_ISR();
  {
    if (pulPreviousNotificationValue != NULL) {
      *pulPreviousNotificationValue = pxTCB->ulNotifiedValue[uxIndexToNotify];
    }
    ucOriginalNotifyState = pxTCB->ucNotifyState[uxIndexToNotify];
    pxTCB->ucNotifyState[uxIndexToNotify] = taskNOTIFICATION_RECEIVED;
    xReturn = prvNotifyAction(pxTCB, uxIndexToNotify, ulValue, eAction, ucOriginalNotifyState);
    traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify);
    if (ucOriginalNotifyState == taskWAITING_NOTIFICATION && prvReadyWokenTask(pxTCB) != pdFALSE) {
      if (pxHigherPriorityTaskWoken != NULL) {
        *pxHigherPriorityTaskWoken = pdTRUE;
      }
      xYieldPendings[portGET_CORE_ID()] = pdTRUE;
    }
  }
  portCLEAR_INTERRUPT_MASK_FROM_ISR(uxSavedInterruptStatus);
  return xReturn;
}

void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                   BaseType_t* pxHigherPriorityTaskWoken) {
  TCB_t* pxTCB = xTaskToNotify;
  uint8_t ucOriginalNotifyState;
  const UBaseType_t uxSavedInterruptStatus = portSET_INTERRUPT_MASK_FROM_ISR();
  {
    ucOriginalNotifyState = pxTCB->ucNotifyState[uxIndexToNotify];
    pxTCB->ucNotifyState[uxIndexToNotify] = taskNOTIFICATION_RECEIVED;
    (pxTCB->ulNotifiedValue[uxIndexToNotify])++;
    traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify);
    if (ucOriginalNotifyState == taskWAITING_NOTIFICATION && prvReadyWokenTask(pxTCB) != pdFALSE) {
      if (pxHigherPriorityTaskWoken != NULL) {
        *pxHigherPriorityTaskWoken = pdTRUE;
      }
      xYieldPendings[portGET_CORE_ID()] = pdTRUE;
    }
  }
  portCLEAR_INTERRUPT_MASK_FROM_ISR(uxSavedInterruptStatus);
}

#endif /* configUSE_TASK_NOTIFICATIONS */

/* ---- Queries ----------------------------------------------------------------------------- */

#if configNUMBER_OF_CORES == 1
TaskHandle_t xTaskGetCurrentTaskHandle(void) { return pxCurrentTCB; }
#endif

#if STANDIN_KERNEL_VERSION == 10 || configNUMBER_OF_CORES == 1
TaskHandle_t xTaskGetIdleTaskHandle(void) {
#if STANDIN_KERNEL_VERSION >= 11
  return xIdleTaskHandles[0];
#else
  return xIdleTaskHandle;
#endif
}
#endif

#if STANDIN_KERNEL_VERSION >= 11
TaskHandle_t xTaskGetIdleTaskHandleForCore(BaseType_t xCoreID) { return xIdleTaskHandles[xCoreID]; }
#endif

eTaskState eTaskGetState(TaskHandle_t xTask) {
  const TCB_t* const pxTCB = xTask;
#if configNUMBER_OF_CORES == 1
  if (pxTCB == pxCurrentTCB) {
    return eRunning;
  }
#else
  if (pxTCB->xTaskRunState != taskNOT_RUNNING) {
    return eRunning;
  }
#endif
  if (pxTCB->pxStateList == &xTasksWaitingTermination) {
    return eDeleted;
  }
  if (pxTCB->pxStateList == &xSuspendedTaskList) {
    return pxTCB->pxEventList == NULL ? eSuspended : eBlocked;
  }
  if (pxTCB->pxStateList == &xDelayedTaskList) {
    return eBlocked;
  }
  return eReady;
}

#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxTaskGetTaskNumber(TaskHandle_t xTask) {
  return xTask != NULL ? ((TCB_t*)xTask)->uxTaskNumber : 0U;
}
void vTaskSetTaskNumber(TaskHandle_t xTask, const UBaseType_t uxHandle) {
  if (xTask != NULL) {
    ((TCB_t*)xTask)->uxTaskNumber = uxHandle;
  }
}
#endif

TaskHandle_t standin_running(BaseType_t xCoreID) {
#if configNUMBER_OF_CORES == 1
  (void)xCoreID;
  return pxCurrentTCB;
#else
  return pxCurrentTCBs[xCoreID];
#endif
}

const char* standin_task_name(TaskHandle_t xTask) { return ((const TCB_t*)xTask)->pcTaskName; }
