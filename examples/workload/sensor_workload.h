/* The demo workload: a sensor-sampling loop, the same on the QEMU firmware
 * and in the host simulator.
 *
 * A 1 kHz tick interrupt schedules an acquisition every 4th tick; an ADC
 * interrupt pushes samples into a FIFO. The main loop drains the FIFO inside
 * nested event-marker spans ("acquire" > "filter"), and value markers show the
 * FIFO level, the filtered value and a sequence number. Every tband call of
 * the demo is in this file, so both platforms trace the same thing. */
#ifndef SENSOR_WORKLOAD_H_
#define SENSOR_WORKLOAD_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Interrupt ids (per core) and marker ids (global). */
enum {
  WORKLOAD_ISR_TICK = 1,
  WORKLOAD_ISR_ADC = 2,
  WORKLOAD_MARKER_ACQUIRE = 1,
  WORKLOAD_MARKER_FILTER = 2,
  WORKLOAD_MARKER_EVENTS = 3,
  WORKLOAD_VALUE_FIFO_LEVEL = 1,
  WORKLOAD_VALUE_FILTERED = 2,
  WORKLOAD_VALUE_SEQUENCE = 3,
  WORKLOAD_TICKS_PER_ACQUISITION = 4,
  WORKLOAD_FIFO_SIZE = 16,
};

/* One instance per core, used by that core's interrupt handlers and main loop
 * only. Every field has a single writer (handler or loop), so no field needs a
 * critical section: due/done and head/tail are single-producer counters. */
struct sensor_workload {
  volatile uint32_t ticks;
  volatile uint32_t acquisitions_due;  /* written by the tick interrupt */
  uint32_t acquisitions_done;          /* written by the main loop */
  volatile uint16_t fifo[WORKLOAD_FIFO_SIZE];
  volatile uint32_t fifo_head;
  volatile uint32_t fifo_tail;
  uint32_t adc_state;
  int32_t filtered;
  uint32_t sequence;
  uint32_t overruns;
};

/* Names the interrupts and markers (metadata; call once per core at boot). */
void workload_name_everything(void);

/* Bodies of the interrupt handlers, tband_isr_enter/exit included. */
void workload_tick_isr(struct sensor_workload* w);
void workload_adc_isr(struct sensor_workload* w);

/* One pass of the main loop: runs the acquisitions that are due. Returns
 * true if it did work (false: the caller may sleep until the next interrupt). */
bool workload_main_step(struct sensor_workload* w);

#ifdef __cplusplus
}
#endif

#endif /* SENSOR_WORKLOAD_H_ */
