/* Stand-in for the FreeRTOS kernel's list.h. The real lists are intrusive
 * doubly linked lists of list items; the stand-in keeps an array of owners,
 * with the same round-robin reading (listGET_OWNER_OF_NEXT_ENTRY) that task
 * selection relies on. Nothing of it is visible to the trace hooks. */
#ifndef INC_LIST_H
#define INC_LIST_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include list.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define standinLIST_CAPACITY 32

typedef struct xLIST {
  UBaseType_t uxNumberOfItems;
  UBaseType_t uxIndex; /* where the round-robin reading continues */
  void* pvOwners[standinLIST_CAPACITY];
} List_t;

void vListInitialise(List_t* const pxList);
void vListInsertEnd(List_t* const pxList, void* pvOwner);
/* Returns the number of items left (0 when the owner was not in the list). */
UBaseType_t uxListRemove(List_t* const pxList, void* pvOwner);
BaseType_t xListContains(const List_t* const pxList, const void* pvOwner);
/* The next owner after the last one read, in insertion order, wrapping. */
void* pvListGetOwnerOfNextEntry(List_t* const pxList);

#define listLIST_IS_EMPTY(pxList) (((pxList)->uxNumberOfItems == (UBaseType_t)0) ? pdTRUE : pdFALSE)
#define listCURRENT_LIST_LENGTH(pxList) ((pxList)->uxNumberOfItems)

#ifdef __cplusplus
}
#endif

#endif /* INC_LIST_H */
