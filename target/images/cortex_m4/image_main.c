/* A minimal Cortex-M4 image for the size and stack figures in
 * target/RESULTS.md (C11). It starts the backend, calls every tracing hook
 * once (with the FreeRTOS module, its hooks too, as the kernel would; image
 * (d) also those of task notifications and event groups) and
 * stops the backend; with TBAND_IMAGE_FULL_API it also calls every
 * other API function of its configuration once. TBAND_IMAGE_NO_CALLS builds
 * the same image without any call, to show that a disabled tracer adds no
 * code. The images are built and measured, not run. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tband.h"
#if tband_configENABLE == 1
#include "tband_port.h"
#endif

#define UART0_DATA (*(volatile uint32_t*)0x40004000u) /* CMSDK UART0 on mps2-an386 */

volatile uint32_t image_sink;

/* The streaming backend's port hook: writes the frame to the UART. */
bool image_uart_write(const uint8_t* buf, size_t len);
bool image_uart_write(const uint8_t* buf, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    UART0_DATA = buf[i];
  }
  return false;
}

/* The snapshot backend's full-callback. */
void image_snapshot_full(void);
void image_snapshot_full(void) { image_sink = 1; }

int main(void);
int main(void) {
#ifndef TBAND_IMAGE_NO_CALLS
#if tband_configENABLE == 1
  tband_cm4_init_cycle_counter();
#endif
#if tband_configUSE_BACKEND_SNAPSHOT == 1
  (void)tband_trigger_snapshot();
#else
  (void)tband_start_streaming();
#endif
  tband_gather_system_metadata();
  tband_isr_name(1, "tick");
  tband_evtmarker_name(2, "work");
  tband_valmarker_name(3, "level");
  tband_isr_enter(1);
  tband_evtmarker(2, "go");
  tband_evtmarker_begin(2, "acq");
  tband_valmarker(3, -5);
  tband_evtmarker_end(2);
  tband_isr_exit(1);
#if tband_configENABLE == 1 && tband_configFREERTOS_TRACE_ENABLE == 1
  const uint32_t task = tband_freertos_hook_task_created(2);
  tband_freertos_hook_task_name(task, "worker");
  const uint32_t queue = tband_freertos_hook_queue_created(TBAND_FRQK_QUEUE);
  tband_freertos_hook_queue_name(queue, "jobs");
  tband_freertos_hook_idle_task(task, 0);
  tband_freertos_hook_timer_task(task);
  (void)tband_freertos_hook_task_switched_in(task);
  tband_freertos_hook_task_to_rdy_state(task);
  tband_freertos_hook_task_resumed(task);
  tband_freertos_hook_task_resumed_from_isr(task);
  tband_freertos_hook_task_suspended(task);
  tband_freertos_hook_task_deleted(task);
  tband_freertos_hook_curtask_delay(10);
  tband_freertos_hook_curtask_delay_until(100);
  tband_freertos_hook_task_priority_set(task, 3);
  tband_freertos_hook_task_priority_inherit(task, 4);
  tband_freertos_hook_task_priority_disinherit(task, 3);
  tband_freertos_hook_block_on_queue_send(queue, 5);
  tband_freertos_hook_block_on_queue_receive(queue, 5);
  tband_freertos_hook_block_on_queue_peek(queue, 5);
  tband_freertos_hook_queue_send(queue, 0, 4);
  tband_freertos_hook_queue_send_from_isr(queue, 1, 4);
  tband_freertos_hook_queue_receive(queue, 2);
  tband_freertos_hook_queue_receive_from_isr(queue, 1);
  tband_freertos_hook_queue_reset(queue);
  tband_freertos_hook_queue_cur_length(queue, 0);
  tband_freertos_hook_queue_kind(queue, TBAND_FRQK_QUEUE_SET);
  tband_freertos_task_evtmarker_name(5, "step");
  tband_freertos_task_evtmarker(5, "go");
  tband_freertos_task_evtmarker_begin(5, "acq");
  tband_freertos_task_evtmarker_end(5);
  tband_freertos_task_valmarker_name(6, "depth");
  tband_freertos_task_valmarker(6, -2);
#endif
#if tband_configENABLE == 1 && defined(TBAND_IMAGE_FREERTOS_OBJECTS)
  /* Image (d): task notifications and event groups. */
  tband_freertos_hook_task_notify(task, 0, 2, 1);
  tband_freertos_hook_task_notify_from_isr(task, 0, 1, 5);
  tband_freertos_hook_block_on_notify_take(0, 50);
  tband_freertos_hook_block_on_notify_wait(0, 50);
  tband_freertos_hook_notify_take(0, 1, true);
  tband_freertos_hook_notify_wait(0, 5, true, 0xFFFFFFFFu);
  const uint32_t group = tband_freertos_hook_event_group_created();
  tband_freertos_hook_event_group_name(group, "flags");
  tband_freertos_hook_event_group_set_bits(group, 0x01, 0);
  tband_freertos_hook_event_group_clear_bits(group, 0x01, 0x01);
  tband_freertos_hook_event_group_set_bits_from_isr(group, 0x04);
  tband_freertos_hook_event_group_clear_bits_from_isr(group, 0x04);
  tband_freertos_hook_block_on_event_group_wait(group, 0x05, 100);
  tband_freertos_hook_block_on_event_group_sync(group, 0x30, 100);
  tband_freertos_hook_event_group_wait_end(group, 0x05, false);
  tband_freertos_hook_event_group_deleted(group);
  /* Image (d): stream and message buffers. */
  const uint32_t buffer = tband_freertos_hook_stream_buffer_id();
  tband_freertos_hook_stream_buffer_created(buffer, 1, 64);
  tband_freertos_hook_stream_buffer_create_failed(0);
  tband_freertos_hook_stream_buffer_name(buffer, "uart rx");
  tband_freertos_hook_stream_buffer_send(buffer, 16, 20);
  tband_freertos_hook_stream_buffer_send_from_isr(buffer, 16, 40);
  tband_freertos_hook_stream_buffer_send_failed(buffer);
  tband_freertos_hook_stream_buffer_receive(buffer, 16, 24);
  tband_freertos_hook_stream_buffer_receive_from_isr(buffer, 16, 4);
  tband_freertos_hook_stream_buffer_receive_failed(buffer);
  tband_freertos_hook_block_on_stream_buffer_send(buffer, 100);
  tband_freertos_hook_block_on_stream_buffer_receive(buffer, 100);
  tband_freertos_hook_stream_buffer_reset(buffer);
  tband_freertos_hook_stream_buffer_deleted(buffer);
  /* Image (d): software timers. */
  const uint32_t timer = tband_freertos_hook_timer_id();
  tband_freertos_hook_timer_created(timer, 100, true);
  tband_freertos_hook_timer_name(timer, "blink");
  tband_freertos_hook_timer_create_failed();
  tband_freertos_hook_timer_command_send(timer, 1, 0, true);
  tband_freertos_hook_timer_command_received(timer, 1, 0);
  tband_freertos_hook_timer_expired(timer);
  /* Image (d): queue sets (queue 2 a set, queue 1 its member). */
  tband_freertos_hook_queue_set_add(2, 1);
  tband_freertos_hook_queue_set_send(2, 1, 0);
  tband_freertos_hook_queue_set_select(2, 1);
  tband_freertos_hook_queue_set_select_from_isr(2, 0);
  tband_freertos_hook_queue_set_remove(2, 1);
#endif
#if tband_configUSE_BACKEND_SNAPSHOT == 1
  (void)tband_stop_snapshot();
#else
  (void)tband_stop_streaming();
#endif
#ifdef TBAND_IMAGE_FULL_API
#if tband_configUSE_BACKEND_SNAPSHOT == 1
  image_sink += (uint32_t)tband_get_core_snapshot_buf_amnt(0);
  image_sink += (uint32_t)(uintptr_t)tband_get_core_snapshot_buf(0);
  image_sink += (uint32_t)tband_reset_snapshot();
#else
  image_sink += (uint32_t)tband_restart_streaming();
  image_sink += (uint32_t)tband_flush_streaming();
#endif
  image_sink += tband_tracing_enabled();
  image_sink += tband_tracing_finished();
  image_sink += tband_tracing_backend_finished(0);
  image_sink += tband_get_dropped_evt_cnt();
  image_sink += (uint32_t)tband_get_metadata_buf_amnt(0);
  image_sink += (uint32_t)(uintptr_t)tband_get_metadata_buf(0);
#endif
#endif
  for (;;) {
  }
}
