/* tband firmware tracer: the one header firmware includes.
 *
 * C11 and C++17. Pulls in the user's tband_config.h (required, may be empty)
 * and the defaults of every option it leaves out. The port (tband_port.h) is
 * read only by the tracer's own sources, so that FreeRTOSConfig.h can include
 * this header without an include cycle through the RTOS headers a port needs.
 *
 * With tband_configENABLE 0 (the default) every function below becomes a
 * macro that expands to nothing (or to a constant), and no tracer code or data
 * is linked. See target/README.md for configuration, porting and backends.
 *
 * Safe to include from assembly (a FreeRTOS port's .S file includes
 * FreeRTOSConfig.h, which includes this header): the assembler sees nothing. */
#ifndef __ASSEMBLER__

#ifndef TBAND_H_
#define TBAND_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tband_config.h"
#include "tband/config_defaults.h"

#if !(tband_configENABLE == 0 || tband_configENABLE == 1)
#error "tband: tband_configENABLE must be 0 or 1"
#endif
#if tband_configENABLE == 1
#include "tband/config_checks.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if tband_configENABLE == 1

/* ---- Tracing state -----------------------------------------------------------
 * enabled: the backend accepts events now. finished: tracing is off and no core
 * is still writing an event (safe to read the buffers). */
bool tband_tracing_enabled(void);
bool tband_tracing_finished(void);
bool tband_tracing_backend_finished(unsigned int core_id);

/* Number of events dropped since boot, on all cores (the dropped_evt_cnt value). */
uint32_t tband_get_dropped_evt_cnt(void);

/* ---- System metadata: emits ts_resolution_ns (tband_portTIMESTAMP_RESOLUTION_NS). */
void tband_gather_system_metadata(void);

/* ---- Metadata buffer (names and kinds, kept per core whether tracing runs or not) */
#if tband_configUSE_METADATA_BUF == 1
const volatile uint8_t* tband_get_metadata_buf(unsigned int core_id);
size_t tband_get_metadata_buf_amnt(unsigned int core_id);
#endif

/* ---- Streaming backend ------------------------------------------------------
 * start: 0 ok, -1 already active, -2 the metadata could not be sent (not started;
 * tband_configBACKEND_STREAM_START_RETRIES lets it resend what the hook dropped).
 * restart: as start, without resending the metadata. stop: 0 ok, -1 not active.
 * flush: with a staging buffer (tband_configBACKEND_STREAM_STAGING_BUF_SIZE),
 * hands the frames staged so far to the stream hook (stop does too): 0 ok, -1
 * the hook dropped them (counted); without one, 0. */
#if tband_configUSE_BACKEND_STREAMING == 1
int tband_start_streaming(void);
int tband_restart_streaming(void);
int tband_stop_streaming(void);
int tband_flush_streaming(void);
#endif

/* ---- Snapshot backend -------------------------------------------------------
 * trigger: 0 ok, -1 already active. stop: 0 ok, -1 not active. reset: 0 ok,
 * -1 while still tracing. The amount is 0 until that core's backend finished. */
#if tband_configUSE_BACKEND_SNAPSHOT == 1
int tband_trigger_snapshot(void);
int tband_stop_snapshot(void);
int tband_reset_snapshot(void);
const volatile uint8_t* tband_get_core_snapshot_buf(unsigned int core_id);
size_t tband_get_core_snapshot_buf_amnt(unsigned int core_id);
#endif

/* ---- Post-mortem backend ----------------------------------------------------
 * A ring per core that always holds the newest events, in one self-describing
 * block (see tband/post_mortem_layout.h) to place in a no-init RAM section.
 * start: writes the block's header, empties the rings, starts tracing (0 ok,
 * -1 already active). stop: 0 ok, -1 not active. */
#if tband_configUSE_BACKEND_POST_MORTEM == 1
int tband_start_post_mortem(void);
int tband_stop_post_mortem(void);
const volatile uint8_t* tband_get_post_mortem_buf(void);
size_t tband_get_post_mortem_buf_size(void);
#endif

/* ---- External backend --------------------------------------------------------
 * Without tband_portBACKEND_EXTERNAL_EVENT in tband_port.h, every frame goes to
 * this function, which the firmware defines (the reference tracer's way):
 * buf holds one framed event, is_metadata says whether it is metadata; return
 * true if it dropped the event. It runs inside the tracer's critical section,
 * on any core and from any context: it must not block or call tband. */
#if tband_configUSE_BACKEND_EXTERNAL == 1
bool tband_submit_to_backend(uint8_t* buf, size_t len, bool is_metadata);
#endif

/* ---- Run-time filters (tband_configUSE_FILTERS) ---------------------------------
 * A hook whose event the filter leaves out returns before it reads the
 * timestamp: the event is not traced and not counted as dropped. Every change
 * is traced (filter_ids, filter_object_off/on), and tband_gather_system_metadata()
 * sends the filter as it stands, so a reader knows what absence means.
 * Safe from any context and core. Metadata (names) is never filtered.
 * set_event: 0 ok, -1 an id the filter cannot leave out (its own events, the
 * tracer's reports). set_group: TBAND_FILTER_GROUP_* (tband_user_events.h),
 * 0 ok, -1 no such group. set_object: key TBAND_FILTER_KEY_*, object_id below
 * 2^24: 0 ok, -1 bad key or id, -2 the table (tband_configFILTER_MAX_OBJECTS)
 * is full. find_group: a group's index by name ("base", "key:isr_id", ...), -1
 * if none. */
#if tband_configUSE_FILTERS == 1
int tband_filter_set_event(uint8_t event_id, bool traced);
bool tband_filter_event_traced(uint8_t event_id);
int tband_filter_set_group(unsigned int group, bool traced);
int tband_filter_set_all(bool traced);
int tband_filter_set_object(uint8_t key, uint32_t object_id, bool traced);
bool tband_filter_object_traced(uint8_t key, uint32_t object_id);
int tband_filter_find_group(const char* name);
#endif
#define TBAND_FILTER_OBJECT(key, object_id) ((key) * 16777216u + (object_id))

/* ---- Control channel (tband_configUSE_CONTROL) --------------------------------
 * feed: hands bytes the host sent (COBS frames of command, arguments, CRC-16)
 * to the tracer; from an RX interrupt or a poll, bounded time, never acts on a
 * command. poll: carries out the commands received so far, each acknowledged
 * with a ctl_ack event; call it from the firmware's loop or a task, never from
 * an interrupt or inside a critical section. Returns how many it carried out.
 * feed must not run concurrently with itself, nor poll with itself. */
#if tband_configUSE_CONTROL == 1
struct tband_rx_counts {
  uint32_t accepted;  /* well-formed commands queued (known or not) */
  uint32_t bad_crc;   /* frames whose CRC-16 did not match */
  uint32_t malformed; /* frames shorter than 3 bytes or with broken COBS */
  uint32_t overflow;  /* frames longer than tband_configCONTROL_RX_BUF_SIZE */
  uint32_t busy;      /* commands that found the queue full */
};
void tband_rx_feed(const uint8_t* data, size_t len);
unsigned tband_rx_poll(void);
void tband_rx_get_counts(struct tband_rx_counts* counts);
#endif

/* ---- Interrupts (per core) --------------------------------------------------- */
#if tband_configISR_TRACE_ENABLE == 1
void tband_isr_name(uint32_t isr_id, const char* name);
void tband_isr_enter(uint32_t isr_id);
void tband_isr_exit(uint32_t isr_id);
#endif

/* ---- Event and value markers (global) ---------------------------------------- */
#if tband_configMARKER_TRACE_ENABLE == 1
void tband_evtmarker_name(uint32_t id, const char* name);
void tband_evtmarker(uint32_t id, const char* msg);
void tband_evtmarker_begin(uint32_t id, const char* msg);
void tband_evtmarker_end(uint32_t id);
void tband_valmarker_name(uint32_t id, const char* name);
void tband_valmarker(uint32_t id, int64_t val);
#endif

#else /* tband_configENABLE == 1 */

/* Compiled out: no code, arguments not evaluated. The state queries call
 * constant inline functions rather than being bare constants, so that they
 * may also stand alone as statements, as the reference tracer's (which expand
 * to nothing) do, without a -Wunused-value warning. */
static inline bool tband_off_false_(void) { return false; }
static inline bool tband_off_true_(void) { return true; }
#define tband_tracing_enabled() tband_off_false_()
#define tband_tracing_finished() tband_off_true_()
#define tband_tracing_backend_finished(core_id) tband_off_true_()
#define tband_get_dropped_evt_cnt() ((uint32_t)0)
#define tband_gather_system_metadata() ((void)0)
#define tband_get_metadata_buf(core_id) ((const volatile uint8_t*)0)
#define tband_get_metadata_buf_amnt(core_id) ((size_t)0)
#define tband_start_streaming() (0)
#define tband_restart_streaming() (0)
#define tband_stop_streaming() (0)
#define tband_flush_streaming() (0)
#define tband_trigger_snapshot() (0)
#define tband_stop_snapshot() (0)
#define tband_reset_snapshot() (0)
#define tband_get_core_snapshot_buf(core_id) ((const volatile uint8_t*)0)
#define tband_get_core_snapshot_buf_amnt(core_id) ((size_t)0)
#define tband_start_post_mortem() (0)
#define tband_stop_post_mortem() (0)
#define tband_get_post_mortem_buf() ((const volatile uint8_t*)0)
#define tband_get_post_mortem_buf_size() ((size_t)0)
#define tband_rx_feed(data, len) ((void)0)
#define tband_rx_poll() (0u)

#endif /* tband_configENABLE == 1 */

/* Filters compiled out: everything is traced. */
#if tband_configENABLE == 0 || tband_configUSE_FILTERS == 0
#define tband_filter_set_event(event_id, traced) (-1)
#define tband_filter_event_traced(event_id) (true)
#define tband_filter_set_group(group, traced) (-1)
#define tband_filter_set_all(traced) (-1)
#define tband_filter_set_object(key, object_id, traced) (-1)
#define tband_filter_object_traced(key, object_id) (true)
#define tband_filter_find_group(name) (-1)
#endif

/* Hooks switched off (tracer disabled, or tband_configISR_TRACE_ENABLE /
 * tband_configMARKER_TRACE_ENABLE 0) compile to nothing. */
#if tband_configENABLE == 0 || tband_configISR_TRACE_ENABLE == 0
#define tband_isr_name(isr_id, name) ((void)0)
#define tband_isr_enter(isr_id) ((void)0)
#define tband_isr_exit(isr_id) ((void)0)
#endif
#if tband_configENABLE == 0 || tband_configMARKER_TRACE_ENABLE == 0
#define tband_evtmarker_name(id, name) ((void)0)
#define tband_evtmarker(id, msg) ((void)0)
#define tband_evtmarker_begin(id, msg) ((void)0)
#define tband_evtmarker_end(id) ((void)0)
#define tband_valmarker_name(id, name) ((void)0)
#define tband_valmarker(id, val) ((void)0)
#endif

/* ---- Function markers (the reference tracer's tband_fn API) ------------------
 * An event marker named after the enclosing function (__func__), named the
 * first time the line runs: tband_fn(id) traces an instant, tband_fn_begin(id)
 * begins a span that tband_fn_end() ends, in the same block. Each declares two
 * statics in its block, so a block holds one tband_fn or tband_fn_begin, and
 * in C the id must be a constant. With markers off they expand to nothing (as
 * the reference's do, so the trailing semicolon is optional). Cores racing on
 * the first call may both send the name, which is harmless. */
#if tband_configENABLE == 1 && tband_configMARKER_TRACE_ENABLE == 1
#define TBAND_FN_MARKER_(id, trace_call)              \
  static const uint32_t tband_fn_marker_id_ = (id);   \
  static bool tband_fn_marker_named_ = false;         \
  if (!tband_fn_marker_named_) {                      \
    tband_fn_marker_named_ = true;                    \
    tband_evtmarker_name(tband_fn_marker_id_, __func__); \
  }                                                   \
  trace_call(tband_fn_marker_id_, "");
#define tband_fn(id) TBAND_FN_MARKER_(id, tband_evtmarker)
#define tband_fn_begin(id) TBAND_FN_MARKER_(id, tband_evtmarker_begin)
#define tband_fn_end() tband_evtmarker_end(tband_fn_marker_id_)
#else
#define tband_fn(id)
#define tband_fn_begin(id)
#define tband_fn_end() ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* TBAND_H_ */

/* The FreeRTOS module: the kernel's trace macros and task-local markers
 * (read after the guard: see the header). */
#include "tband/freertos.h"

#endif /* __ASSEMBLER__ */
