/* Stand-in for the FreeRTOS kernel's message_buffer.h: a message buffer is a
 * stream buffer that keeps each message's length with it (see stream_buffer.h). */
#ifndef FREERTOS_MESSAGE_BUFFER_H
#define FREERTOS_MESSAGE_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include message_buffer.h"
#endif

#include "stream_buffer.h"

typedef StreamBufferHandle_t MessageBufferHandle_t;

#define xMessageBufferCreate(xBufferSizeBytes) \
  xStreamBufferGenericCreate((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER)
#define xMessageBufferSend(xMessageBuffer, pvTxData, xDataLengthBytes, xTicksToWait) \
  xStreamBufferSend((xMessageBuffer), (pvTxData), (xDataLengthBytes), (xTicksToWait))
#define xMessageBufferSendFromISR(xMessageBuffer, pvTxData, xDataLengthBytes, pxHigherPriorityTaskWoken) \
  xStreamBufferSendFromISR((xMessageBuffer), (pvTxData), (xDataLengthBytes), (pxHigherPriorityTaskWoken))
#define xMessageBufferReceive(xMessageBuffer, pvRxData, xBufferLengthBytes, xTicksToWait) \
  xStreamBufferReceive((xMessageBuffer), (pvRxData), (xBufferLengthBytes), (xTicksToWait))
#define xMessageBufferReceiveFromISR(xMessageBuffer, pvRxData, xBufferLengthBytes, pxHigherPriorityTaskWoken) \
  xStreamBufferReceiveFromISR((xMessageBuffer), (pvRxData), (xBufferLengthBytes), (pxHigherPriorityTaskWoken))
#define vMessageBufferDelete(xMessageBuffer) vStreamBufferDelete(xMessageBuffer)
#define xMessageBufferReset(xMessageBuffer) xStreamBufferReset(xMessageBuffer)

#endif /* FREERTOS_MESSAGE_BUFFER_H */
