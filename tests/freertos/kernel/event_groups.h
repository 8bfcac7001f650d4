/* Stand-in for the FreeRTOS kernel's event_groups.h: the event group API the
 * stand-in's event_groups.c implements (see FreeRTOS.h), with the real names
 * and signatures. */
#ifndef EVENT_GROUPS_H
#define EVENT_GROUPS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include event_groups.h"
#endif

#include "timers.h"

#ifdef __cplusplus
extern "C" {
#endif

struct EventGroupDef_t;
typedef struct EventGroupDef_t* EventGroupHandle_t;
typedef TickType_t EventBits_t;

EventGroupHandle_t xEventGroupCreate(void);
EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
                                const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
                                TickType_t xTicksToWait);
EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear);
BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear);
EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet);
BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                                     BaseType_t* pxHigherPriorityTaskWoken);
EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                            const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait);
#define xEventGroupGetBits(xEventGroup) xEventGroupClearBits((xEventGroup), 0)
void vEventGroupDelete(EventGroupHandle_t xEventGroup);
#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxEventGroupGetNumber(void* xEventGroup);
void vEventGroupSetNumber(void* xEventGroup, UBaseType_t uxEventGroupNumber);
#endif

/* Stand-in only: a blocked xEventGroupWaitBits()/xEventGroupSync() returns
 * this (see errSTANDIN_BLOCKED); the scenario calls again once the task runs. */
#define standinEVENT_GROUP_BLOCKED ((EventBits_t)0xDEADBEEFUL)
/* Stand-in: what the timer task does with the calls the FromISR functions
 * pended (xTimerPendFunctionCallFromISR): runs them, in the calling context. */
void standin_run_pended_event_group_calls(void);

#ifdef __cplusplus
}
#endif

#endif /* EVENT_GROUPS_H */
