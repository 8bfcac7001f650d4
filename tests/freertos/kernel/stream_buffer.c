/* Stand-in for the FreeRTOS kernel's stream_buffer.c (see FreeRTOS.h): stream,
 * message and stream batching buffers in a ring of bytes one longer than
 * asked for, a message stored after its length. As in the real kernel (V10
 * and V11 alike), a task waits for room or data in a notification wait, and
 * the other side's call notifies it; the trace macros are called where the
 * real functions call them, before or after the bytes move as there, with the
 * same names in scope (xStreamBuffer, xTicksToWait, the lengths). A send or
 * receive that blocks returns standinSTREAM_BUFFER_BLOCKED after the task
 * blocked; the scenario calls it again once the task runs, and that call
 * goes on after the real one's wait (one wait: the stand-in has no timeouts
 * to check, so a wait that ended without room or data moves what there is). */
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "stream_buffer.h"
#include "task.h"

#define sbFLAGS_IS_MESSAGE_BUFFER ((uint8_t)1)
#define sbFLAGS_IS_BATCHING_BUFFER ((uint8_t)2)
#define sbBYTES_TO_STORE_MESSAGE_LENGTH (sizeof(size_t))

typedef struct StreamBufferDef_t {
  size_t xTail;    /* next byte to read */
  size_t xHead;    /* next byte to write */
  size_t xLength;  /* the ring's length: one more than it holds */
  size_t xTriggerLevelBytes;
  TaskHandle_t xTaskWaitingToReceive;
  TaskHandle_t xTaskWaitingToSend;
  uint8_t* pucBuffer;
  uint8_t ucFlags;
#if configUSE_TRACE_FACILITY == 1
  UBaseType_t uxStreamBufferNumber;
#endif
} StreamBuffer_t;

static size_t prvBytesInBuffer(const StreamBuffer_t* pxStreamBuffer) {
  size_t xCount = pxStreamBuffer->xLength + pxStreamBuffer->xHead - pxStreamBuffer->xTail;
  return xCount >= pxStreamBuffer->xLength ? xCount - pxStreamBuffer->xLength : xCount;
}

size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer) { return prvBytesInBuffer(xStreamBuffer); }

size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer) {
  return xStreamBuffer->xLength - prvBytesInBuffer(xStreamBuffer) - (size_t)1;
}

/* Clears everything, the trace field too (the real kernel does). */
static void prvInitialiseNewStreamBuffer(StreamBuffer_t* pxStreamBuffer, uint8_t* pucBuffer, size_t xBufferSizeBytes,
                                         size_t xTriggerLevelBytes, uint8_t ucFlags) {
  (void)memset(pxStreamBuffer, 0x00, sizeof(StreamBuffer_t));
  pxStreamBuffer->pucBuffer = pucBuffer;
  pxStreamBuffer->xLength = xBufferSizeBytes;
  pxStreamBuffer->xTriggerLevelBytes = xTriggerLevelBytes;
  pxStreamBuffer->ucFlags = ucFlags;
}

/* xStreamBufferType: V11's sbTYPE_*; V10 calls it xIsMessageBuffer (pdFALSE, pdTRUE). */
StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                BaseType_t xStreamBufferType) {
  uint8_t ucFlags = 0;
  if (xStreamBufferType == sbTYPE_MESSAGE_BUFFER) {
    ucFlags = sbFLAGS_IS_MESSAGE_BUFFER;
  } else if (xStreamBufferType == sbTYPE_STREAM_BATCHING_BUFFER) {
    ucFlags = sbFLAGS_IS_BATCHING_BUFFER;
  }
  if (xTriggerLevelBytes == (size_t)0) {
    xTriggerLevelBytes = (size_t)1;
  }
  xBufferSizeBytes++;
  void* pvAllocatedMemory = malloc(xBufferSizeBytes + sizeof(StreamBuffer_t));
  if (pvAllocatedMemory != NULL) {
    prvInitialiseNewStreamBuffer((StreamBuffer_t*)pvAllocatedMemory,
                                 ((uint8_t*)pvAllocatedMemory) + sizeof(StreamBuffer_t), xBufferSizeBytes,
                                 xTriggerLevelBytes, ucFlags);
    traceSTREAM_BUFFER_CREATE(((StreamBuffer_t*)pvAllocatedMemory), xStreamBufferType);
  } else {
    traceSTREAM_BUFFER_CREATE_FAILED(xStreamBufferType);
  }
  return (StreamBufferHandle_t)pvAllocatedMemory;
}

void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer) {
  traceSTREAM_BUFFER_DELETE(xStreamBuffer);
  free(xStreamBuffer);
}

BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer) {
  StreamBuffer_t* const pxStreamBuffer = xStreamBuffer;
  BaseType_t xReturn = pdFAIL;
#if configUSE_TRACE_FACILITY == 1
  const UBaseType_t uxStreamBufferNumber = pxStreamBuffer->uxStreamBufferNumber;
#endif
  taskENTER_CRITICAL();
  {
    if (pxStreamBuffer->xTaskWaitingToReceive == NULL && pxStreamBuffer->xTaskWaitingToSend == NULL) {
      prvInitialiseNewStreamBuffer(pxStreamBuffer, pxStreamBuffer->pucBuffer, pxStreamBuffer->xLength,
                                   pxStreamBuffer->xTriggerLevelBytes, pxStreamBuffer->ucFlags);
#if configUSE_TRACE_FACILITY == 1
      pxStreamBuffer->uxStreamBufferNumber = uxStreamBufferNumber;
#endif
      traceSTREAM_BUFFER_RESET(xStreamBuffer);
      xReturn = pdPASS;
    }
  }
  taskEXIT_CRITICAL();
  return xReturn;
}

/* ---- The ring ---- */

static size_t prvWriteBytesToBuffer(StreamBuffer_t* const pxStreamBuffer, const uint8_t* pucData, size_t xCount,
                                    size_t xHead) {
  for (size_t i = 0; i < xCount; i++) {
    pxStreamBuffer->pucBuffer[xHead] = pucData[i];
    xHead = (xHead + 1) % pxStreamBuffer->xLength;
  }
  return xHead;
}

static size_t prvReadBytesFromBuffer(const StreamBuffer_t* pxStreamBuffer, uint8_t* pucData, size_t xCount,
                                     size_t xTail) {
  for (size_t i = 0; i < xCount; i++) {
    pucData[i] = pxStreamBuffer->pucBuffer[xTail];
    xTail = (xTail + 1) % pxStreamBuffer->xLength;
  }
  return xTail;
}

/* A message whole or not at all, after its length; of a stream, what fits. */
static size_t prvWriteMessageToBuffer(StreamBuffer_t* const pxStreamBuffer, const void* pvTxData,
                                      size_t xDataLengthBytes, size_t xSpace, size_t xRequiredSpace) {
  size_t xHead = pxStreamBuffer->xHead;
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0) {
    if (xSpace < xRequiredSpace) {
      return 0;
    }
    xHead = prvWriteBytesToBuffer(pxStreamBuffer, (const uint8_t*)&xDataLengthBytes, sbBYTES_TO_STORE_MESSAGE_LENGTH,
                                  xHead);
  } else if (xDataLengthBytes > xSpace) {
    xDataLengthBytes = xSpace;
  }
  pxStreamBuffer->xHead = prvWriteBytesToBuffer(pxStreamBuffer, (const uint8_t*)pvTxData, xDataLengthBytes, xHead);
  return xDataLengthBytes;
}

/* The next message (left in the buffer if pvRxData is too small for it), or
 * as many bytes as there are and fit. */
static size_t prvReadMessageFromBuffer(StreamBuffer_t* pxStreamBuffer, void* pvRxData, size_t xBufferLengthBytes,
                                       size_t xBytesAvailable) {
  size_t xNextTail = pxStreamBuffer->xTail;
  size_t xCount = xBufferLengthBytes;
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0) {
    size_t xNextMessageLength = 0;
    xNextTail = prvReadBytesFromBuffer(pxStreamBuffer, (uint8_t*)&xNextMessageLength, sbBYTES_TO_STORE_MESSAGE_LENGTH,
                                       xNextTail);
    if (xNextMessageLength > xBufferLengthBytes) {
      return 0;
    }
    xCount = xNextMessageLength;
    xBytesAvailable -= sbBYTES_TO_STORE_MESSAGE_LENGTH;
  }
  if (xCount > xBytesAvailable) {
    xCount = xBytesAvailable;
  }
  pxStreamBuffer->xTail = prvReadBytesFromBuffer(pxStreamBuffer, (uint8_t*)pvRxData, xCount, xNextTail);
  return xCount;
}

/* sbSEND_COMPLETED / sbRECEIVE_COMPLETED: the task waiting on the other side
 * is notified (V11 on the buffer's notification index, 0 by default). */
static void prvNotifyWaiting(TaskHandle_t* pxWaiting) {
  vTaskSuspendAll();
  if (*pxWaiting != NULL) {
    (void)xTaskNotify(*pxWaiting, (uint32_t)0, eNoAction);
    *pxWaiting = NULL;
  }
  (void)xTaskResumeAll();
}

static void prvNotifyWaitingFromISR(TaskHandle_t* pxWaiting, BaseType_t* const pxHigherPriorityTaskWoken) {
  const UBaseType_t uxSavedInterruptStatus = taskENTER_CRITICAL_FROM_ISR();
  if (*pxWaiting != NULL) {
    (void)xTaskNotifyFromISR(*pxWaiting, (uint32_t)0, eNoAction, pxHigherPriorityTaskWoken);
    *pxWaiting = NULL;
  }
  taskEXIT_CRITICAL_FROM_ISR(uxSavedInterruptStatus);
}

/* ---- Send and receive ---- */

/* The first half of a wait: whether the task blocked (it has, after the
 * macro, in the notification wait). The call is marked as blocked first:
 * once blocked, another task runs. The second half: the wait ends. */
static BaseType_t prvWaitBlocked(TickType_t xTicksToWait) {
  standin_call_blocked();
  if (xTaskGenericNotifyWait(0, (uint32_t)0, (uint32_t)0, NULL, xTicksToWait) == errSTANDIN_BLOCKED) {
    return pdTRUE;
  }
  (void)standin_call_resumes(); /* a notification was there: no wait */
  return pdFALSE;
}
static void prvWaitEnded(void) { (void)xTaskGenericNotifyWait(0, (uint32_t)0, (uint32_t)0, NULL, 0); }

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void* pvTxData, size_t xDataLengthBytes,
                         TickType_t xTicksToWait) {
  StreamBuffer_t* const pxStreamBuffer = xStreamBuffer;
  size_t xRequiredSpace = xDataLengthBytes;
  const size_t xMaxReportedSpace = pxStreamBuffer->xLength - (size_t)1;
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0) {
    xRequiredSpace += sbBYTES_TO_STORE_MESSAGE_LENGTH;
    if (xRequiredSpace > xMaxReportedSpace) {
      xTicksToWait = (TickType_t)0; /* it would never fit */
    }
  } else if (xRequiredSpace > xMaxReportedSpace) {
    xRequiredSpace = xMaxReportedSpace;
  }
  if (standin_call_resumes() != pdFALSE) {
    prvWaitEnded();
    pxStreamBuffer->xTaskWaitingToSend = NULL;
  } else if (xTicksToWait != (TickType_t)0) {
    BaseType_t xWait = pdFALSE;
    taskENTER_CRITICAL();
    if (xStreamBufferSpacesAvailable(pxStreamBuffer) < xRequiredSpace) {
      pxStreamBuffer->xTaskWaitingToSend = xTaskGetCurrentTaskHandle();
      xWait = pdTRUE;
    }
    taskEXIT_CRITICAL();
    if (xWait != pdFALSE) {
      traceBLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer);
      if (prvWaitBlocked(xTicksToWait) != pdFALSE) {
        return standinSTREAM_BUFFER_BLOCKED;
      }
      pxStreamBuffer->xTaskWaitingToSend = NULL;
    }
  }
  const size_t xSpace = xStreamBufferSpacesAvailable(pxStreamBuffer);
  const size_t xReturn = prvWriteMessageToBuffer(pxStreamBuffer, pvTxData, xDataLengthBytes, xSpace, xRequiredSpace);
  if (xReturn > (size_t)0) {
    traceSTREAM_BUFFER_SEND(xStreamBuffer, xReturn);
    if (prvBytesInBuffer(pxStreamBuffer) >= pxStreamBuffer->xTriggerLevelBytes) {
      prvNotifyWaiting(&pxStreamBuffer->xTaskWaitingToReceive);
    }
  } else {
    traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer);
  }
  return xReturn;
}

size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void* pvTxData, size_t xDataLengthBytes,
                                BaseType_t* const pxHigherPriorityTaskWoken) {
  StreamBuffer_t* const pxStreamBuffer = xStreamBuffer;
  size_t xRequiredSpace = xDataLengthBytes;
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0) {
    xRequiredSpace += sbBYTES_TO_STORE_MESSAGE_LENGTH;
  }
  const size_t xSpace = xStreamBufferSpacesAvailable(pxStreamBuffer);
  const size_t xReturn = prvWriteMessageToBuffer(pxStreamBuffer, pvTxData, xDataLengthBytes, xSpace, xRequiredSpace);
  if (xReturn > (size_t)0 && prvBytesInBuffer(pxStreamBuffer) >= pxStreamBuffer->xTriggerLevelBytes) {
    prvNotifyWaitingFromISR(&pxStreamBuffer->xTaskWaitingToReceive, pxHigherPriorityTaskWoken);
  }
  traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xReturn);
  return xReturn;
}

/* Bytes that must be there beyond which a read can take any: a message's
 * length; a batching buffer's trigger level. */
static size_t prvBytesToHold(const StreamBuffer_t* pxStreamBuffer) {
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0) {
    return sbBYTES_TO_STORE_MESSAGE_LENGTH;
  }
  if ((pxStreamBuffer->ucFlags & sbFLAGS_IS_BATCHING_BUFFER) != 0) {
    return pxStreamBuffer->xTriggerLevelBytes;
  }
  return 0;
}

size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void* pvRxData, size_t xBufferLengthBytes,
                            TickType_t xTicksToWait) {
  StreamBuffer_t* const pxStreamBuffer = xStreamBuffer;
  size_t xReceivedLength = 0;
  const size_t xBytesToStoreMessageLength = prvBytesToHold(pxStreamBuffer);
  size_t xBytesAvailable;
  if (standin_call_resumes() != pdFALSE) {
    prvWaitEnded();
    pxStreamBuffer->xTaskWaitingToReceive = NULL;
    xBytesAvailable = prvBytesInBuffer(pxStreamBuffer);
  } else if (xTicksToWait != (TickType_t)0) {
    taskENTER_CRITICAL();
    xBytesAvailable = prvBytesInBuffer(pxStreamBuffer);
    if (xBytesAvailable <= xBytesToStoreMessageLength) {
      pxStreamBuffer->xTaskWaitingToReceive = xTaskGetCurrentTaskHandle();
    }
    taskEXIT_CRITICAL();
    if (xBytesAvailable <= xBytesToStoreMessageLength) {
      traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer);
      if (prvWaitBlocked(xTicksToWait) != pdFALSE) {
        return standinSTREAM_BUFFER_BLOCKED;
      }
      pxStreamBuffer->xTaskWaitingToReceive = NULL;
      xBytesAvailable = prvBytesInBuffer(pxStreamBuffer);
    }
  } else {
    xBytesAvailable = prvBytesInBuffer(pxStreamBuffer);
  }
  if (xBytesAvailable > xBytesToStoreMessageLength) {
    xReceivedLength = prvReadMessageFromBuffer(pxStreamBuffer, pvRxData, xBufferLengthBytes, xBytesAvailable);
    if (xReceivedLength != (size_t)0) {
      traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength);
      prvNotifyWaiting(&pxStreamBuffer->xTaskWaitingToSend);
    }
  } else {
    traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer);
  }
  return xReceivedLength;
}

size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void* pvRxData, size_t xBufferLengthBytes,
                                   BaseType_t* const pxHigherPriorityTaskWoken) {
  StreamBuffer_t* const pxStreamBuffer = xStreamBuffer;
  size_t xReceivedLength = 0;
  const size_t xBytesToStoreMessageLength =
      (pxStreamBuffer->ucFlags & sbFLAGS_IS_MESSAGE_BUFFER) != 0 ? sbBYTES_TO_STORE_MESSAGE_LENGTH : 0;
  const size_t xBytesAvailable = prvBytesInBuffer(pxStreamBuffer);
  if (xBytesAvailable > xBytesToStoreMessageLength) {
    xReceivedLength = prvReadMessageFromBuffer(pxStreamBuffer, pvRxData, xBufferLengthBytes, xBytesAvailable);
    if (xReceivedLength != (size_t)0) {
      prvNotifyWaitingFromISR(&pxStreamBuffer->xTaskWaitingToSend, pxHigherPriorityTaskWoken);
    }
  }
  traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength);
  return xReceivedLength;
}

#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxStreamBufferGetStreamBufferNumber(StreamBufferHandle_t xStreamBuffer) {
  return xStreamBuffer->uxStreamBufferNumber;
}
void vStreamBufferSetStreamBufferNumber(StreamBufferHandle_t xStreamBuffer, UBaseType_t uxStreamBufferNumber) {
  xStreamBuffer->uxStreamBufferNumber = uxStreamBufferNumber;
}
#endif
