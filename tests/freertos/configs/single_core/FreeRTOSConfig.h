/* Scenario kernel: one core, preemptive, traced by tband. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "standin_config.h"
#define configUSE_PREEMPTION 1
#define configUSE_TRACE_FACILITY 1

#include "tband.h" /* last: tband's trace macros */

#endif /* FREERTOS_CONFIG_H */
