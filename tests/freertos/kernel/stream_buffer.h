/* Stand-in for the FreeRTOS kernel's stream_buffer.h: the stream buffer API
 * the stand-in's stream_buffer.c implements (see FreeRTOS.h), with the real
 * names; the creation functions keep the parameters the trace macros see
 * (no completion callbacks, no static buffers). */
#ifndef STREAM_BUFFER_H
#define STREAM_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include stream_buffer.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct StreamBufferDef_t;
typedef struct StreamBufferDef_t* StreamBufferHandle_t;

/* V11's buffer types; V10 passes pdFALSE or pdTRUE (xIsMessageBuffer). */
#define sbTYPE_STREAM_BUFFER ((BaseType_t)0)
#define sbTYPE_MESSAGE_BUFFER ((BaseType_t)1)
#define sbTYPE_STREAM_BATCHING_BUFFER ((BaseType_t)2)

StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                BaseType_t xStreamBufferType);
#define xStreamBufferCreate(xBufferSizeBytes, xTriggerLevelBytes) \
  xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER)
void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void* pvTxData, size_t xDataLengthBytes,
                         TickType_t xTicksToWait);
size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void* pvTxData, size_t xDataLengthBytes,
                                BaseType_t* const pxHigherPriorityTaskWoken);
size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void* pvRxData, size_t xBufferLengthBytes,
                            TickType_t xTicksToWait);
size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void* pvRxData, size_t xBufferLengthBytes,
                                   BaseType_t* const pxHigherPriorityTaskWoken);
size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer);
#if configUSE_TRACE_FACILITY == 1
UBaseType_t uxStreamBufferGetStreamBufferNumber(StreamBufferHandle_t xStreamBuffer);
void vStreamBufferSetStreamBufferNumber(StreamBufferHandle_t xStreamBuffer, UBaseType_t uxStreamBufferNumber);
#endif

/* Stand-in only: a send or receive that blocked returns this (see
 * errSTANDIN_BLOCKED); the scenario calls it again once the task runs, and
 * that call goes on after the real one's wait. */
#define standinSTREAM_BUFFER_BLOCKED ((size_t)-100)

#ifdef __cplusplus
}
#endif

#endif /* STREAM_BUFFER_H */
