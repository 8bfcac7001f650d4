/* Streams every event over UART0 while the demo runs. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
