/* The same firmware with tracing compiled out, for the size comparison. */
#include "qemu_settings.h"
#define tband_configENABLE 0
