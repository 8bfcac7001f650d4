#include "board.h"

#define REG32(addr) (*(volatile uint32_t*)(addr))

/* CMSDK APB UART0 */
#define UART0_DATA REG32(0x40004000u)
#define UART0_STATE REG32(0x40004004u)
#define UART0_CTRL REG32(0x40004008u)
#define UART0_BAUDDIV REG32(0x40004010u)
#define UART_STATE_TX_FULL 1u
#define UART_STATE_RX_FULL 2u
#define UART_CTRL_TX_ENABLE 1u
#define UART_CTRL_RX_ENABLE 2u

/* FPGAIO free-running counter */
#define FPGAIO_COUNTER REG32(0x40028018u)

/* SysTick */
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)

/* CMSDK dual timer, timer 1 */
#define DUALTIMER1_LOAD REG32(0x40002000u)
#define DUALTIMER1_CONTROL REG32(0x40002008u)
#define DUALTIMER1_INTCLR REG32(0x4000200Cu)
#define DUALTIMER_ENABLE 0x80u
#define DUALTIMER_PERIODIC 0x40u
#define DUALTIMER_INT_ENABLE 0x20u
#define DUALTIMER_32BIT 0x02u
#define DUALTIMER_IRQ 10u

#define NVIC_ISER0 REG32(0xE000E100u)

void board_uart_init(void) {
  UART0_BAUDDIV = 16u; /* the smallest divider the UART accepts */
  UART0_CTRL = UART_CTRL_TX_ENABLE;
}

void board_uart_write(const uint8_t* data, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    while (UART0_STATE & UART_STATE_TX_FULL) {
    }
    UART0_DATA = data[i];
  }
}

void board_uart_rx_enable(void) { UART0_CTRL = UART_CTRL_TX_ENABLE | UART_CTRL_RX_ENABLE; }

size_t board_uart_read(uint8_t* data, size_t max) {
  size_t n = 0;
  while (n < max && (UART0_STATE & UART_STATE_RX_FULL)) {
    data[n++] = (uint8_t)UART0_DATA;
  }
  return n;
}

void board_uart_puts(const char* text) {
  while (*text != '\0') {
    board_uart_write((const uint8_t*)text++, 1);
  }
}

uint64_t board_clock(void) {
  /* High word and last low word of the extension; updated with interrupts
   * masked so that a reader interrupted mid-update cannot be wrong. */
  static uint32_t high;
  static uint32_t last_low;
  uint32_t primask;
  __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
  const uint32_t low = FPGAIO_COUNTER;
  if (low < last_low) {
    high++;
  }
  last_low = low;
  const uint64_t now = ((uint64_t)high << 32) | low;
  __asm volatile("msr primask, %0" : : "r"(primask) : "memory");
  return now;
}

void board_systick_start(uint32_t hz) {
  SYST_RVR = BOARD_CLOCK_HZ / hz - 1u;
  SYST_CVR = 0u;
  SYST_CSR = 7u; /* processor clock, interrupt, enable */
}

void board_adc_timer_start(uint32_t hz) {
  DUALTIMER1_LOAD = BOARD_CLOCK_HZ / hz;
  DUALTIMER1_CONTROL = DUALTIMER_ENABLE | DUALTIMER_PERIODIC | DUALTIMER_INT_ENABLE | DUALTIMER_32BIT;
  NVIC_ISER0 = 1u << DUALTIMER_IRQ;
}

/* Dual timer interrupt: acknowledged here, handled by the application. */
void board_dualtimer_irq(void);
void board_dualtimer_irq(void) {
  DUALTIMER1_INTCLR = 1u;
  app_adc_timer_handler();
}

void board_exit(int status) {
  /* SYS_EXIT_EXTENDED (0x20): r1 points at {reason, status}; reason
   * ADP_Stopped_ApplicationExit (0x20026). */
  static volatile uint32_t block[2];
  block[0] = 0x20026u;
  block[1] = (uint32_t)status;
  register uint32_t r0 __asm("r0") = 0x20u;
  register volatile uint32_t* r1 __asm("r1") = block;
  __asm volatile("bkpt 0xAB" : : "r"(r0), "r"(r1) : "memory");
  for (;;) {
  }
}
