/* Streams over UART0 and takes the host's commands on its receiver (the
 * control channel), with the run-time filters the commands set. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_CONTROL 1
#define tband_configUSE_FILTERS 1
