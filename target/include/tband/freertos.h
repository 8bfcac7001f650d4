/* tband FreeRTOS module: the kernel's trace macros and the FreeRTOS API.
 *
 * Included by tband.h, which FreeRTOSConfig.h includes at its end: the
 * kernel's files (tasks.c, queue.c, timers.c) then see the trace* macros
 * below instead of FreeRTOS.h's empty defaults. Each macro passes what the
 * kernel has in scope where it calls the macro (a TCB, a queue, a local such
 * as xTicksToWait) to a function of the tracer (src/freertos_hooks.cpp); the
 * tracer itself needs no FreeRTOS header.
 *
 * Task and queue ids are small integers the tracer hands out (1, 2, 3, ...)
 * and keeps in the kernel objects: a task's uxTaskNumber and a queue's
 * uxQueueNumber, the kernel's fields for tracers (configUSE_TRACE_FACILITY 1).
 *
 * Kernels: FreeRTOS V10.x and V11.x, single core and (V11) SMP; what differs
 * is said where it matters below and in target/README.md. Switches:
 * tband_configFREERTOS_TRACE_ENABLE (the module), and within it
 * tband_configFREERTOS_TASK_TRACE_ENABLE (scheduling: switches, states,
 * priorities, blocking), tband_configFREERTOS_QUEUE_TRACE_ENABLE (queue
 * traffic), tband_configFREERTOS_NOTIFY_TRACE_ENABLE,
 * tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE,
 * tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE,
 * tband_configFREERTOS_TIMER_TRACE_ENABLE (those objects) and
 * tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE (queue set membership and
 * selection; with queue tracing only, as a set is a queue). Task and
 * queue ids and names are kept whatever the task and queue switches say.
 * Switched off, no trace* macro is defined (the kernel keeps its empty ones)
 * and the API macros expand to nothing and evaluate no argument. */
#ifndef TBAND_FREERTOS_H_
#define TBAND_FREERTOS_H_

#define TBAND_FREERTOS_ON (tband_configENABLE == 1 && tband_configFREERTOS_TRACE_ENABLE == 1)
#define TBAND_FREERTOS_TASKS_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_TASK_TRACE_ENABLE == 1)
#define TBAND_FREERTOS_QUEUES_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_QUEUE_TRACE_ENABLE == 1)
/* Task notifications, event groups, stream buffers and timers, each with its own switch. */
#define TBAND_FREERTOS_NOTIFY_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_NOTIFY_TRACE_ENABLE == 1)
#define TBAND_FREERTOS_EVENT_GROUPS_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_EVENT_GROUP_TRACE_ENABLE == 1)
#define TBAND_FREERTOS_STREAM_BUFFERS_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_STREAM_BUFFER_TRACE_ENABLE == 1)
#define TBAND_FREERTOS_TIMERS_ON (TBAND_FREERTOS_ON && tband_configFREERTOS_TIMER_TRACE_ENABLE == 1)
/* A queue set's fill is queue traffic: its members and selections need it. */
#define TBAND_FREERTOS_QUEUE_SETS_ON (TBAND_FREERTOS_QUEUES_ON && tband_configFREERTOS_QUEUE_SET_TRACE_ENABLE == 1)
/* Task-local markers belong to the task running on the core; the tracer
 * knows it from the task switches, so they need task tracing. */
#define TBAND_FREERTOS_MARKERS_ON (TBAND_FREERTOS_TASKS_ON && tband_configMARKER_TRACE_ENABLE == 1)

/* The schema's FrQueueKind values (checked against the generated encoder). */
#define TBAND_FRQK_QUEUE 0u
#define TBAND_FRQK_COUNTING_SEMPHR 1u
#define TBAND_FRQK_BINARY_SEMPHR 2u
#define TBAND_FRQK_MUTEX 3u
#define TBAND_FRQK_RECURSIVE_MUTEX 4u
#define TBAND_FRQK_QUEUE_SET 5u
/* The schema's FrNotifyAction value of a give (eIncrement). */
#define TBAND_FRNA_INCREMENT 2u

#ifdef __cplusplus
extern "C" {
#endif

#if TBAND_FREERTOS_ON
/* ---- What the kernel hooks call (through the trace* macros; not for direct use) */
uint32_t tband_freertos_hook_task_created(uint32_t priority); /* returns the new task's id */
void tband_freertos_hook_task_name(uint32_t task_id, const char* name);
uint32_t tband_freertos_hook_queue_created(uint32_t kind); /* kind: TBAND_FRQK_*; returns the new queue's id */
void tband_freertos_hook_queue_name(uint32_t queue_id, const char* name);
void tband_freertos_hook_idle_task(uint32_t task_id, uint32_t core_id);
void tband_freertos_hook_timer_task(uint32_t task_id);
#endif

#if TBAND_FREERTOS_TASKS_ON
/* Returns true for the core's first switch since boot. */
bool tband_freertos_hook_task_switched_in(uint32_t task_id);
void tband_freertos_hook_task_to_rdy_state(uint32_t task_id);
void tband_freertos_hook_task_resumed(uint32_t task_id);
void tband_freertos_hook_task_resumed_from_isr(uint32_t task_id);
void tband_freertos_hook_task_suspended(uint32_t task_id);
void tband_freertos_hook_task_deleted(uint32_t task_id);
void tband_freertos_hook_curtask_delay(uint32_t ticks);
void tband_freertos_hook_curtask_delay_until(uint32_t time_to_wake);
void tband_freertos_hook_task_priority_set(uint32_t task_id, uint32_t priority);
void tband_freertos_hook_task_priority_inherit(uint32_t task_id, uint32_t priority);
void tband_freertos_hook_task_priority_disinherit(uint32_t task_id, uint32_t priority);
void tband_freertos_hook_block_on_queue_send(uint32_t queue_id, uint32_t ticks_to_wait);
void tband_freertos_hook_block_on_queue_receive(uint32_t queue_id, uint32_t ticks_to_wait);
void tband_freertos_hook_block_on_queue_peek(uint32_t queue_id, uint32_t ticks_to_wait);
#endif

#if TBAND_FREERTOS_QUEUES_ON
/* waiting: the items in the queue before the operation (the kernel calls the
 * hooks before it moves the item); length: the queue's capacity. */
void tband_freertos_hook_queue_send(uint32_t queue_id, uint32_t waiting, uint32_t length);
void tband_freertos_hook_queue_send_from_isr(uint32_t queue_id, uint32_t waiting, uint32_t length);
void tband_freertos_hook_queue_receive(uint32_t queue_id, uint32_t waiting);
void tband_freertos_hook_queue_receive_from_isr(uint32_t queue_id, uint32_t waiting);
void tband_freertos_hook_queue_reset(uint32_t queue_id);
void tband_freertos_hook_queue_cur_length(uint32_t queue_id, uint32_t length);
void tband_freertos_hook_queue_kind(uint32_t queue_id, uint32_t kind);
#endif

#if TBAND_FREERTOS_NOTIFY_ON
/* action: the kernel's eNotifyAction (the schema's FrNotifyAction values). */
void tband_freertos_hook_task_notify(uint32_t task_id, uint32_t index, uint32_t action, uint32_t value);
void tband_freertos_hook_task_notify_from_isr(uint32_t task_id, uint32_t index, uint32_t action, uint32_t value);
void tband_freertos_hook_block_on_notify_take(uint32_t index, uint32_t ticks_to_wait);
void tband_freertos_hook_block_on_notify_wait(uint32_t index, uint32_t ticks_to_wait);
/* value: the count before the take; clear: xClearCountOnExit. */
void tband_freertos_hook_notify_take(uint32_t index, uint32_t value, bool clear);
/* value: the value as the caller reads it; received: a notification is
 * pending; clear_on_exit: the bits cleared when one is. */
void tband_freertos_hook_notify_wait(uint32_t index, uint32_t value, bool received, uint32_t clear_on_exit);
#endif

#if TBAND_FREERTOS_EVENT_GROUPS_ON
uint32_t tband_freertos_hook_event_group_created(void); /* returns the new group's id */
void tband_freertos_hook_event_group_name(uint32_t group_id, const char* name);
void tband_freertos_hook_event_group_deleted(uint32_t group_id);
/* before: the group's bits before the operation (the kernel calls the hooks first). */
void tband_freertos_hook_event_group_set_bits(uint32_t group_id, uint32_t bits, uint32_t before);
void tband_freertos_hook_event_group_clear_bits(uint32_t group_id, uint32_t bits, uint32_t before);
void tband_freertos_hook_event_group_set_bits_from_isr(uint32_t group_id, uint32_t bits);
void tband_freertos_hook_event_group_clear_bits_from_isr(uint32_t group_id, uint32_t bits);
void tband_freertos_hook_block_on_event_group_wait(uint32_t group_id, uint32_t bits, uint32_t ticks_to_wait);
void tband_freertos_hook_block_on_event_group_sync(uint32_t group_id, uint32_t bits, uint32_t ticks_to_wait);
void tband_freertos_hook_event_group_wait_end(uint32_t group_id, uint32_t value, bool timed_out);
#endif

#if TBAND_FREERTOS_STREAM_BUFFERS_ON
/* A new buffer's id, then its event (two calls: a hook that kept the id
 * across the event would need a deeper stack). kind: the kernel's sbTYPE_*
 * (V11) or xIsMessageBuffer (V10), the schema's FrStreamBufferKind values;
 * size: the bytes it holds. fill: the bytes in the buffer after the operation. */
uint32_t tband_freertos_hook_stream_buffer_id(void);
void tband_freertos_hook_stream_buffer_created(uint32_t sb_id, uint32_t kind, uint32_t size);
void tband_freertos_hook_stream_buffer_create_failed(uint32_t kind);
void tband_freertos_hook_stream_buffer_name(uint32_t sb_id, const char* name);
void tband_freertos_hook_stream_buffer_deleted(uint32_t sb_id);
void tband_freertos_hook_stream_buffer_reset(uint32_t sb_id);
void tband_freertos_hook_stream_buffer_send(uint32_t sb_id, uint32_t bytes, uint32_t fill);
void tband_freertos_hook_stream_buffer_send_from_isr(uint32_t sb_id, uint32_t bytes, uint32_t fill);
void tband_freertos_hook_stream_buffer_send_failed(uint32_t sb_id);
void tband_freertos_hook_stream_buffer_receive(uint32_t sb_id, uint32_t bytes, uint32_t fill);
void tband_freertos_hook_stream_buffer_receive_from_isr(uint32_t sb_id, uint32_t bytes, uint32_t fill);
void tband_freertos_hook_stream_buffer_receive_failed(uint32_t sb_id);
void tband_freertos_hook_block_on_stream_buffer_send(uint32_t sb_id, uint32_t ticks_to_wait);
void tband_freertos_hook_block_on_stream_buffer_receive(uint32_t sb_id, uint32_t ticks_to_wait);
#endif

#if TBAND_FREERTOS_TIMERS_ON
/* A new timer's id, then its events (as for stream buffers). command: the
 * kernel's tmrCOMMAND_* (the schema's FrTimerCommand values); sent: the
 * command went into the timer queue. */
uint32_t tband_freertos_hook_timer_id(void);
void tband_freertos_hook_timer_created(uint32_t timer_id, uint32_t period, bool auto_reload);
void tband_freertos_hook_timer_name(uint32_t timer_id, const char* name);
void tband_freertos_hook_timer_create_failed(void);
void tband_freertos_hook_timer_command_send(uint32_t timer_id, uint32_t command, uint32_t value, bool sent);
void tband_freertos_hook_timer_command_received(uint32_t timer_id, uint32_t command, uint32_t value);
void tband_freertos_hook_timer_expired(uint32_t timer_id);
#endif

#if TBAND_FREERTOS_QUEUE_SETS_ON
/* waiting: the handles in the set before the send (the kernel calls the hook
 * before it copies the member's handle in). member_id 0: no member (a
 * selection that returned none). */
void tband_freertos_hook_queue_set_send(uint32_t set_id, uint32_t member_id, uint32_t waiting);
void tband_freertos_hook_queue_set_add(uint32_t set_id, uint32_t member_id);
void tband_freertos_hook_queue_set_remove(uint32_t set_id, uint32_t member_id);
void tband_freertos_hook_queue_set_select(uint32_t set_id, uint32_t member_id);
void tband_freertos_hook_queue_set_select_from_isr(uint32_t set_id, uint32_t member_id);
#endif

/* ---- Task-local markers: like the global markers, but each belongs to the
 * task running when it is used, and shows in that task's process. Name them
 * from the task that uses them. */
#if TBAND_FREERTOS_MARKERS_ON
void tband_freertos_task_evtmarker_name(uint32_t id, const char* name);
void tband_freertos_task_evtmarker(uint32_t id, const char* msg);
void tband_freertos_task_evtmarker_begin(uint32_t id, const char* msg);
void tband_freertos_task_evtmarker_end(uint32_t id);
void tband_freertos_task_valmarker_name(uint32_t id, const char* name);
void tband_freertos_task_valmarker(uint32_t id, int64_t val);
#else
#define tband_freertos_task_evtmarker_name(id, name) ((void)0)
#define tband_freertos_task_evtmarker(id, msg) ((void)0)
#define tband_freertos_task_evtmarker_begin(id, msg) ((void)0)
#define tband_freertos_task_evtmarker_end(id) ((void)0)
#define tband_freertos_task_valmarker_name(id, name) ((void)0)
#define tband_freertos_task_valmarker(id, val) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

/* ---- Called by the application (expanded where they are used: that file
 * includes FreeRTOS.h, task.h and, for queues, queue.h) ----
 *
 * tband_freertos_scheduler_started(): marks the idle and timer tasks. The
 * kernel's hooks do it by themselves (V11.2+: traceSTARTING_SCHEDULER;
 * V11.0/11.1: when the timer task is created, given configUSE_TIMERS 1; V10:
 * at the first switch, given task tracing), all needing
 * INCLUDE_xTaskGetIdleTaskHandle 1 but V11.2's. Otherwise call it once, from
 * the first task that runs (it needs INCLUDE_xTaskGetIdleTaskHandle 1).
 * Calling it when the kernel marked them does no harm: the marks are only
 * sent again.
 *
 * tband_freertos_queue_name(queue, name): names a queue, semaphore or mutex
 * without the queue registry (with it, vQueueAddToRegistry names it).
 *
 * tband_freertos_event_group_name(group, name): names an event group (the
 * kernel has no registry for them; needs event_groups.h).
 *
 * tband_freertos_stream_buffer_name(buffer, name),
 * tband_freertos_message_buffer_name(buffer, name): name a stream, message or
 * stream batching buffer (needs stream_buffer.h or message_buffer.h). */
#if TBAND_FREERTOS_ON
#define tband_freertos_scheduler_started() \
  do {                                     \
    TBAND_FREERTOS_MARK_IDLE_TASKS();      \
    TBAND_FREERTOS_MARK_TIMER_TASK();      \
  } while (0)
#define tband_freertos_queue_name(queue, name) \
  tband_freertos_hook_queue_name((uint32_t)uxQueueGetQueueNumber(queue), (name))
#else
#define tband_freertos_scheduler_started() ((void)0)
#define tband_freertos_queue_name(queue, name) ((void)0)
#endif
#if TBAND_FREERTOS_EVENT_GROUPS_ON
#define tband_freertos_event_group_name(group, name) \
  tband_freertos_hook_event_group_name((uint32_t)uxEventGroupGetNumber(group), (name))
#else
#define tband_freertos_event_group_name(group, name) ((void)0)
#endif
#if TBAND_FREERTOS_STREAM_BUFFERS_ON
#define tband_freertos_stream_buffer_name(buffer, name) \
  tband_freertos_hook_stream_buffer_name((uint32_t)uxStreamBufferGetStreamBufferNumber(buffer), (name))
#else
#define tband_freertos_stream_buffer_name(buffer, name) ((void)0)
#endif
#define tband_freertos_message_buffer_name(buffer, name) tband_freertos_stream_buffer_name(buffer, name)

/* The reference tracer's names for naming semaphores and mutexes: each is a
 * queue to the kernel (and its kind is traced when it is created), so they all
 * name the queue, and compile to nothing when the module is off. */
#define tband_freertos_binary_semaphore_name(semaphore, name) tband_freertos_queue_name(semaphore, name)
#define tband_freertos_counting_semaphore_name(semaphore, name) tband_freertos_queue_name(semaphore, name)
#define tband_freertos_mutex_name(mutex, name) tband_freertos_queue_name(mutex, name)
#define tband_freertos_recursive_mutex_name(mutex, name) tband_freertos_queue_name(mutex, name)

#endif /* TBAND_FREERTOS_H_ */

/* ---- The kernel's trace macros ----------------------------------------------
 * Outside the include guard: they are defined the first time this header is
 * read after FreeRTOSConfig.h's settings (configUSE_PREEMPTION, which every
 * FreeRTOSConfig.h has), so that a file which included tband.h before
 * FreeRTOS.h still gets them. */
#if TBAND_FREERTOS_ON && defined(configUSE_PREEMPTION) && !defined(TBAND_FREERTOS_KERNEL_HOOKS_)
#define TBAND_FREERTOS_KERNEL_HOOKS_

#if !defined(configUSE_TRACE_FACILITY) || configUSE_TRACE_FACILITY != 1
#error "tband: FreeRTOS tracing needs configUSE_TRACE_FACILITY 1 in FreeRTOSConfig.h (tband keeps task and queue ids in uxTaskNumber and uxQueueNumber)"
#endif

/* ---- Ids and names (always, once the module is on) ---- */

/* The timer task, if the kernel has one (for traceSTARTING_SCHEDULER and
 * tband_freertos_scheduler_started()). */
#if defined(configUSE_TIMERS) && configUSE_TIMERS == 1 && !defined(__cplusplus)
/* C: the timer API declared where it is used, so that a file calling
 * tband_freertos_scheduler_started() needs no timers.h (the reference
 * tracer's is a function; firmware written for it does not include it). */
#define TBAND_FREERTOS_MARK_TIMER_TASK()                                                        \
  do {                                                                                          \
    extern TaskHandle_t xTimerGetTimerDaemonTaskHandle(void);                                   \
    tband_freertos_hook_timer_task((uint32_t)uxTaskGetTaskNumber(xTimerGetTimerDaemonTaskHandle())); \
  } while (0)
#elif defined(configUSE_TIMERS) && configUSE_TIMERS == 1
#define TBAND_FREERTOS_MARK_TIMER_TASK() \
  tband_freertos_hook_timer_task((uint32_t)uxTaskGetTaskNumber(xTimerGetTimerDaemonTaskHandle()))
#else
#define TBAND_FREERTOS_MARK_TIMER_TASK() ((void)0)
#endif

/* The idle tasks, from outside tasks.c (tband_freertos_scheduler_started()
 * and V11.0/11.1's timer task hook). V11 SMP declares
 * xTaskGetIdleTaskHandle() for one core only, so SMP asks for each core's. */
#if defined(configNUMBER_OF_CORES) && configNUMBER_OF_CORES > 1
#define TBAND_FREERTOS_MARK_IDLE_TASKS()                                                         \
  do {                                                                                           \
    for (BaseType_t tband_idle_core = 0; tband_idle_core < (BaseType_t)configNUMBER_OF_CORES;   \
         tband_idle_core++) {                                                                    \
      tband_freertos_hook_idle_task(                                                             \
          (uint32_t)uxTaskGetTaskNumber(xTaskGetIdleTaskHandleForCore(tband_idle_core)),         \
          (uint32_t)tband_idle_core);                                                            \
    }                                                                                            \
  } while (0)
#else
#define TBAND_FREERTOS_MARK_IDLE_TASKS() \
  tband_freertos_hook_idle_task((uint32_t)uxTaskGetTaskNumber(xTaskGetIdleTaskHandle()), 0u)
#endif

/* tasks.c, prvAddNewTaskToReadyList(), in a critical section, before the task
 * is made ready: gives the task its id, sends task_created and
 * task_priority_set (task tracing), then task_name, in the reference tracer's
 * order. (Two calls: one hook keeping the name across the other two events
 * would need a deeper stack.) */
#define traceTASK_CREATE(pxNewTCB)                                                                        \
  do {                                                                                                    \
    (pxNewTCB)->uxTaskNumber = (UBaseType_t)tband_freertos_hook_task_created((uint32_t)(pxNewTCB)->uxPriority); \
    tband_freertos_hook_task_name((uint32_t)(pxNewTCB)->uxTaskNumber, (pxNewTCB)->pcTaskName);            \
  } while (0)

/* queue.c, prvInitialiseNewQueue(): every queue, semaphore, mutex and queue
 * set; ucQueueType says which (a queue set is a plain queue here on V10, see
 * traceRETURN_xQueueCreateSet). Sends queue_created, then (queue tracing)
 * queue_kind and queue_cur_length 0. */
#define TBAND_FREERTOS_QUEUE_KIND(type)                                                   \
  ((type) == queueQUEUE_TYPE_MUTEX                ? TBAND_FRQK_MUTEX                     \
   : (type) == queueQUEUE_TYPE_RECURSIVE_MUTEX    ? TBAND_FRQK_RECURSIVE_MUTEX           \
   : (type) == queueQUEUE_TYPE_COUNTING_SEMAPHORE ? TBAND_FRQK_COUNTING_SEMPHR           \
   : (type) == queueQUEUE_TYPE_BINARY_SEMAPHORE   ? TBAND_FRQK_BINARY_SEMPHR             \
                                                  : TBAND_FRQK_QUEUE)
#define traceQUEUE_CREATE(pxNewQueue) \
  (pxNewQueue)->uxQueueNumber =       \
      (UBaseType_t)tband_freertos_hook_queue_created(TBAND_FREERTOS_QUEUE_KIND((pxNewQueue)->ucQueueType))

/* queue.c, vQueueAddToRegistry(): the queue's name (configQUEUE_REGISTRY_SIZE > 0). */
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName) \
  tband_freertos_hook_queue_name((uint32_t)(xQueue)->uxQueueNumber, (pcQueueName))

/* V11 tasks.c, vTaskStartScheduler(): the idle task of every core (an array
 * of configNUMBER_OF_CORES handles) and the timer task. V10 has no such hook:
 * call tband_freertos_scheduler_started(). */
#define traceSTARTING_SCHEDULER(xIdleTaskHandles)                                                     \
  do {                                                                                                \
    for (UBaseType_t tband_idle_core = 0; tband_idle_core < (UBaseType_t)configNUMBER_OF_CORES;       \
         tband_idle_core++) {                                                                         \
      tband_freertos_hook_idle_task((uint32_t)(xIdleTaskHandles)[tband_idle_core]->uxTaskNumber,     \
                                    (uint32_t)tband_idle_core);                                       \
    }                                                                                                 \
    TBAND_FREERTOS_MARK_TIMER_TASK();                                                                 \
  } while (0)

/* V11.0/V11.1 timers.c, xTimerCreateTimerTask(), which vTaskStartScheduler()
 * calls once the idle tasks exist: these kernels have no
 * traceSTARTING_SCHEDULER, so the idle and timer tasks are marked here (the
 * version test keeps V11.2+ from marking them twice; V10 has no traceRETURN_
 * hooks). Needs the idle task handles (INCLUDE_xTaskGetIdleTaskHandle 1);
 * without them, or without timers, call tband_freertos_scheduler_started(). */
#if defined(INCLUDE_xTaskGetIdleTaskHandle) && INCLUDE_xTaskGetIdleTaskHandle == 1
#define traceRETURN_xTimerCreateTimerTask(xReturn)                                                  \
  do {                                                                                              \
    if ((xReturn) == pdPASS && tskKERNEL_VERSION_MAJOR == 11 && tskKERNEL_VERSION_MINOR < 2) {      \
      TBAND_FREERTOS_MARK_IDLE_TASKS();                                                             \
      TBAND_FREERTOS_MARK_TIMER_TASK();                                                             \
    }                                                                                               \
  } while (0)
#endif

/* ---- Scheduling (task tracing) ---- */
#if TBAND_FREERTOS_TASKS_ON
/* tasks.c, vTaskSwitchContext() (and vTaskStartScheduler()), pxCurrentTCB being
 * the task about to run: a variable on single-core kernels, on V11 SMP a
 * macro for the calling core's task. The kernel also "switches" to the task
 * that keeps running (at every switch request); those repeats are not sent. */
#define traceTASK_SWITCHED_IN()                                                                         \
  do {                                                                                                  \
    if (tband_freertos_hook_task_switched_in((uint32_t)pxCurrentTCB->uxTaskNumber) &&                    \
        tskKERNEL_VERSION_MAJOR == 10) {                                                                \
      TBAND_FREERTOS_MARK_KERNEL_TASKS_V10();                                                           \
    }                                                                                                   \
  } while (0)
/* V10 has no traceSTARTING_SCHEDULER: the first switch (in
 * vTaskStartScheduler(), once the idle and timer tasks exist, before any task
 * runs) marks them, so the timer task is known before it first blocks. The
 * idle task needs INCLUDE_xTaskGetIdleTaskHandle 1. */
#if defined(INCLUDE_xTaskGetIdleTaskHandle) && INCLUDE_xTaskGetIdleTaskHandle == 1
#define TBAND_FREERTOS_MARK_KERNEL_TASKS_V10() \
  do {                                         \
    TBAND_FREERTOS_MARK_IDLE_TASKS();          \
    TBAND_FREERTOS_MARK_TIMER_TASK();          \
  } while (0)
#else
#define TBAND_FREERTOS_MARK_KERNEL_TASKS_V10() TBAND_FREERTOS_MARK_TIMER_TASK()
#endif
#define traceMOVED_TASK_TO_READY_STATE(pxTCB) tband_freertos_hook_task_to_rdy_state((uint32_t)(pxTCB)->uxTaskNumber)
#define traceTASK_RESUME(pxTaskToResume) tband_freertos_hook_task_resumed((uint32_t)(pxTaskToResume)->uxTaskNumber)
#define traceTASK_RESUME_FROM_ISR(pxTaskToResume) \
  tband_freertos_hook_task_resumed_from_isr((uint32_t)(pxTaskToResume)->uxTaskNumber)
#define traceTASK_SUSPEND(pxTaskToSuspend) tband_freertos_hook_task_suspended((uint32_t)(pxTaskToSuspend)->uxTaskNumber)
#define traceTASK_DELETE(pxTaskToDelete) tband_freertos_hook_task_deleted((uint32_t)(pxTaskToDelete)->uxTaskNumber)
/* vTaskDelay(xTicksToDelay) and xTaskDelayUntil() (V10: also vTaskDelayUntil()). */
#define traceTASK_DELAY() tband_freertos_hook_curtask_delay((uint32_t)xTicksToDelay)
#define traceTASK_DELAY_UNTIL(xTimeToWake) tband_freertos_hook_curtask_delay_until((uint32_t)(xTimeToWake))
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority) \
  tband_freertos_hook_task_priority_set((uint32_t)(pxTask)->uxTaskNumber, (uint32_t)(uxNewPriority))
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority) \
  tband_freertos_hook_task_priority_inherit((uint32_t)(pxTCBOfMutexHolder)->uxTaskNumber, (uint32_t)(uxInheritedPriority))
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority) \
  tband_freertos_hook_task_priority_disinherit((uint32_t)(pxTCBOfMutexHolder)->uxTaskNumber, (uint32_t)(uxOriginalPriority))
/* queue.c: the running task is about to block on pxQueue for xTicksToWait
 * (the blocking call's parameter). */
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) \
  tband_freertos_hook_block_on_queue_send((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)xTicksToWait)
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue) \
  tband_freertos_hook_block_on_queue_receive((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)xTicksToWait)
#define traceBLOCKING_ON_QUEUE_PEEK(pxQueue) \
  tband_freertos_hook_block_on_queue_peek((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)xTicksToWait)
#endif /* TBAND_FREERTOS_TASKS_ON */

/* ---- Queue traffic (queue tracing) ---- */
#if TBAND_FREERTOS_QUEUES_ON
/* queue.c calls these before it moves the item, with uxMessagesWaiting as it
 * was. xQueueOverwrite() is a send into a full queue (a plain send into a
 * full queue blocks or fails before the hook); the tracer tells them apart
 * by the fill level, as xCopyPosition is not in scope in every caller.
 * traceQUEUE_SET_SEND defaults to traceQUEUE_SEND. */
#define traceQUEUE_SEND(pxQueue)                                                                    \
  tband_freertos_hook_queue_send((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)(pxQueue)->uxMessagesWaiting, \
                                 (uint32_t)(pxQueue)->uxLength)
#define traceQUEUE_SEND_FROM_ISR(pxQueue)                                                                    \
  tband_freertos_hook_queue_send_from_isr((uint32_t)(pxQueue)->uxQueueNumber,                              \
                                          (uint32_t)(pxQueue)->uxMessagesWaiting, (uint32_t)(pxQueue)->uxLength)
#define traceQUEUE_RECEIVE(pxQueue) \
  tband_freertos_hook_queue_receive((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)(pxQueue)->uxMessagesWaiting)
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue) \
  tband_freertos_hook_queue_receive_from_isr((uint32_t)(pxQueue)->uxQueueNumber, (uint32_t)(pxQueue)->uxMessagesWaiting)
/* queue.c, xQueueCreateCountingSemaphore[Static](): its initial count
 * (xHandle and uxInitialCount are that function's). */
#define traceCREATE_COUNTING_SEMAPHORE() \
  tband_freertos_hook_queue_cur_length((uint32_t)(xHandle)->uxQueueNumber, (uint32_t)uxInitialCount)
/* V11 queue.c, xQueueGenericReset(): xQueueReset() on an existing queue (new
 * queues are reset while they are set up, before they have an id). V10 has
 * no hook there: a reset shows as the next fill level. */
#define traceENTER_xQueueGenericReset(xQueue, xNewQueue)                     \
  do {                                                                       \
    if ((xQueue) != NULL && (xNewQueue) == pdFALSE) {                        \
      tband_freertos_hook_queue_reset((uint32_t)(xQueue)->uxQueueNumber);    \
    }                                                                        \
  } while (0)
/* V11 queue.c, xQueueCreateSet[Static](): the queue just created is a set
 * (queueQUEUE_TYPE_SET is queueQUEUE_TYPE_BASE's value). */
#define traceRETURN_xQueueCreateSet(pxQueue)                                                \
  do {                                                                                      \
    if ((pxQueue) != NULL) {                                                                \
      tband_freertos_hook_queue_kind((uint32_t)(pxQueue)->uxQueueNumber, TBAND_FRQK_QUEUE_SET); \
    }                                                                                       \
  } while (0)
#define traceRETURN_xQueueCreateSetStatic(pxQueue) traceRETURN_xQueueCreateSet(pxQueue)
#endif /* TBAND_FREERTOS_QUEUES_ON */

/* ---- Queue sets (queue set tracing, within queue tracing) ----
 * queue.c. prvNotifyQueueSetContainer() (every version) puts a member's
 * handle in its set when the member gets an item or is given; its
 * traceQUEUE_SET_SEND(pxQueueSetContainer), which would default to
 * traceQUEUE_SEND (the set's fill only), also names the member, pxQueue
 * there: V10 learns membership from it. V11's traceRETURN_ hooks of
 * xQueueAddToSet(), xQueueRemoveFromSet() and xQueueSelectFromSet[FromISR]()
 * read those functions' parameters (xQueueOrSemaphore, xQueueSet), in scope
 * until they return: nothing is kept between the ENTER and RETURN hooks, so
 * calls on other cores or from interrupts cannot mix. A membership change is
 * traced only when it succeeded (xReturn pdPASS); a selection returns a
 * member's handle or NULL. */
#if TBAND_FREERTOS_QUEUE_SETS_ON
#define traceQUEUE_SET_SEND(pxQueueSetContainer)                                                            \
  tband_freertos_hook_queue_set_send((uint32_t)(pxQueueSetContainer)->uxQueueNumber, (uint32_t)pxQueue->uxQueueNumber, \
                                     (uint32_t)(pxQueueSetContainer)->uxMessagesWaiting)
#define traceRETURN_xQueueAddToSet(xReturn)                                                               \
  do {                                                                                                    \
    if ((xReturn) == pdPASS) {                                                                            \
      tband_freertos_hook_queue_set_add((uint32_t)(xQueueSet)->uxQueueNumber,                             \
                                        (uint32_t)(xQueueOrSemaphore)->uxQueueNumber);                    \
    }                                                                                                     \
  } while (0)
#define traceRETURN_xQueueRemoveFromSet(xReturn)                                                          \
  do {                                                                                                    \
    if ((xReturn) == pdPASS) {                                                                            \
      tband_freertos_hook_queue_set_remove((uint32_t)(xQueueSet)->uxQueueNumber,                          \
                                           (uint32_t)(xQueueOrSemaphore)->uxQueueNumber);                 \
    }                                                                                                     \
  } while (0)
#define traceRETURN_xQueueSelectFromSet(xReturn)                                                          \
  tband_freertos_hook_queue_set_select((uint32_t)(xQueueSet)->uxQueueNumber,                              \
                                       (xReturn) != NULL ? (uint32_t)(xReturn)->uxQueueNumber : 0u)
#define traceRETURN_xQueueSelectFromSetFromISR(xReturn)                                                   \
  tband_freertos_hook_queue_set_select_from_isr((uint32_t)(xQueueSet)->uxQueueNumber,                     \
                                                (xReturn) != NULL ? (uint32_t)(xReturn)->uxQueueNumber : 0u)
#endif /* TBAND_FREERTOS_QUEUE_SETS_ON */

/* ---- Task notifications (notification tracing) ----
 * tasks.c, V10.4 and later (the notification arrays: every macro gets the
 * index; V10.0-10.3 pass none and keep one value, and are not supported).
 * Each macro reads what its caller has in scope: xTaskGenericNotify() and
 * its FromISR twin call traceTASK_NOTIFY[_FROM_ISR] after the action, with
 * pxTCB the notified task and eAction; vTaskGenericNotifyGiveFromISR() has no
 * eAction (a give is an increment). The take and wait macros run in the
 * waiting task, before the value is read and cleared (xClearCountOnExit,
 * ulBitsToClearOnExit and xTicksToWait are the API functions' parameters).
 * V11 calls the _BLOCK macros with the scheduler suspended, before the task
 * goes on the delayed list; V10 in a critical section, right after; both
 * before the switch. The index parameter is uxIndexToWait on V10,
 * uxIndexToWaitOn on V11: the macros use their own parameter only. */
#if TBAND_FREERTOS_NOTIFY_ON
#define traceTASK_NOTIFY(uxIndexToNotify)                                                               \
  tband_freertos_hook_task_notify((uint32_t)pxTCB->uxTaskNumber, (uint32_t)(uxIndexToNotify), (uint32_t)eAction, \
                                  (uint32_t)pxTCB->ulNotifiedValue[(uxIndexToNotify)])
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify)                                        \
  tband_freertos_hook_task_notify_from_isr((uint32_t)pxTCB->uxTaskNumber, (uint32_t)(uxIndexToNotify), \
                                           (uint32_t)eAction, (uint32_t)pxTCB->ulNotifiedValue[(uxIndexToNotify)])
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)                                   \
  tband_freertos_hook_task_notify_from_isr((uint32_t)pxTCB->uxTaskNumber, (uint32_t)(uxIndexToNotify), \
                                           TBAND_FRNA_INCREMENT, (uint32_t)pxTCB->ulNotifiedValue[(uxIndexToNotify)])
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait) \
  tband_freertos_hook_block_on_notify_take((uint32_t)(uxIndexToWait), (uint32_t)xTicksToWait)
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait) \
  tband_freertos_hook_block_on_notify_wait((uint32_t)(uxIndexToWait), (uint32_t)xTicksToWait)
#define traceTASK_NOTIFY_TAKE(uxIndexToWait)                                                                \
  tband_freertos_hook_notify_take((uint32_t)(uxIndexToWait), (uint32_t)pxCurrentTCB->ulNotifiedValue[(uxIndexToWait)], \
                                  xClearCountOnExit != pdFALSE)
#define traceTASK_NOTIFY_WAIT(uxIndexToWait)                                                                \
  tband_freertos_hook_notify_wait((uint32_t)(uxIndexToWait), (uint32_t)pxCurrentTCB->ulNotifiedValue[(uxIndexToWait)], \
                                  pxCurrentTCB->ucNotifyState[(uxIndexToWait)] == taskNOTIFICATION_RECEIVED,             \
                                  (uint32_t)ulBitsToClearOnExit)
#endif /* TBAND_FREERTOS_NOTIFY_ON */

/* ---- Event groups (event group tracing) ----
 * event_groups.c, V10 and V11 alike. The group's id lives in its
 * uxEventGroupNumber (configUSE_TRACE_FACILITY). The set and clear macros
 * come before the bits change; the blocking ones after the task went on the
 * group's list (xTicksToWait is the API function's parameter); the _END
 * ones when the call returns (uxReturn is what it returns). Event bits are
 * sent as 32 bits (a 64-bit TickType_t's upper event bits are cut). The
 * FromISR macros only pend the change to the timer task, which then calls
 * traceEVENT_GROUP_SET_BITS / _CLEAR_BITS. */
#if TBAND_FREERTOS_EVENT_GROUPS_ON
#define traceEVENT_GROUP_CREATE(xEventGroup) \
  (xEventGroup)->uxEventGroupNumber = (UBaseType_t)tband_freertos_hook_event_group_created()
#define traceEVENT_GROUP_DELETE(xEventGroup) \
  tband_freertos_hook_event_group_deleted((uint32_t)(xEventGroup)->uxEventGroupNumber)
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet)                                                   \
  tband_freertos_hook_event_group_set_bits((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)(uxBitsToSet), \
                                           (uint32_t)(xEventGroup)->uxEventBits)
#define traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear)                                                   \
  tband_freertos_hook_event_group_clear_bits((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)(uxBitsToClear), \
                                             (uint32_t)(xEventGroup)->uxEventBits)
#define traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet) \
  tband_freertos_hook_event_group_set_bits_from_isr((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)(uxBitsToSet))
#define traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear)                           \
  tband_freertos_hook_event_group_clear_bits_from_isr((uint32_t)(xEventGroup)->uxEventGroupNumber, \
                                                      (uint32_t)(uxBitsToClear))
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)                                          \
  tband_freertos_hook_block_on_event_group_wait((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)(uxBitsToWaitFor), \
                                                (uint32_t)xTicksToWait)
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)                                  \
  tband_freertos_hook_block_on_event_group_sync((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)(uxBitsToWaitFor), \
                                                (uint32_t)xTicksToWait)
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred)                        \
  tband_freertos_hook_event_group_wait_end((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)uxReturn, \
                                           (xTimeoutOccurred) != pdFALSE)
#define traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred)                \
  tband_freertos_hook_event_group_wait_end((uint32_t)(xEventGroup)->uxEventGroupNumber, (uint32_t)uxReturn, \
                                           (xTimeoutOccurred) != pdFALSE)
#endif /* TBAND_FREERTOS_EVENT_GROUPS_ON */

/* ---- Stream and message buffers (stream buffer tracing) ----
 * stream_buffer.c, V10 and V11 alike (a message buffer is a stream buffer
 * that keeps each message's length with it). The buffer's id lives in its
 * uxStreamBufferNumber (configUSE_TRACE_FACILITY), given after the kernel
 * cleared the new buffer. The send and receive macros come after the bytes
 * moved (xBytesSent, xReceivedLength: what the call returns), so the fill is
 * read from the kernel then (xStreamBufferBytesAvailable(): a message
 * buffer's messages with their lengths). The FromISR ones come also when
 * nothing moved (0 bytes); the task-context _FAILED ones when a call moves
 * nothing. The _BLOCKING_ macros come before the task waits, which it does
 * in xTaskNotifyWait[Indexed]() (xTicksToWait: the time still left).
 * Reset from an interrupt (V11.1+) shows as a reset. */
#if TBAND_FREERTOS_STREAM_BUFFERS_ON
#define traceSTREAM_BUFFER_CREATE(pxStreamBuffer, xStreamBufferType)                                      \
  do {                                                                                                     \
    (pxStreamBuffer)->uxStreamBufferNumber = (UBaseType_t)tband_freertos_hook_stream_buffer_id();          \
    tband_freertos_hook_stream_buffer_created((uint32_t)(pxStreamBuffer)->uxStreamBufferNumber,            \
                                              (uint32_t)(xStreamBufferType),                               \
                                              (uint32_t)xStreamBufferSpacesAvailable(pxStreamBuffer));     \
  } while (0)
#define traceSTREAM_BUFFER_CREATE_FAILED(xStreamBufferType) \
  tband_freertos_hook_stream_buffer_create_failed((uint32_t)(xStreamBufferType))
#define traceSTREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xStreamBufferType) \
  tband_freertos_hook_stream_buffer_create_failed((uint32_t)(xStreamBufferType))
#define traceSTREAM_BUFFER_DELETE(xStreamBuffer) \
  tband_freertos_hook_stream_buffer_deleted((uint32_t)(xStreamBuffer)->uxStreamBufferNumber)
#define traceSTREAM_BUFFER_RESET(xStreamBuffer) \
  tband_freertos_hook_stream_buffer_reset((uint32_t)(xStreamBuffer)->uxStreamBufferNumber)
#define traceSTREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer) traceSTREAM_BUFFER_RESET(xStreamBuffer)
#define traceSTREAM_BUFFER_SEND(xStreamBuffer, xBytesSent)                                                  \
  tband_freertos_hook_stream_buffer_send((uint32_t)(xStreamBuffer)->uxStreamBufferNumber, (uint32_t)(xBytesSent), \
                                         (uint32_t)xStreamBufferBytesAvailable(xStreamBuffer))
#define traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent)                                \
  tband_freertos_hook_stream_buffer_send_from_isr((uint32_t)(xStreamBuffer)->uxStreamBufferNumber, \
                                                  (uint32_t)(xBytesSent),                          \
                                                  (uint32_t)xStreamBufferBytesAvailable(xStreamBuffer))
#define traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer) \
  tband_freertos_hook_stream_buffer_send_failed((uint32_t)(xStreamBuffer)->uxStreamBufferNumber)
#define traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength)                               \
  tband_freertos_hook_stream_buffer_receive((uint32_t)(xStreamBuffer)->uxStreamBufferNumber,     \
                                            (uint32_t)(xReceivedLength),                         \
                                            (uint32_t)xStreamBufferBytesAvailable(xStreamBuffer))
#define traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength)                           \
  tband_freertos_hook_stream_buffer_receive_from_isr((uint32_t)(xStreamBuffer)->uxStreamBufferNumber, \
                                                     (uint32_t)(xReceivedLength),                     \
                                                     (uint32_t)xStreamBufferBytesAvailable(xStreamBuffer))
#define traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer) \
  tband_freertos_hook_stream_buffer_receive_failed((uint32_t)(xStreamBuffer)->uxStreamBufferNumber)
#define traceBLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer)                                         \
  tband_freertos_hook_block_on_stream_buffer_send((uint32_t)(xStreamBuffer)->uxStreamBufferNumber, \
                                                  (uint32_t)xTicksToWait)
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer)                                         \
  tband_freertos_hook_block_on_stream_buffer_receive((uint32_t)(xStreamBuffer)->uxStreamBufferNumber, \
                                                     (uint32_t)xTicksToWait)
#endif /* TBAND_FREERTOS_STREAM_BUFFERS_ON */

/* ---- Software timers (timer tracing) ----
 * timers.c, V10 and V11 alike. The timer's id lives in its uxTimerNumber
 * (configUSE_TRACE_FACILITY); its name is the one it was created with
 * (pcTimerName), sent then. A command is traced where a task or an interrupt
 * sends it (xReturn: whether it went into the timer queue) and where the
 * timer task takes it from the queue, before carrying it out; an expiry
 * before the timer task calls the callback. */
#if TBAND_FREERTOS_TIMERS_ON
#define traceTIMER_CREATE(pxNewTimer)                                                                     \
  do {                                                                                                    \
    (pxNewTimer)->uxTimerNumber = (UBaseType_t)tband_freertos_hook_timer_id();                            \
    tband_freertos_hook_timer_created((uint32_t)(pxNewTimer)->uxTimerNumber,                              \
                                      (uint32_t)(pxNewTimer)->xTimerPeriodInTicks,                        \
                                      ((pxNewTimer)->ucStatus & tmrSTATUS_IS_AUTORELOAD) != 0);           \
    if ((pxNewTimer)->pcTimerName != NULL) {                                                              \
      tband_freertos_hook_timer_name((uint32_t)(pxNewTimer)->uxTimerNumber, (pxNewTimer)->pcTimerName);  \
    }                                                                                                     \
  } while (0)
#define traceTIMER_CREATE_FAILED() tband_freertos_hook_timer_create_failed()
/* The kernel calls it after the send. A delete that went into the queue may
 * be carried out by then (the timer task usually has the higher priority, and
 * preempts the sender), so the timer may be freed: it is not read, and the
 * timer task's receipt of the delete shows it instead. */
#define traceTIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)                                  \
  do {                                                                                                            \
    if ((xMessageID) != tmrCOMMAND_DELETE || (xReturn) == pdFAIL) {                                               \
      tband_freertos_hook_timer_command_send((uint32_t)(xTimer)->uxTimerNumber, (uint32_t)(xMessageID),          \
                                             (uint32_t)(xMessageValueValue), (xReturn) != pdFAIL);                \
    }                                                                                                             \
  } while (0)
#define traceTIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue)                                       \
  tband_freertos_hook_timer_command_received((uint32_t)(pxTimer)->uxTimerNumber, (uint32_t)(xMessageID),     \
                                             (uint32_t)(xMessageValue))
#define traceTIMER_EXPIRED(pxTimer) tband_freertos_hook_timer_expired((uint32_t)(pxTimer)->uxTimerNumber)
#endif /* TBAND_FREERTOS_TIMERS_ON */

#endif /* kernel trace macros */
