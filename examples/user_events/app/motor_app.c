/* The motor controller: its own events (tband_motor_*, generated from
 * schema/motor.yaml) next to tband's built-in ones (an interrupt, an event
 * marker span and a value marker). */
#include "motor_app.h"

#include <stdatomic.h>
#include <stdint.h>

#include "tband_user_events.h" /* the generated hooks; includes tband.h */

enum { TICK_ISR = 1, PLAN_MARKER = 1, MOVES_LEFT = 1 };
enum { MOTOR_X = 0, MOTOR_Y = 1, MOTOR_COUNT = 2 };
#define NO_STALL INT32_MAX
#define POSITION_EVERY_TICKS 10
#define JOULES_PER_STEP 0.0025

struct move {
  uint16_t motor;
  int32_t target;
  int32_t steps_per_tick;
  int32_t stall_at; /* the position where the motor sticks, or NO_STALL */
};

/* The plan. The last move stalls at 300 steps: an alert and a move that ends short. */
static const struct move k_plan[] = {
    {MOTOR_X, 400, 4, NO_STALL},
    {MOTOR_Y, -250, 5, NO_STALL},
    {MOTOR_X, 100, 6, NO_STALL},
    {MOTOR_Y, 600, 7, 300},
};
#define PLAN_LENGTH (sizeof k_plan / sizeof k_plan[0])

/* g_moving hands the move over: the main loop sets up the move and then sets
 * it (release); the tick interrupt steps only while it is set (acquire), and
 * clears it when the move ends. The rest belongs to whoever holds the move. */
static atomic_bool g_moving;
static unsigned g_next_move;
static const struct move* g_move;
static int32_t g_position[MOTOR_COUNT];
static int32_t g_start;
static uint32_t g_ticks_in_move;

void motor_app_name_everything(void) {
  tband_isr_name(TICK_ISR, "tick");
  tband_evtmarker_name(PLAN_MARKER, "plan");
  tband_valmarker_name(MOVES_LEFT, "moves left");
  tband_motor_name(MOTOR_X, "x-axis");
  tband_motor_name(MOTOR_Y, "y-axis");
  tband_gather_system_metadata(); /* the timestamp resolution (the tracer names the schema by itself) */
}

void motor_app_start(void) { tband_motor_alert(MOTOR_ALERT_COLD, -12, "cold start"); }

static int32_t distance(int32_t a, int32_t b) { return a > b ? a - b : b - a; }

static void finish_move(bool reached) {
  const struct move* m = g_move;
  const int32_t position = g_position[m->motor];
  tband_motor_position(m->motor, position);
  tband_motor_move_end(m->motor, reached, (int16_t)(position - m->target));
  tband_motor_energy(m->motor, (double)distance(position, g_start) * JOULES_PER_STEP);
  atomic_store_explicit(&g_moving, false, memory_order_release);
}

void motor_app_tick(void) {
  tband_isr_enter(TICK_ISR);
  if (atomic_load_explicit(&g_moving, memory_order_acquire)) {
    const struct move* m = g_move;
    int32_t* position = &g_position[m->motor];
    const int32_t left = distance(m->target, *position);
    const int32_t step = left < m->steps_per_tick ? left : m->steps_per_tick;
    *position += m->target > *position ? step : -step;
    ++g_ticks_in_move;
    const bool stalled = m->stall_at != NO_STALL && (m->target > g_start ? *position >= m->stall_at
                                                                           : *position <= m->stall_at);
    if (stalled) {
      *position = m->stall_at;
      tband_motor_alert(MOTOR_ALERT_STALL, 71, m->motor == MOTOR_X ? "x-axis stalled" : "y-axis stalled");
      finish_move(false);
    } else if (*position == m->target) {
      finish_move(true);
    } else if (g_ticks_in_move % POSITION_EVERY_TICKS == 0) {
      tband_motor_position(m->motor, *position);
    }
  }
  tband_isr_exit(TICK_ISR);
}

bool motor_app_step(void) {
  if (atomic_load_explicit(&g_moving, memory_order_acquire)) {
    return true;
  }
  if (g_next_move == PLAN_LENGTH) {
    return false;
  }
  tband_evtmarker_begin(PLAN_MARKER, "plan");
  const struct move* m = &k_plan[g_next_move];
  tband_valmarker(MOVES_LEFT, (uint32_t)(PLAN_LENGTH - g_next_move));
  tband_motor_move_begin(m->motor, m->target, (float)m->steps_per_tick * 1000.0f);
  g_move = m;
  g_start = g_position[m->motor];
  g_ticks_in_move = 0;
  ++g_next_move;
  atomic_store_explicit(&g_moving, true, memory_order_release); /* the tick interrupt steps from here on */
  tband_evtmarker_end(PLAN_MARKER);
  return true;
}
