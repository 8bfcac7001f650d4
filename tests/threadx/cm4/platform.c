/* The ThreadX trace scenario (../scenario.c) on QEMU's mps2-an386 with
   ThreadX's Cortex-M4 port: tband's board support (startup, vector table,
   UART, exit) around the kernel, the tick and a second interrupt traced as
   ISRs, and the trace buffer and facts written to host files through
   semihosting (QEMU's working directory): threadx_cm4.trx, threadx_cm4.facts.

   ISR 0 is SysTick, the kernel's tick. Every NESTED_EVERY-th tick, its
   handler pends IRQ 10 (the dual timer's line, the timer itself never
   started), which has a higher priority and so runs at once inside it: ISR 1,
   nested in ISR 0. ISR 1 gives nested_sem, which the "nested" fact counts. */
#include <stdint.h>

#include "board.h"
#include "tx_api.h"

#define REG32(addr) (*(volatile uint32_t*)(addr))
#define NVIC_ISER0 REG32(0xE000E100u)
#define NVIC_ISPR0 REG32(0xE000E200u)
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t*)(0xE000E400u + (irq)))
#define NESTING_IRQ 10u
#define NESTED_EVERY 4u

void scenario_save(const void* buffer, unsigned long size);
void scenario_fact(const char* name, unsigned long value);
void scenario_end(void);
void scenario_fail(void);
void _tx_timer_interrupt(void);
int main(void);

static volatile uint32_t ticks, nested;

/* ThreadX's port switches threads in its PendSV handler. */
void board_pendsv_handler(void) __attribute__((naked));
void board_pendsv_handler(void) { __asm volatile("b __tx_PendSVHandler"); }

void app_systick_handler(void) {
  tx_trace_isr_enter_insert(0);
  if (++ticks % NESTED_EVERY == 0) {
    NVIC_ISPR0 = 1u << NESTING_IRQ;
    __asm volatile("dsb\n\tisb" ::: "memory");
  }
  _tx_timer_interrupt();
  tx_trace_isr_exit_insert(0);
}

void app_adc_timer_handler(void) {
  tx_trace_isr_enter_insert(1);
  ++nested;
  tx_trace_isr_exit_insert(1);
}

void app_fault_handler(void) {
  board_uart_puts("FAULT\n");
  board_exit(4);
}

/* ARM semihosting: operation in r0, its parameter block in r1, result in r0. */
static int32_t semihost(uint32_t op, const void* block) {
  register uint32_t r0 __asm("r0") = op;
  register const void* r1 __asm("r1") = block;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return (int32_t)r0;
}

enum { SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE = 0x05, MODE_WB = 5 };

static uint32_t length(const char* text) {
  uint32_t n = 0;
  while (text[n] != '\0') {
    ++n;
  }
  return n;
}

/* Writes size bytes to the host file `name` (created or emptied). */
static void host_file_write(const char* name, const void* data, uint32_t size) {
  const uint32_t open_block[3] = {(uint32_t)name, MODE_WB, length(name)};
  const int32_t handle = semihost(SYS_OPEN, open_block);
  if (handle < 0) {
    scenario_fail();
  }
  const uint32_t write_block[3] = {(uint32_t)handle, (uint32_t)data, size};
  if (semihost(SYS_WRITE, write_block) != 0) {
    scenario_fail();
  }
  const uint32_t close_block[1] = {(uint32_t)handle};
  semihost(SYS_CLOSE, close_block);
}

/* The fact lines, written out at the end. */
static char facts[512];
static uint32_t facts_used;

void scenario_save(const void* buffer, unsigned long size) { host_file_write("threadx_cm4.trx", buffer, size); }

void scenario_fact(const char* name, unsigned long value) {
  if (facts_used + 64 > sizeof facts) {
    scenario_fail();
  }
  char* line = facts + facts_used;
  uint32_t at = 0;
  for (const char* c = "fact "; *c != '\0'; ++c) {
    line[at++] = *c;
  }
  for (const char* c = name; *c != '\0' && at < 40; ++c) {
    line[at++] = *c;
  }
  line[at++] = ' ';
  char digits[12];
  uint32_t n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) {
    line[at++] = digits[--n];
  }
  line[at++] = '\n';
  facts_used += at;
}

void scenario_end(void) {
  scenario_fact("ticks", ticks);
  scenario_fact("nested", nested);
  host_file_write("threadx_cm4.facts", facts, facts_used);
  board_exit(0);
}

void scenario_fail(void) {
  board_uart_puts("scenario failed\n");
  board_exit(1);
}

int main(void) {
  board_uart_init();
  /* IRQ 10 above SysTick (0x40, set by tx_initialize_low_level). */
  NVIC_IPR_BYTE(NESTING_IRQ) = 0x00;
  NVIC_ISER0 = 1u << NESTING_IRQ;
  tx_kernel_enter();
  return 2;
}
