/* A FreeRTOS firmware on the real kernel's ARM_CM4F port (QEMU mps2-an386),
 * traced by tband over UART0, ending itself with a status that says whether
 * it did what it should (cm4f_check_test.cpp checks the trace):
 *
 *   control  (3): sleeps 5 ticks, then wants the mutex "bus" that worker
 *                 holds: worker inherits priority 3 until it gives it back;
 *   producer (2): starts the dual timer, sends ITEMS_FROM_TASK items to the
 *                 queue "samples", sleeping 2 ticks after each;
 *   worker   (1): takes "bus" first and keeps it until control wants it,
 *                 then receives every item; the last one ends the run;
 *   SysTick:      the kernel's tick, traced as an interrupt;
 *   dual timer:   sends ITEMS_FROM_ISR items with xQueueSendFromISR.
 *
 * What runs when follows from priorities and blocking only; -icount makes
 * the run the same every time, but the test checks outcomes, not times. */
#include <stdbool.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "board.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "tband.h"

#define ITEMS_FROM_TASK 6u
#define ITEMS_FROM_ISR 4u
#define ISR_TICK 1u
#define ISR_TIMER 2u
#define TIMER_HZ 500u

/* Exit statuses besides 0 (as the test reads them). */
#define EXIT_ASSERT 2
#define EXIT_NOT_INHERITED 4
#define EXIT_SETUP 5

void xPortSysTickHandler(void); /* the kernel's port.c */

static QueueHandle_t g_samples;
static SemaphoreHandle_t g_bus;
static volatile bool g_control_wants_bus;
static volatile uint32_t g_sent_from_isr;

void app_systick_handler(void) {
  tband_isr_enter(ISR_TICK);
  xPortSysTickHandler();
  tband_isr_exit(ISR_TICK);
}

void app_adc_timer_handler(void) {
  if (g_sent_from_isr == ITEMS_FROM_ISR) {
    return; /* done: later timer interrupts do nothing and are not traced */
  }
  tband_isr_enter(ISR_TIMER);
  BaseType_t woken = pdFALSE;
  const uint32_t item = 100u + g_sent_from_isr;
  if (xQueueSendFromISR(g_samples, &item, &woken) == pdPASS) {
    g_sent_from_isr = g_sent_from_isr + 1u;
  }
  tband_isr_exit(ISR_TIMER);
  portYIELD_FROM_ISR(woken);
}

void app_fault_handler(void) {
  board_uart_puts("\nFAULT\n");
  board_exit(3);
}

void firmware_assert_failed(const char* file, int line) {
  char digits[12];
  int n = 0;
  for (unsigned v = (unsigned)line; n == 0 || v != 0u; v /= 10u) {
    digits[n++] = (char)('0' + v % 10u);
  }
  board_uart_puts("\nconfigASSERT failed: ");
  board_uart_puts(file);
  board_uart_puts(":");
  while (n > 0) {
    board_uart_write((const uint8_t*)&digits[--n], 1);
  }
  board_uart_puts("\n");
  board_exit(EXIT_ASSERT);
}

static void finish(int status) {
  (void)tband_stop_streaming();
  board_exit(status);
}

static void control_task(void* arg) {
  (void)arg;
  vTaskDelay(5);
  g_control_wants_bus = true;
  (void)xSemaphoreTake(g_bus, portMAX_DELAY); /* blocks: worker holds it */
  (void)xSemaphoreGive(g_bus);
  vTaskDelete(NULL);
}

static void producer_task(void* arg) {
  (void)arg;
  board_adc_timer_start(TIMER_HZ);
  for (uint32_t i = 0; i < ITEMS_FROM_TASK; ++i) {
    (void)xQueueSend(g_samples, &i, portMAX_DELAY);
    vTaskDelay(2);
  }
  vTaskDelete(NULL);
}

static void worker_task(void* arg) {
  (void)arg;
  (void)xSemaphoreTake(g_bus, portMAX_DELAY);
  while (!g_control_wants_bus) {
    /* busy until control wakes, preempts, and blocks on the bus */
  }
  const bool inherited = uxTaskPriorityGet(NULL) == 3u;
  (void)xSemaphoreGive(g_bus); /* back to 1: control takes over */
  for (uint32_t received = 0; received < ITEMS_FROM_TASK + ITEMS_FROM_ISR; ++received) {
    uint32_t item;
    (void)xQueueReceive(g_samples, &item, portMAX_DELAY);
  }
  finish(inherited ? 0 : EXIT_NOT_INHERITED);
}

/* NVIC priority register of the dual timer's interrupt (IRQ 10). */
#define DUALTIMER_IRQ_PRIORITY (*(volatile uint8_t*)(0xE000E400u + 10u))
/* CPACR: full access to the FPU (coprocessors 10 and 11), which the
 * hard-float ABI of the ARM_CM4F port needs. */
#define CPACR (*(volatile uint32_t*)0xE000ED88u)

int main(void) {
  CPACR |= 0xFu << 20;
  __asm volatile("dsb\n\tisb" ::: "memory");
  board_uart_init();
  tband_gather_system_metadata();
  if (tband_start_streaming() != 0) {
    return EXIT_SETUP;
  }
  tband_isr_name(ISR_TICK, "SysTick");
  tband_isr_name(ISR_TIMER, "dual timer");
  /* The FromISR API is allowed at or below configMAX_SYSCALL_INTERRUPT_PRIORITY. */
  DUALTIMER_IRQ_PRIORITY = configKERNEL_INTERRUPT_PRIORITY;

  g_samples = xQueueCreate(16, sizeof(uint32_t));
  g_bus = xSemaphoreCreateMutex();
  if (g_samples == NULL || g_bus == NULL) {
    return EXIT_SETUP;
  }
  vQueueAddToRegistry(g_samples, "samples");
  vQueueAddToRegistry(g_bus, "bus");
  if (xTaskCreate(control_task, "control", configMINIMAL_STACK_SIZE, NULL, 3, NULL) != pdPASS ||
      xTaskCreate(producer_task, "producer", configMINIMAL_STACK_SIZE, NULL, 2, NULL) != pdPASS ||
      xTaskCreate(worker_task, "worker", configMINIMAL_STACK_SIZE, NULL, 1, NULL) != pdPASS) {
    return EXIT_SETUP;
  }
  vTaskStartScheduler();
  return EXIT_SETUP; /* not enough heap for the idle or timer task */
}
