/* QEMU build, snapshot: events fill a RAM buffer; at the end the metadata
 * buffer and the snapshot go out over UART0. */
#include "board_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 16384
