/* The example's application: a two-axis stepper-motor controller that runs a
 * fixed plan of four moves. The same code runs on the host and on QEMU's
 * mps2-an386; only main() and the tracer's configuration differ.
 *
 *   motor_app_name_everything()  before tracing starts: names go into the
 *                                tracer's metadata buffer;
 *   motor_app_start()            once tracing runs;
 *   motor_app_tick()             from the 1 kHz tick interrupt: steps the
 *                                motor that is moving;
 *   motor_app_step()             from the main loop: plans the next move once
 *                                the last one ended; false when the plan is done. */
#ifndef MOTOR_APP_H_
#define MOTOR_APP_H_

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

void motor_app_name_everything(void);
void motor_app_start(void);
void motor_app_tick(void);
bool motor_app_step(void);

#ifdef __cplusplus
}
#endif

#endif /* MOTOR_APP_H_ */
