/* Stand-in for the FreeRTOS kernel's event_groups.c (see FreeRTOS.h): event
 * groups with waiting, clear-on-exit, wait-for-all and sync, as the real
 * ones (the same in V10 and V11). The trace macros are called where the real
 * functions call them, before or after the state changes as there, with the
 * same names in scope (xEventGroup, the bits, xTicksToWait, uxReturn,
 * xTimeoutOccurred). A call that would block returns
 * standinEVENT_GROUP_BLOCKED after the task blocked; the scenario calls it
 * again once the task runs, and that call goes on after the real one's yield. */
#include <stdlib.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "task.h"

#define eventCLEAR_EVENTS_ON_EXIT_BIT ((EventBits_t)0x01000000UL)
#define eventUNBLOCKED_DUE_TO_BIT_SET ((EventBits_t)0x02000000UL)
#define eventWAIT_FOR_ALL_BITS ((EventBits_t)0x04000000UL)
#define eventEVENT_BITS_CONTROL_BYTES ((EventBits_t)0xff000000UL)

typedef struct EventGroupDef_t {
  EventBits_t uxEventBits;
  List_t xTasksWaitingForBits;
#if configUSE_TRACE_FACILITY == 1
  UBaseType_t uxEventGroupNumber;
#endif
} EventGroup_t;

EventGroupHandle_t xEventGroupCreate(void) {
  /* The kernel does not clear the trace field: neither does the stand-in. */
  EventGroup_t* pxEventBits = (EventGroup_t*)malloc(sizeof(EventGroup_t));
  if (pxEventBits != NULL) {
    pxEventBits->uxEventBits = 0;
    vListInitialise(&(pxEventBits->xTasksWaitingForBits));
    traceEVENT_GROUP_CREATE(pxEventBits);
  } else {
    traceEVENT_GROUP_CREATE_FAILED();
  }
  return pxEventBits;
}

static BaseType_t prvTestWaitCondition(const EventBits_t uxCurrentEventBits, const EventBits_t uxBitsToWaitFor,
                                       const BaseType_t xWaitForAllBits) {
  if (xWaitForAllBits == pdFALSE) {
    return ((uxCurrentEventBits & uxBitsToWaitFor) != (EventBits_t)0) ? pdTRUE : pdFALSE;
  }
  return ((uxCurrentEventBits & uxBitsToWaitFor) == uxBitsToWaitFor) ? pdTRUE : pdFALSE;
}

/* The second half of a wait that blocked (after the real call's yield): the
 * bits the setter handed over, or on a timeout the group's bits now. */
static EventBits_t prvWaitEnded(EventGroup_t* pxEventBits, const EventBits_t uxBitsToWaitFor,
                                const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
                                BaseType_t* pxTimeoutOccurred) {
  EventBits_t uxReturn = uxTaskResetEventItemValue();
  if ((uxReturn & eventUNBLOCKED_DUE_TO_BIT_SET) == (EventBits_t)0) {
    taskENTER_CRITICAL();
    {
      uxReturn = pxEventBits->uxEventBits;
      if (prvTestWaitCondition(uxReturn, uxBitsToWaitFor, xWaitForAllBits) != pdFALSE && xClearOnExit != pdFALSE) {
        pxEventBits->uxEventBits &= ~uxBitsToWaitFor;
      }
      *pxTimeoutOccurred = pdTRUE;
    }
    taskEXIT_CRITICAL();
  }
  return uxReturn & ~eventEVENT_BITS_CONTROL_BYTES;
}

EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
                                const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
                                TickType_t xTicksToWait) {
  EventGroup_t* pxEventBits = xEventGroup;
  EventBits_t uxReturn, uxControlBits = 0;
  BaseType_t xTimeoutOccurred = pdFALSE;
  if (standin_call_resumes() != pdFALSE) {
    uxReturn = prvWaitEnded(pxEventBits, uxBitsToWaitFor, xClearOnExit, xWaitForAllBits, &xTimeoutOccurred);
  } else {
    vTaskSuspendAll();
    {
      const EventBits_t uxCurrentEventBits = pxEventBits->uxEventBits;
      if (prvTestWaitCondition(uxCurrentEventBits, uxBitsToWaitFor, xWaitForAllBits) != pdFALSE) {
        uxReturn = uxCurrentEventBits;
        xTicksToWait = (TickType_t)0;
        if (xClearOnExit != pdFALSE) {
          pxEventBits->uxEventBits &= ~uxBitsToWaitFor;
        }
      } else if (xTicksToWait == (TickType_t)0) {
        uxReturn = uxCurrentEventBits;
        xTimeoutOccurred = pdTRUE;
      } else {
        if (xClearOnExit != pdFALSE) {
          uxControlBits |= eventCLEAR_EVENTS_ON_EXIT_BIT;
        }
        if (xWaitForAllBits != pdFALSE) {
          uxControlBits |= eventWAIT_FOR_ALL_BITS;
        }
        vTaskPlaceOnUnorderedEventList(&(pxEventBits->xTasksWaitingForBits), (uxBitsToWaitFor | uxControlBits),
                                       xTicksToWait);
        uxReturn = 0;
        traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor);
      }
    }
    const BaseType_t xAlreadyYielded = xTaskResumeAll();
    if (xTicksToWait != (TickType_t)0) {
      standin_call_blocked();
      if (xAlreadyYielded == pdFALSE) {
        portYIELD_WITHIN_API();
      }
      return standinEVENT_GROUP_BLOCKED;
    }
  }
  traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred);
  (void)xTimeoutOccurred;
  return uxReturn;
}

EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                            const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait) {
  EventBits_t uxOriginalBitValue, uxReturn;
  EventGroup_t* pxEventBits = xEventGroup;
  BaseType_t xTimeoutOccurred = pdFALSE;
  if (standin_call_resumes() != pdFALSE) {
    uxReturn = prvWaitEnded(pxEventBits, uxBitsToWaitFor, pdTRUE, pdTRUE, &xTimeoutOccurred);
  } else {
    vTaskSuspendAll();
    {
      uxOriginalBitValue = pxEventBits->uxEventBits;
      (void)xEventGroupSetBits(xEventGroup, uxBitsToSet);
      if (((uxOriginalBitValue | uxBitsToSet) & uxBitsToWaitFor) == uxBitsToWaitFor) {
        uxReturn = (uxOriginalBitValue | uxBitsToSet);
        pxEventBits->uxEventBits &= ~uxBitsToWaitFor;
        xTicksToWait = 0;
      } else if (xTicksToWait != (TickType_t)0) {
        traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor);
        vTaskPlaceOnUnorderedEventList(&(pxEventBits->xTasksWaitingForBits),
                                       (uxBitsToWaitFor | eventCLEAR_EVENTS_ON_EXIT_BIT | eventWAIT_FOR_ALL_BITS),
                                       xTicksToWait);
        uxReturn = 0;
      } else {
        uxReturn = pxEventBits->uxEventBits;
        xTimeoutOccurred = pdTRUE;
      }
    }
    const BaseType_t xAlreadyYielded = xTaskResumeAll();
    if (xTicksToWait != (TickType_t)0) {
      standin_call_blocked();
      if (xAlreadyYielded == pdFALSE) {
        portYIELD_WITHIN_API();
      }
      return standinEVENT_GROUP_BLOCKED;
    }
  }
  traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred);
  (void)xTimeoutOccurred;
  return uxReturn;
}

EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear) {
  EventGroup_t* pxEventBits = xEventGroup;
  EventBits_t uxReturn;
  taskENTER_CRITICAL();
  {
    traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear);
    uxReturn = pxEventBits->uxEventBits;
    pxEventBits->uxEventBits &= ~uxBitsToClear;
  }
  taskEXIT_CRITICAL();
  return uxReturn;
}

EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet) {
  EventBits_t uxBitsToClear = 0;
  EventGroup_t* pxEventBits = xEventGroup;
  List_t* const pxList = &(pxEventBits->xTasksWaitingForBits);
  vTaskSuspendAll();
  {
    traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet);
    pxEventBits->uxEventBits |= uxBitsToSet;
    /* Waking a waiter removes it from the list: walk a copy. */
    const UBaseType_t uxWaiters = listCURRENT_LIST_LENGTH(pxList);
    void* pvWaiters[standinLIST_CAPACITY];
    for (UBaseType_t i = 0; i < uxWaiters; i++) {
      pvWaiters[i] = pxList->pvOwners[i];
    }
    for (UBaseType_t i = 0; i < uxWaiters; i++) {
      TaskHandle_t xWaiter = (TaskHandle_t)pvWaiters[i];
      EventBits_t uxBitsWaitedFor = standin_event_item_value(xWaiter) & ~taskEVENT_LIST_ITEM_VALUE_IN_USE;
      const EventBits_t uxControlBits = uxBitsWaitedFor & eventEVENT_BITS_CONTROL_BYTES;
      uxBitsWaitedFor &= ~eventEVENT_BITS_CONTROL_BYTES;
      BaseType_t xMatchFound = pdFALSE;
      if ((uxControlBits & eventWAIT_FOR_ALL_BITS) == (EventBits_t)0) {
        xMatchFound = ((uxBitsWaitedFor & pxEventBits->uxEventBits) != (EventBits_t)0) ? pdTRUE : pdFALSE;
      } else {
        xMatchFound = ((uxBitsWaitedFor & pxEventBits->uxEventBits) == uxBitsWaitedFor) ? pdTRUE : pdFALSE;
      }
      if (xMatchFound != pdFALSE) {
        if ((uxControlBits & eventCLEAR_EVENTS_ON_EXIT_BIT) != (EventBits_t)0) {
          uxBitsToClear |= uxBitsWaitedFor;
        }
        vTaskRemoveFromUnorderedEventList(xWaiter, pxEventBits->uxEventBits | eventUNBLOCKED_DUE_TO_BIT_SET);
      }
    }
    pxEventBits->uxEventBits &= ~uxBitsToClear;
  }
  (void)xTaskResumeAll();
  return pxEventBits->uxEventBits;
}

/* ---- FromISR: the change is pended to the timer task ---- */

typedef struct {
  EventGroupHandle_t xEventGroup;
  EventBits_t uxBits;
  BaseType_t xSet;
} PendedCall_t;
static PendedCall_t xPendedCalls[8];
static UBaseType_t uxPendedCalls = 0;

static BaseType_t prvPend(EventGroupHandle_t xEventGroup, EventBits_t uxBits, BaseType_t xSet) {
  if (uxPendedCalls == sizeof(xPendedCalls) / sizeof(xPendedCalls[0])) {
    return pdFAIL; /* the timer queue is full */
  }
  xPendedCalls[uxPendedCalls].xEventGroup = xEventGroup;
  xPendedCalls[uxPendedCalls].uxBits = uxBits;
  xPendedCalls[uxPendedCalls].xSet = xSet;
  uxPendedCalls++;
  return pdPASS;
}

BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear) {
  traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear);
  return prvPend(xEventGroup, uxBitsToClear, pdFALSE);
}

BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                                     BaseType_t* pxHigherPriorityTaskWoken) {
  (void)pxHigherPriorityTaskWoken; /* the timer task's priority would decide it */
  traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet);
  return prvPend(xEventGroup, uxBitsToSet, pdTRUE);
}

void standin_run_pended_event_group_calls(void) {
  for (UBaseType_t i = 0; i < uxPendedCalls; i++) {
    if (xPendedCalls[i].xSet != pdFALSE) {
      (void)xEventGroupSetBits(xPendedCalls[i].xEventGroup, xPendedCalls[i].uxBits);
    } else {
      (void)xEventGroupClearBits(xPendedCalls[i].xEventGroup, xPendedCalls[i].uxBits);
    }
  }
  uxPendedCalls = 0;
}

void vEventGroupDelete(EventGroupHandle_t xEventGroup) {
  EventGroup_t* pxEventBits = xEventGroup;
  List_t* const pxTasksWaitingForBits = &(pxEventBits->xTasksWaitingForBits);
  vTaskSuspendAll();
  {
    traceEVENT_GROUP_DELETE(xEventGroup);
    while (listCURRENT_LIST_LENGTH(pxTasksWaitingForBits) > (UBaseType_t)0) {
      vTaskRemoveFromUnorderedEventList((TaskHandle_t)pxTasksWaitingForBits->pvOwners[0],
                                        eventUNBLOCKED_DUE_TO_BIT_SET);
    }
  }
  (void)xTaskResumeAll();
  free(pxEventBits);
}

#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxEventGroupGetNumber(void* xEventGroup) {
  return xEventGroup != NULL ? ((EventGroup_t*)xEventGroup)->uxEventGroupNumber : 0U;
}
void vEventGroupSetNumber(void* xEventGroup, UBaseType_t uxEventGroupNumber) {
  ((EventGroup_t*)xEventGroup)->uxEventGroupNumber = uxEventGroupNumber;
}
#endif
