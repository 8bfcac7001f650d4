/* Board support for QEMU's mps2-an386 (Cortex-M4, 25 MHz): UART0, the FPGAIO
 * free-running counter as a 64-bit clock, SysTick, the CMSDK dual timer, and
 * semihosting exit. Register facts from the AN385/AN386 application notes and
 * QEMU's model of the board. */
#ifndef BOARD_H_
#define BOARD_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BOARD_CLOCK_HZ 25000000u
#define BOARD_NS_PER_COUNT 40u /* FPGAIO counter: one count per 25 MHz cycle */

void board_uart_init(void);
/* Blocking write of raw bytes (0x00 included) to UART0; never drops. */
void board_uart_write(const uint8_t* data, size_t len);
/* UART0's receiver (off after board_uart_init()), polled: the bytes received
 * so far, at most max (the CMSDK UART holds one). */
void board_uart_rx_enable(void);
size_t board_uart_read(uint8_t* data, size_t max);
void board_uart_puts(const char* text);

/* The FPGAIO counter extended to 64 bits. Safe from any context; it sees
 * every 32-bit wrap (172 s) as long as it is read at least once per wrap. */
uint64_t board_clock(void);

void board_systick_start(uint32_t hz);
/* Dual timer 1, periodic, interrupt on (IRQ 10). QEMU's model of this timer
 * does not tick at the nominal rate under -icount; the trace shows the rate. */
void board_adc_timer_start(uint32_t hz);

/* Ends the QEMU run with this status (semihosting SYS_EXIT_EXTENDED). */
void board_exit(int status) __attribute__((noreturn));

static inline void board_wait_for_interrupt(void) { __asm volatile("wfi"); }

/* Handlers the application provides (the vector table points at them). */
void app_systick_handler(void);
void app_adc_timer_handler(void);
void app_fault_handler(void);

/* Optional: SVCall and PendSV, for an RTOS (unexpected interrupts unless
 * defined; FreeRTOS: #define vPortSVCHandler board_svcall_handler and
 * #define xPortPendSVHandler board_pendsv_handler in FreeRTOSConfig.h). */
void board_svcall_handler(void);
void board_pendsv_handler(void);

#ifdef __cplusplus
}
#endif

#endif /* BOARD_H_ */
