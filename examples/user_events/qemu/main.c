/* The motor controller on QEMU's mps2-an386 (Cortex-M4), with tband's board
 * support: SysTick at 1 kHz is the tick interrupt, the trace leaves over UART0
 * (QEMU's -serial file:trace.bin), and the run ends with a semihosting exit:
 * status 0 when the plan is done and nothing was dropped. */
#include <stdint.h>

#include "board.h"
#include "motor_app.h"
#include "tband.h"

#define TICK_HZ 1000u

void app_systick_handler(void) { motor_app_tick(); }
void app_adc_timer_handler(void) {}
void app_fault_handler(void) {
  board_uart_puts("FAULT\n");
  board_exit(4);
}

#if tband_configUSE_BACKEND_SNAPSHOT
static void send(const volatile uint8_t* buf, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    const uint8_t byte = buf[i];
    board_uart_write(&byte, 1);
  }
}
#endif

int main(void) {
  board_uart_init();
  motor_app_name_everything();
#if tband_configUSE_BACKEND_STREAMING
  if (tband_start_streaming() != 0) {
    return 1;
  }
#else
  if (tband_trigger_snapshot() != 0) {
    return 1;
  }
#endif
  motor_app_start();
  board_systick_start(TICK_HZ);
  while (motor_app_step()) {
    /* Polls instead of sleeping with wfi: with no other timer running, QEMU
     * 7.2 under -icount delivered SysTick to a sleeping core at half its rate
     * (a tick every 2 ms); polling keeps it at 1 ms. */
  }
#if tband_configUSE_BACKEND_STREAMING
  (void)tband_stop_streaming();
#else
  (void)tband_stop_snapshot();
  /* The metadata buffer, then the events: together one complete stream. */
  send(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  send(tband_get_core_snapshot_buf(0), tband_get_core_snapshot_buf_amnt(0));
#endif
  return tband_get_dropped_evt_cnt() == 0 ? 0 : 2;
}
