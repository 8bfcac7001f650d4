/* tband port for FreeRTOS's POSIX port (FreeRTOS-Kernel
 * portable/ThirdParty/GCC/Posix): the kernel on Linux, each task a thread,
 * the tick a signal (SIGALRM). Tested against V10.6 and V11 kernels (ctest
 * freertos_real_*, see target/FREERTOS.md).
 *
 * Critical section: the POSIX port's "interrupts" are signals, so the
 * section blocks every signal on the calling thread and restores the mask it
 * found on the way out; it never unblocks a signal it did not block. (The
 * kernel's own taskENTER_CRITICAL()/taskEXIT_CRITICAL() must not be used in
 * a hook: V10's vTaskStartScheduler() calls traceTASK_SWITCHED_IN() with the
 * signals blocked but the port's nesting count at 0, and taskEXIT_CRITICAL()
 * would unblock them on the scheduler's thread.) The port's
 * portSET_INTERRUPT_MASK_FROM_ISR() masks nothing, hence the port's own
 * section. A spin lock inside it keeps two threads apart while the kernel
 * hands the CPU from one task's thread to the next.
 *
 * Timestamp: CLOCK_MONOTONIC, nanoseconds since the first one. Backends:
 * whatever the application installs with tband_posix_set_sink() receives the
 * streaming or external backend's frames (inside the critical section: the
 * sink must not call tband or the kernel). One core.
 *
 * What tband_start_streaming() needs from the sink: it takes each core's
 * metadata buffer in one call, or with tband_configBACKEND_STREAM_START_RETRIES
 * one frame per call, each dropped one handed over again up to that many
 * times; all or nothing (a sink that took part must not return true). The
 * calls come back to back on the starting thread, with its signals blocked
 * (no tick): a sink that drops because its buffer is full must be drained
 * by a thread the kernel does not run (a writer thread of the application),
 * or define tband_portBACKEND_STREAM_START_RETRY_WAIT() in tband_config.h
 * to wait a little (a bounded time) between the calls.
 *
 * Add target/ports/freertos_posix/tband_port_freertos_posix.c to the build.
 * This header needs no FreeRTOS header. */
#ifndef TBAND_PORT_FREERTOS_POSIX_H_
#define TBAND_PORT_FREERTOS_POSIX_H_

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- What the tracer calls (through the macros below) ---- */
uint64_t tband_posix_timestamp(void);
void tband_posix_enter_critical(sigset_t* saved);
void tband_posix_exit_critical(const sigset_t* saved);
bool tband_posix_stream_data(const uint8_t* buf, size_t len);
bool tband_posix_external_event(const uint8_t* buf, size_t len, bool is_metadata);

/* ---- What the application calls ---- */

/* Receives every frame the streaming or external backend emits; returns true
 * to report the frame as dropped. NULL (the default) discards the frames. */
typedef bool (*tband_posix_sink)(void* context, const uint8_t* buf, size_t len, bool is_metadata);
void tband_posix_set_sink(tband_posix_sink sink, void* context);

#ifdef __cplusplus
}
#endif

#define tband_portNUMBER_OF_CORES 1
#define tband_portTIMESTAMP() tband_posix_timestamp()
#define tband_portTIMESTAMP_RESOLUTION_NS 1
/* The two macros open and close one block; the saved mask lives in it. */
#define tband_portENTER_CRITICAL_FROM_ANY() \
  sigset_t tband_port_saved_signals;        \
  tband_posix_enter_critical(&tband_port_saved_signals)
#define tband_portEXIT_CRITICAL_FROM_ANY() tband_posix_exit_critical(&tband_port_saved_signals)
#define tband_portBACKEND_STREAM_DATA(buf, len) tband_posix_stream_data((buf), (len))
#define tband_portBACKEND_EXTERNAL_EVENT(buf, len, is_metadata) \
  tband_posix_external_event((buf), (len), (is_metadata))

#endif /* TBAND_PORT_FREERTOS_POSIX_H_ */
