/* A FreeRTOS port's assembly file includes FreeRTOSConfig.h, which includes
 * tband.h: the assembler must see nothing of it (ctest
 * freertos_config_from_assembly). */
#include "FreeRTOSConfig.h"

#if !defined(configUSE_TRACE_FACILITY)
#error "FreeRTOSConfig.h was not read"
#endif

    .text
    .globl standin_assembly_symbol
standin_assembly_symbol:
    .word configMAX_PRIORITIES
