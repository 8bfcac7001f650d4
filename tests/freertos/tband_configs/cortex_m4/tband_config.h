/* The Cortex-M4 FreeRTOS port example (ports/cortex_m4_freertos) with
 * FreeRTOS tracing and the streaming backend to a UART writer. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define TBAND_CM4_NS_PER_CYCLE 10
#define TBAND_CM4_STREAM(buf, len) firmware_uart_write((buf), (len))
#ifdef __cplusplus
extern "C" {
#endif
bool firmware_uart_write(const uint8_t* buf, size_t len);
#ifdef __cplusplus
}
#endif
