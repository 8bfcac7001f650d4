/* What both QEMU builds share: the Cortex-M4 GCC port with the timestamp from
 * the board's FPGAIO counter (QEMU does not model the DWT cycle counter) and
 * the stream going to UART0, which blocks and so never drops. */
#ifndef BOARD_SETTINGS_H_
#define BOARD_SETTINGS_H_

#include "board.h"

#define tband_portTIMESTAMP() board_clock()
#define tband_portTIMESTAMP_RESOLUTION_NS BOARD_NS_PER_COUNT
#define TBAND_CM4_STREAM(buf, len) (board_uart_write((buf), (len)), false)

#endif /* BOARD_SETTINGS_H_ */
