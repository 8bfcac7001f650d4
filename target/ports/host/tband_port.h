/* tband port for the host: threads act as cores.
 *
 * Used by the tests and the simulator, and an example of a multi-core port.
 * Each thread says which core it is (tband_host_set_core_id); the critical
 * section locks that core's mutex, as disabling the core's interrupts would on
 * a target. Timestamps come from one clock shared by all cores. Backend data
 * goes to a sink the program sets (by default it is discarded).
 *
 * Set TBAND_HOST_CORES in tband_config.h for more than one core (default 1).
 * Set TBAND_HOST_SUBMIT_TO_BACKEND to 1 there to leave
 * tband_portBACKEND_EXTERNAL_EVENT undefined: the external backend then calls
 * the program's tband_submit_to_backend() (the reference tracer's way). */
#ifndef TBAND_PORT_HOST_H_
#define TBAND_PORT_HOST_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- What the tracer calls (through the macros below) ---- */
uint64_t tband_host_timestamp(void);
void tband_host_enter_critical(void);
void tband_host_exit_critical(void);
unsigned tband_host_core_id(void);
bool tband_host_stream_data(const uint8_t* buf, size_t len);
bool tband_host_external_event(const uint8_t* buf, size_t len, bool is_metadata);
void tband_host_snapshot_full(void);
void tband_host_stream_retry_wait(void);

/* ---- What tests and the simulator call ---- */

/* The calling thread acts as this core from now on (threads start as core 0). */
void tband_host_set_core_id(unsigned core_id);

/* Clocks: REAL counts nanoseconds since the first timestamp; MANUAL returns
 * the value last given to tband_host_set_time; COUNTER returns 1, 2, 3, ...
 * across all cores (every timestamp distinct and increasing). */
enum tband_host_clock { TBAND_HOST_CLOCK_REAL = 0, TBAND_HOST_CLOCK_MANUAL = 1, TBAND_HOST_CLOCK_COUNTER = 2 };
void tband_host_set_clock(enum tband_host_clock clock);
void tband_host_set_time(uint64_t ts);

/* Receives every frame the streaming or external backend emits, on the core
 * that emitted it, inside its critical section (so it must not call tband).
 * Returns true to report the data as dropped (then it must have taken none of
 * it: streaming start may hand it over again). NULL restores the default
 * (discard, never drop). */
typedef bool (*tband_host_sink)(void* context, unsigned core_id, const uint8_t* buf, size_t len, bool is_metadata);
void tband_host_set_sink(tband_host_sink sink, void* context);

/* How often the snapshot-full callback ran since the last reset. */
unsigned tband_host_snapshot_full_calls(void);
void tband_host_reset_snapshot_full_calls(void);

/* How often streaming start waited before it handed the sink data the sink
 * had dropped again (tband_configBACKEND_STREAM_START_RETRIES) since the last
 * reset. The wait itself returns at once: the sink decides what it drops. */
unsigned tband_host_stream_retry_waits(void);
void tband_host_reset_stream_retry_waits(void);

#ifdef __cplusplus
}
#endif

#ifndef TBAND_HOST_CORES
#define TBAND_HOST_CORES 1
#endif
#define TBAND_HOST_MAX_CORES 16

#define tband_portNUMBER_OF_CORES TBAND_HOST_CORES
#define tband_portGET_CORE_ID() tband_host_core_id()
#define tband_portTIMESTAMP() tband_host_timestamp()
#define tband_portTIMESTAMP_RESOLUTION_NS 1
#define tband_portENTER_CRITICAL_FROM_ANY() tband_host_enter_critical()
#define tband_portEXIT_CRITICAL_FROM_ANY() tband_host_exit_critical()
#define tband_portBACKEND_STREAM_DATA(buf, len) tband_host_stream_data((buf), (len))
#define tband_portBACKEND_STREAM_START_RETRY_WAIT() tband_host_stream_retry_wait()
#if !defined(TBAND_HOST_SUBMIT_TO_BACKEND) || TBAND_HOST_SUBMIT_TO_BACKEND == 0
#define tband_portBACKEND_EXTERNAL_EVENT(buf, len, is_metadata) tband_host_external_event((buf), (len), (is_metadata))
#endif
#define tband_portBACKEND_SNAPSHOT_BUF_FULL_CALLBACK() tband_host_snapshot_full()

#endif /* TBAND_PORT_HOST_H_ */
