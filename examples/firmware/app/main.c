/* The demo firmware for QEMU's mps2-an386: the sensor workload with a 1 kHz
 * SysTick and an "ADC ready" timer interrupt, traced with the backend the
 * variant's tband_config.h chooses:
 *   streaming    events go out over UART0 as they happen;
 *   snapshot     events fill a RAM buffer; at the end the firmware sends the
 *                metadata buffer and the snapshot over UART0;
 *   post_mortem  events go round a RAM ring; at acquisition CRASH_AT_SEQUENCE
 *                the firmware crashes on purpose and prints "FAULT", and the
 *                host dumps the RAM and recovers the newest events;
 *   notrace      tracing compiled out (the size baseline);
 *   control      streaming with the control channel and run-time filters:
 *                the host's commands arrive on UART0's receiver, polled in
 *                the main loop (tband_rx_feed(), then tband_rx_poll() at that
 *                safe point); it runs until QEMU is stopped.
 * The run ends after RUN_MS ticks (simulated milliseconds) with a semihosting
 * exit, status 0. */
#include "board.h"
#include "sensor_workload.h"
#include "tband.h"

#define RUN_MS 500u
#define TICK_HZ 1000u
#define ADC_HZ 2000u /* nominal: QEMU's timer model runs slower under -icount */
#define CRASH_AT_SEQUENCE 60u

static struct sensor_workload g_workload;

void app_systick_handler(void) { workload_tick_isr(&g_workload); }
void app_adc_timer_handler(void) { workload_adc_isr(&g_workload); }

void app_fault_handler(void) {
  board_uart_puts("FAULT\n");
  for (;;) {
  }
}

#if tband_configENABLE && tband_configUSE_BACKEND_POST_MORTEM
static void crash(void) { __asm volatile("udf #0"); }
#endif

#if tband_configENABLE && tband_configUSE_BACKEND_SNAPSHOT
static void send_buffer(const volatile uint8_t* buf, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    const uint8_t byte = buf[i];
    board_uart_write(&byte, 1);
  }
}

static void send_snapshot(void) {
  while (!tband_tracing_finished()) {
  }
  /* The metadata buffer, then the events: together one complete stream. */
  send_buffer(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  send_buffer(tband_get_core_snapshot_buf(0), tband_get_core_snapshot_buf_amnt(0));
}
#endif

#if tband_configENABLE && tband_configUSE_CONTROL
static void poll_commands(void) {
  uint8_t bytes[16];
  size_t n;
  while ((n = board_uart_read(bytes, sizeof bytes)) > 0) {
    tband_rx_feed(bytes, n);
  }
  (void)tband_rx_poll();
}
#define RUNNING(workload) 1
#else
static void poll_commands(void) {}
#define RUNNING(workload) ((workload).ticks < RUN_MS)
#endif

int main(void) {
  board_uart_init();
#if tband_configENABLE && tband_configUSE_CONTROL
  board_uart_rx_enable();
#endif
  workload_name_everything();
#if tband_configENABLE && tband_configUSE_BACKEND_STREAMING
  if (tband_start_streaming() != 0) {
    return 1;
  }
#elif tband_configENABLE && tband_configUSE_BACKEND_SNAPSHOT
  (void)tband_trigger_snapshot();
#elif tband_configENABLE && tband_configUSE_BACKEND_POST_MORTEM
  (void)tband_start_post_mortem();
#endif

  board_systick_start(TICK_HZ);
  board_adc_timer_start(ADC_HZ);
  while (RUNNING(g_workload)) {
    poll_commands();
#if tband_configENABLE && tband_configUSE_BACKEND_POST_MORTEM
    if (g_workload.sequence == CRASH_AT_SEQUENCE) {
      crash();
    }
#endif
    if (!workload_main_step(&g_workload)) {
      board_wait_for_interrupt();
    }
  }
  /* The last tick may have made one more acquisition due: finish it. */
  while (workload_main_step(&g_workload)) {
  }

#if tband_configENABLE && tband_configUSE_BACKEND_STREAMING
  (void)tband_stop_streaming();
#elif tband_configENABLE && tband_configUSE_BACKEND_SNAPSHOT
  (void)tband_stop_snapshot();
  send_snapshot();
#endif
  return 0;
}
