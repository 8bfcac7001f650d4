/* QEMU build, streaming: every event goes out over UART0 as it happens. */
#include "board_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
