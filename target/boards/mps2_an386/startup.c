/* Reset and vector table for mps2-an386: copies .data, clears .bss (the
 * .noinit section is left alone, so a post-mortem block survives a reset),
 * then calls main. The memory map is mps2_an386.ld, next to this file. */
#include <stdint.h>

#include "board.h"

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
int main(void);
void reset_handler(void);
void board_dualtimer_irq(void);

void reset_handler(void) {
  const uint32_t* src = &__data_load;
  for (uint32_t* dst = &__data_start; dst < &__data_end;) {
    *dst++ = *src++;
  }
  for (uint32_t* dst = &__bss_start; dst < &__bss_end;) {
    *dst++ = 0;
  }
  board_exit(main());
}

static void fault(void) { app_fault_handler(); }
static void unexpected(void) {
  board_uart_puts("\nunexpected interrupt\n");
  board_exit(3);
}

/* SVCall and PendSV: an RTOS supplies them (FreeRTOS's Cortex-M ports
 * switch tasks there) by defining these names; weak, so that without one
 * they stay unexpected and cost nothing. */
void board_svcall_handler(void) __attribute__((weak, alias("unexpected")));
void board_pendsv_handler(void) __attribute__((weak, alias("unexpected")));

#define IRQ_COUNT 11 /* up to the dual timer, IRQ 10 */

/* The first word is the initial stack pointer, the others are handlers: two
 * members, so that no object pointer becomes a function pointer (ISO C). */
struct vector_table {
  const uint32_t* initial_stack;
  void (*handlers[15 + IRQ_COUNT])(void);
};

__attribute__((section(".vectors"), used)) const struct vector_table vector_table = {
    &__stack_top,
    {
        reset_handler,
        unexpected, /* NMI */
        fault,      /* HardFault */
        fault,      /* MemManage */
        fault,      /* BusFault */
        fault,      /* UsageFault */
        0, 0, 0, 0,
        board_svcall_handler,
        unexpected, /* DebugMon */
        0,
        board_pendsv_handler,
        app_systick_handler,
        /* IRQ 0-9: UARTs and CMSDK timers, not used */
        unexpected, unexpected, unexpected, unexpected, unexpected,
        unexpected, unexpected, unexpected, unexpected, unexpected,
        board_dualtimer_irq, /* IRQ 10: dual timer */
    },
};
