/* Streams every event over UART0 while the demo runs, with compact
 * timestamps (deltas from the last absolute timestamp): the demo's bytes
 * per event in that mode (target/RESULTS.md, "Compact timestamps"). */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configCOMPACT_TIMESTAMPS 1
