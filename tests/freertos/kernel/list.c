/* Stand-in for the FreeRTOS kernel's list.c (see list.h). */
#include "FreeRTOS.h"
#include "list.h"

void vListInitialise(List_t* const pxList) {
  pxList->uxNumberOfItems = 0;
  pxList->uxIndex = 0;
}

void vListInsertEnd(List_t* const pxList, void* pvOwner) {
  if (pxList->uxNumberOfItems < standinLIST_CAPACITY) {
    pxList->pvOwners[pxList->uxNumberOfItems++] = pvOwner;
  }
}

UBaseType_t uxListRemove(List_t* const pxList, void* pvOwner) {
  for (UBaseType_t i = 0; i < pxList->uxNumberOfItems; i++) {
    if (pxList->pvOwners[i] == pvOwner) {
      for (UBaseType_t j = i + 1; j < pxList->uxNumberOfItems; j++) {
        pxList->pvOwners[j - 1] = pxList->pvOwners[j];
      }
      pxList->uxNumberOfItems--;
      if (pxList->uxIndex > i) {
        pxList->uxIndex--;
      }
      break;
    }
  }
  return pxList->uxNumberOfItems;
}

BaseType_t xListContains(const List_t* const pxList, const void* pvOwner) {
  for (UBaseType_t i = 0; i < pxList->uxNumberOfItems; i++) {
    if (pxList->pvOwners[i] == pvOwner) {
      return pdTRUE;
    }
  }
  return pdFALSE;
}

void* pvListGetOwnerOfNextEntry(List_t* const pxList) {
  if (pxList->uxNumberOfItems == 0) {
    return NULL;
  }
  if (pxList->uxIndex >= pxList->uxNumberOfItems) {
    pxList->uxIndex = 0;
  }
  return pxList->pvOwners[pxList->uxIndex++];
}
