/* Records into a RAM buffer until it is full; the firmware sends the buffer
 * over UART0 at the end. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_SNAPSHOT 1
#define tband_configBACKEND_SNAPSHOT_BUF_SIZE 16384
