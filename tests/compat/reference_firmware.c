/* A firmware written for the reference tracer (Tonbandgeraet), against its
 * documented API only and as its documentation says to use it: every public
 * function and macro (the base hooks, the function markers, the FreeRTOS
 * resource names and task-local markers, the backends' functions, the
 * external backend's tband_submit_to_backend()). Nothing here is tband's own.
 *
 * The same source is compiled against tband in four configurations
 * (configs/: streaming, snapshot, external, tracing off), each with the
 * stand-in FreeRTOS V10 kernel; reference_firmware_test.cpp runs it on the
 * host port and decodes what it traced. Where the reference's API is only
 * usable in one configuration (the backends' functions exist only with their
 * backend and with tracing on; with tracing off its state queries expand to
 * nothing), the firmware uses it only there, as a firmware for the reference
 * has to. */
#include <string.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "tband.h"

#include "reference_firmware.h"

#define MARKER_SENSOR 0
#define MARKER_DSP 1
#define MARKER_FN_READ 10
#define MARKER_FN_FILTER 11
#define VALMARKER_FIFO 2
#define ISR_SENSOR 5
#define TASK_MARKER_STEP 1
#define TASK_VALMARKER_ROUND 2

static QueueHandle_t samples;
static SemaphoreHandle_t data_ready;
static SemaphoreHandle_t slots;
static SemaphoreHandle_t bus;
static SemaphoreHandle_t config_lock;
static int32_t round_count;

static uint8_t trace_copy[8192];
static size_t trace_copy_len;
static uint8_t metadata_copy[2048];
static size_t metadata_copy_len;

/* The external backend, the reference's way: the firmware's own function
 * gets every event. This one keeps them in RAM. */
#if tband_configENABLE == 1 && tband_configUSE_BACKEND_EXTERNAL == 1
static size_t external_metadata_frames;

bool tband_submit_to_backend(uint8_t* buf, size_t len, bool is_metadata) {
  if (len > sizeof trace_copy - trace_copy_len) {
    return true; /* dropped */
  }
  memcpy(trace_copy + trace_copy_len, buf, len);
  trace_copy_len += len;
  if (is_metadata) {
    external_metadata_frames++;
  }
  return false;
}
#endif

/* A function marker without the semicolon (the reference's macro has its
 * own) and one with. */
static uint32_t read_sensor(void) {
  tband_fn(MARKER_FN_READ)
  return 42u;
}

static uint32_t filter(uint32_t sample) {
  tband_fn_begin(MARKER_FN_FILTER);
  uint32_t filtered = sample / 2u;
  tband_fn_end();
  return filtered;
}

static void sampler_task(void* arg) { (void)arg; }
static void logger_task(void* arg) { (void)arg; }

void fw_setup(void) {
  tband_gather_system_metadata();
  tband_isr_name(ISR_SENSOR, "sensor_irq");
  tband_evtmarker_name(MARKER_SENSOR, "sensor");
  tband_evtmarker_name(MARKER_DSP, "dsp");
  tband_valmarker_name(VALMARKER_FIFO, "fifo");

  samples = xQueueCreate(4, sizeof(uint32_t));
  data_ready = xSemaphoreCreateBinary();
  slots = xSemaphoreCreateCounting(3, 0);
  bus = xSemaphoreCreateMutex();
  config_lock = xSemaphoreCreateRecursiveMutex();
  tband_freertos_queue_name(samples, "samples");
  tband_freertos_binary_semaphore_name(data_ready, "data_ready");
  tband_freertos_counting_semaphore_name(slots, "slots");
  tband_freertos_mutex_name(bus, "bus");
  tband_freertos_recursive_mutex_name(config_lock, "config");

  (void)xTaskCreate(sampler_task, "sampler", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
  (void)xTaskCreate(logger_task, "logger", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
}

void fw_scheduler_started(void) { tband_freertos_scheduler_started(); }

int fw_start_trace(void) {
#if tband_configENABLE == 1 && tband_configUSE_BACKEND_STREAMING == 1
  return tband_start_streaming();
#elif tband_configENABLE == 1 && tband_configUSE_BACKEND_SNAPSHOT == 1
  return tband_trigger_snapshot();
#else
  return 0; /* external backend, or tracing off: nothing to start */
#endif
}

void fw_sensor_isr(void) {
  tband_isr_enter(ISR_SENSOR);
  tband_evtmarker(MARKER_SENSOR, "rdy");
  BaseType_t woken = pdFALSE;
  (void)xSemaphoreGiveFromISR(data_ready, &woken);
  tband_isr_exit(ISR_SENSOR);
}

void fw_sampler_step(void) {
  tband_freertos_task_evtmarker_name(TASK_MARKER_STEP, "step");
  tband_freertos_task_valmarker_name(TASK_VALMARKER_ROUND, "round");
  tband_freertos_task_evtmarker_begin(TASK_MARKER_STEP, "");
  (void)xSemaphoreTake(data_ready, 0);

  tband_evtmarker_begin(MARKER_SENSOR, "acq");
  uint32_t sample = read_sensor();
  tband_evtmarker_end(MARKER_SENSOR);

  tband_evtmarker_begin(MARKER_DSP, "");
  tband_evtmarker_begin(MARKER_DSP, "fft");
  sample = filter(sample);
  tband_evtmarker_end(MARKER_DSP);
  tband_evtmarker_end(MARKER_DSP);

  (void)xSemaphoreTake(bus, 0);
  (void)xQueueSend(samples, &sample, 0);
  (void)xSemaphoreGive(bus);
  tband_valmarker(VALMARKER_FIFO, (int64_t)uxQueueMessagesWaiting(samples));
  (void)xSemaphoreTakeRecursive(config_lock, 0);
  (void)xSemaphoreGiveRecursive(config_lock);
  (void)xSemaphoreGive(slots);

  round_count++;
  tband_freertos_task_valmarker(TASK_VALMARKER_ROUND, round_count);
  tband_freertos_task_evtmarker(TASK_MARKER_STEP, "done");
  tband_freertos_task_evtmarker_end(TASK_MARKER_STEP);
}

#if tband_configENABLE == 1
/* Copies a buffer the tracer exposes (volatile: other cores may write it). */
static size_t copy_out(uint8_t* to, size_t room, const volatile uint8_t* from, size_t len) {
  size_t n = len < room ? len : room;
  for (size_t i = 0; i < n; i++) {
    to[i] = from[i];
  }
  return n;
}
#endif

int fw_stop_trace(void) {
  int unexpected = 0;
#if tband_configENABLE == 1
  metadata_copy_len = copy_out(metadata_copy, sizeof metadata_copy, tband_get_metadata_buf(0),
                               tband_get_metadata_buf_amnt(0));
#if tband_configUSE_BACKEND_STREAMING == 1
  unexpected += !tband_tracing_enabled();
  unexpected += tband_start_streaming() != -1; /* already active */
  unexpected += tband_stop_streaming() != 0;
  unexpected += tband_stop_streaming() != -1; /* not active */
  unexpected += tband_restart_streaming() != 0;
  unexpected += tband_stop_streaming() != 0;
  unexpected += tband_tracing_enabled();
  unexpected += !tband_tracing_finished();
  unexpected += !tband_tracing_backend_finished(0);
#elif tband_configUSE_BACKEND_SNAPSHOT == 1
  unexpected += !tband_tracing_enabled();
  unexpected += tband_trigger_snapshot() != -1; /* already active */
  unexpected += tband_stop_snapshot() != 0;
  unexpected += tband_stop_snapshot() != -1; /* not active */
  unexpected += tband_tracing_enabled();
  unexpected += !tband_tracing_finished();
  unexpected += !tband_tracing_backend_finished(0);
  trace_copy_len = copy_out(trace_copy, sizeof trace_copy, tband_get_core_snapshot_buf(0),
                            tband_get_core_snapshot_buf_amnt(0));
  unexpected += tband_reset_snapshot() != 0;
  unexpected += tband_get_core_snapshot_buf_amnt(0) != 0;
#elif tband_configUSE_BACKEND_EXTERNAL == 1
  /* The reference documents that these do not follow the external backend;
   * they are called, their values not relied on. */
  (void)tband_tracing_enabled();
  (void)tband_tracing_finished();
  (void)tband_tracing_backend_finished(0);
#endif
#else
  /* Tracing off: the reference's state queries expand to nothing, so they
   * can only stand as statements. */
  tband_tracing_enabled();
  tband_tracing_finished();
  tband_tracing_backend_finished(0);
#endif
  return unexpected;
}

const uint8_t* fw_trace(size_t* len) {
  *len = trace_copy_len;
  return trace_copy;
}

const uint8_t* fw_metadata(size_t* len) {
  *len = metadata_copy_len;
  return metadata_copy;
}

size_t fw_metadata_frames(void) {
#if tband_configENABLE == 1 && tband_configUSE_BACKEND_EXTERNAL == 1
  return external_metadata_frames;
#else
  return 0;
#endif
}
