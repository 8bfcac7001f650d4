/* Keeps the newest events in a RAM ring that survives the crash; the host
 * reads it from a dump of the RAM. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_POST_MORTEM 1
#define tband_configBACKEND_POST_MORTEM_BUF_SIZE 2048
#define tband_configBACKEND_POST_MORTEM_SECTION ".noinit"
