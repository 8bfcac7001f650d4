/* The single-core kernel's settings without tband: the baseline that a kernel
 * with tband's FreeRTOS tracing switched off must compile to exactly. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "standin_config.h"
#define configUSE_PREEMPTION 1
#define configUSE_TRACE_FACILITY 1

#endif /* FREERTOS_CONFIG_H */
