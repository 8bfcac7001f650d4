/* An application's call of tband_freertos_scheduler_started(), compiled as
 * C and as C++ against each kernel (ctest freertos_scheduler_started_compiles.*). */
#include "FreeRTOS.h"
#include "task.h"
#include "timers.h"

void application_first_task(void* parameters);
void application_first_task(void* parameters) {
  (void)parameters;
  tband_freertos_scheduler_started();
}
