/* A firmware source calling every hook of the lab group: with the group
 * switched off it must compile to exactly what it compiles to without the
 * calls (check_group_switch.py builds it with and without WITHOUT_CALLS). */
#include "tband_user_events.h"

int lab_app_step(int n) {
#ifndef WITHOUT_CALLS
  tband_lab_channel_name((uint16_t)n, "x");
  tband_lab_integers((uint8_t)n, (uint16_t)n, (uint32_t)n, (int8_t)n, (int16_t)n, (int32_t)n, n != 0);
  tband_lab_wide((uint64_t)n, (int64_t)n, (float)n, (double)n);
  tband_lab_note(LAB_ON, FRQK_MUTEX, "note");
  tband_lab_optional((uint16_t)n, 1.0f, -1, true, LAB_OFF, 2.0, (uint32_t)n);
  tband_lab_tick();
  tband_lab_config((float)n, false);
  tband_lab_job_begin((uint16_t)n, LAB_ON);
  tband_lab_job_end((uint16_t)n, -n);
  tband_lab_speed((uint8_t)n, 1.5f);
  tband_lab_level((uint16_t)n, n);
  tband_lab_state((uint8_t)n, LAB_OFF, "why");
#endif
  return n + 1;
}
