/* The real kernel's ARM_CM4F port on QEMU's mps2-an386 (25 MHz), traced by
 * tband with ports/cortex_m4_freertos. The same settings on V10 and V11. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configCPU_CLOCK_HZ 25000000u
#define configTICK_RATE_HZ 1000
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 0
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configMAX_PRIORITIES 5
#define configMINIMAL_STACK_SIZE 256 /* words */
#define configTOTAL_HEAP_SIZE (32 * 1024)
#define configMAX_TASK_NAME_LEN 16
/* 32-bit ticks, in the form every kernel from V10.4 on reads: V10.4 knows only
 * configUSE_16_BIT_TICKS, V10.5 and later map it to configTICK_TYPE_WIDTH_IN_BITS
 * (defining both is an error there). */
#define configUSE_16_BIT_TICKS 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 0
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 8
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 4
#define configTIMER_QUEUE_LENGTH 4
#define configTIMER_TASK_STACK_DEPTH configMINIMAL_STACK_SIZE
#define configUSE_TRACE_FACILITY 1
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_CO_ROUTINES 0
#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetIdleTaskHandle 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1

/* Interrupt priorities (top bits; QEMU implements at least three): the
 * kernel's interrupts lowest, the FromISR API allowed up to 5 << 5. */
#define configKERNEL_INTERRUPT_PRIORITY 0xE0
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0xA0

/* The kernel's handlers, where the board's vector table points (board.h). */
#define vPortSVCHandler board_svcall_handler
#define xPortPendSVHandler board_pendsv_handler

/* A failed kernel assertion ends the run with its line on the UART (main.c). */
void firmware_assert_failed(const char* file, int line);
#define configASSERT(x)                           \
  if ((x) == 0) {                                 \
    firmware_assert_failed(__FILE__, __LINE__);   \
  }

#include "tband.h" /* last: tband's trace macros */

#endif /* FREERTOS_CONFIG_H */
