/* tband in the ARM_CM4F firmware: FreeRTOS tracing streamed over UART0
 * (blocking: nothing dropped), timestamps from the board's FPGAIO counter,
 * since QEMU does not model the DWT cycle counter. */
#include "board.h"

#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configFREERTOS_TRACE_ENABLE 1
#define tband_configMETADATA_BUF_SIZE 1024
#define tband_configMAX_STR_LEN 20

#define tband_portTIMESTAMP() board_clock()
#define tband_portTIMESTAMP_RESOLUTION_NS BOARD_NS_PER_COUNT
#define TBAND_CM4_STREAM(buf, len) (board_uart_write((buf), (len)), false)
