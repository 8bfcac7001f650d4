#include "sensor_workload.h"

#include "tband.h"

void workload_name_everything(void) {
  tband_gather_system_metadata();
  tband_isr_name(WORKLOAD_ISR_TICK, "tick 1kHz");
  tband_isr_name(WORKLOAD_ISR_ADC, "adc ready");
  tband_evtmarker_name(WORKLOAD_MARKER_ACQUIRE, "acquire");
  tband_evtmarker_name(WORKLOAD_MARKER_FILTER, "filter");
  tband_evtmarker_name(WORKLOAD_MARKER_EVENTS, "events");
  tband_valmarker_name(WORKLOAD_VALUE_FIFO_LEVEL, "fifo level");
  tband_valmarker_name(WORKLOAD_VALUE_FILTERED, "filtered");
  tband_valmarker_name(WORKLOAD_VALUE_SEQUENCE, "sequence");
}

void workload_tick_isr(struct sensor_workload* w) {
  tband_isr_enter(WORKLOAD_ISR_TICK);
  w->ticks = w->ticks + 1;
  if (w->ticks % WORKLOAD_TICKS_PER_ACQUISITION == 0) {
    w->acquisitions_due = w->acquisitions_due + 1;
  }
  tband_isr_exit(WORKLOAD_ISR_TICK);
}

static uint32_t fifo_level(const struct sensor_workload* w) { return w->fifo_head - w->fifo_tail; }

void workload_adc_isr(struct sensor_workload* w) {
  tband_isr_enter(WORKLOAD_ISR_ADC);
  /* A noisy triangle wave, as a sensor on a slowly moving part would give. */
  w->adc_state = w->adc_state * 1103515245u + 12345u;
  const uint32_t phase = w->ticks % 200u;
  const uint32_t triangle = phase < 100u ? phase * 40u : (200u - phase) * 40u;
  const uint16_t sample = (uint16_t)(triangle + ((w->adc_state >> 16) & 0xFFu));
  if (fifo_level(w) < WORKLOAD_FIFO_SIZE) {
    w->fifo[w->fifo_head % WORKLOAD_FIFO_SIZE] = sample;
    w->fifo_head = w->fifo_head + 1;
    tband_valmarker(WORKLOAD_VALUE_FIFO_LEVEL, (int64_t)fifo_level(w));
  } else {
    w->overruns++;
    tband_evtmarker(WORKLOAD_MARKER_EVENTS, "fifo overrun");
  }
  tband_isr_exit(WORKLOAD_ISR_ADC);
}

static void acquire(struct sensor_workload* w) {
  tband_evtmarker_begin(WORKLOAD_MARKER_ACQUIRE, "acq");
  int32_t sum = 0;
  uint32_t count = 0;
  while (fifo_level(w) > 0) {
    sum += w->fifo[w->fifo_tail % WORKLOAD_FIFO_SIZE];
    w->fifo_tail = w->fifo_tail + 1;
    count++;
  }
  tband_valmarker(WORKLOAD_VALUE_FIFO_LEVEL, (int64_t)fifo_level(w));
  if (count > 0) {
    tband_evtmarker_begin(WORKLOAD_MARKER_FILTER, "iir");
    const int32_t mean = sum / (int32_t)count;
    w->filtered += (mean - w->filtered) / 4; /* first-order low-pass */
    tband_evtmarker_end(WORKLOAD_MARKER_FILTER);
    tband_valmarker(WORKLOAD_VALUE_FILTERED, w->filtered);
  } else {
    tband_evtmarker(WORKLOAD_MARKER_EVENTS, "no samples");
  }
  w->sequence++;
  tband_valmarker(WORKLOAD_VALUE_SEQUENCE, (int64_t)w->sequence);
  tband_evtmarker_end(WORKLOAD_MARKER_ACQUIRE);
}

bool workload_main_step(struct sensor_workload* w) {
  if (w->acquisitions_due == w->acquisitions_done) {
    return false;
  }
  w->acquisitions_done++;
  acquire(w);
  return true;
}
