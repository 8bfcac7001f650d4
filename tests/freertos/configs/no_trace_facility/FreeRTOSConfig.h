/* FreeRTOS tracing without configUSE_TRACE_FACILITY: must not build. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "standin_config.h"
#define configUSE_PREEMPTION 1
#define configUSE_TRACE_FACILITY 0

#include "tband.h"

#endif /* FREERTOS_CONFIG_H */
