/* Image (c): as (b), with the FreeRTOS module (task and queue tracing,
 * task-local markers). Its hooks are called as the kernel's trace macros
 * would call them; the critical section is the bare-metal port's, so that
 * the figures are the tracer's alone (with FreeRTOS it would be the
 * kernel's: ports/cortex_m4_freertos). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#define tband_configENABLE 1
#define tband_configMARKER_TRACE_ENABLE 1
#define tband_configISR_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 256
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define TBAND_CM4_NS_PER_CYCLE 10
#define TBAND_CM4_STREAM(buf, len) image_uart_write((buf), (len))
#ifdef __cplusplus
extern "C" {
#endif
bool image_uart_write(const uint8_t* buf, size_t len);
#ifdef __cplusplus
}
#endif
