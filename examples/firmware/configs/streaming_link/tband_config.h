/* Streams every event over UART0 while the demo runs, each frame with a
 * sequence number and a CRC (link integrity): tests/e2e/test_qemu_link.py
 * records it through a lossy proxy. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configLINK_INTEGRITY 1
