/* Settings every firmware variant shares: the Cortex-M4 GCC port
 * (target/ports/cortex_m4_gcc) with the timestamp taken from the board's
 * FPGAIO counter, since QEMU does not model the DWT cycle counter, and the
 * stream going to UART0 (blocking, so nothing is dropped). */
#ifndef QEMU_SETTINGS_H_
#define QEMU_SETTINGS_H_

#include "board.h"

#define tband_portTIMESTAMP() board_clock()
#define tband_portTIMESTAMP_RESOLUTION_NS BOARD_NS_PER_COUNT
#define TBAND_CM4_STREAM(buf, len) (board_uart_write((buf), (len)), false)

#define tband_configMAX_STR_LEN 20

#endif /* QEMU_SETTINGS_H_ */
