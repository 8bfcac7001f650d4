/* Streams over UART0 and takes the host's commands on its receiver (the
 * control channel). The run-time filters are not in this build yet: their
 * Guard (src/filter.cpp) splits the port's critical section across two
 * scopes, which the Cortex-M4 port's variable-declaring macros do not allow. */
#include "qemu_settings.h"
#define tband_configENABLE 1
#define tband_configUSE_BACKEND_STREAMING 1
#define tband_configUSE_CONTROL 1
