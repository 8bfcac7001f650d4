/* The firmware's entry points, for the test that drives it (the scheduler,
 * the interrupts and the clock are the test's; the firmware is
 * reference_firmware.c). */
#ifndef REFERENCE_FIRMWARE_H_
#define REFERENCE_FIRMWARE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Before the scheduler: names, kernel objects, the two tasks. */
void fw_setup(void);
/* Right after vTaskStartScheduler(), as the reference's documentation asks. */
void fw_scheduler_started(void);
/* Starts the trace (streaming: start; snapshot: trigger; external: nothing). */
int fw_start_trace(void);
/* The sensor's interrupt handler (the test puts the kernel in interrupt context around it). */
void fw_sensor_isr(void);
/* One round of the sampling task's work, run as the running task. */
void fw_sampler_step(void);
/* Stops the trace; returns the number of API results that were not as the
 * reference documents them for this configuration. */
int fw_stop_trace(void);

/* The trace the firmware holds itself (snapshot: its core buffer; external:
 * what its tband_submit_to_backend() kept), and its metadata buffer. */
const uint8_t* fw_trace(size_t* len);
const uint8_t* fw_metadata(size_t* len);
/* External backend: frames tband_submit_to_backend() got flagged as metadata. */
size_t fw_metadata_frames(void);

#ifdef __cplusplus
}
#endif

#endif /* REFERENCE_FIRMWARE_H_ */
