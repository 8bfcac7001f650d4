/* Reset and vector table for mps2-an386: copies .data, clears .bss (the
 * .noinit section is left alone, so a post-mortem block survives a reset),
 * then calls main. The memory map is target/images/cortex_m4/mps2_an386.ld. */
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

typedef void (*vector_t)(void);
#define IRQ_COUNT 11 /* up to the dual timer, IRQ 10 */

__attribute__((section(".vectors"), used)) const vector_t vector_table[16 + IRQ_COUNT] = {
    (vector_t)(&__stack_top),
    reset_handler,
    unexpected, /* NMI */
    fault,      /* HardFault */
    fault,      /* MemManage */
    fault,      /* BusFault */
    fault,      /* UsageFault */
    0, 0, 0, 0,
    unexpected, /* SVCall */
    unexpected, /* DebugMon */
    0,
    unexpected, /* PendSV */
    app_systick_handler,
    /* IRQ 0-9: UARTs and CMSDK timers, not used */
    unexpected, unexpected, unexpected, unexpected, unexpected,
    unexpected, unexpected, unexpected, unexpected, unexpected,
    board_dualtimer_irq, /* IRQ 10: dual timer */
};
