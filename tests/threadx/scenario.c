/* A ThreadX application whose event trace tband's tests read
   (tests/threadx/README.md): threads of different priorities passing work
   through a queue, a block pool, event flags and a semaphore given by a
   timer, a mutex with priority inheritance, user events, and enough events
   to wrap the circular trace buffer. At the end the buffer is written to the
   file named by argv[1], and what the scenario did to stdout ("fact"
   lines) for the test to compare with what tband shows.

   Built against a ThreadX tree given by path (THREADX_PATH), never copied.
   On Linux (its port) this file is the whole program; a bare-metal build
   (cm4/, TBAND_SCENARIO_BARE_METAL) supplies main, the time source and the
   four scenario_* functions below itself. */
#include <string.h>

#include "tx_api.h"

/* Where the buffer and the facts go, and how the run ends. */
void scenario_save(const void* buffer, unsigned long size);
void scenario_fact(const char* name, unsigned long value);
void scenario_end(void);
void scenario_fail(void);

#ifndef TBAND_TRACE_ENTRIES
#define TBAND_TRACE_ENTRIES 1000
#endif
#define REGISTRY_ENTRIES 16
#define ROUNDS 40
#define QUEUE_DEPTH 8
#define BURST 5
#define USER_EVENT_ROUND 4096 /* I1 = round, I2 = messages sent so far, I3 = 0xC0FFEE, I4 = 42 */
#define USER_EVENT_DONE 4097  /* I1 = rounds, I2 = messages received, I3 = semaphore gets, I4 = 0 */

/* Header (48 bytes) + registry (48 bytes each) + entries (32 bytes each). */
static ULONG trace_area[(48 + REGISTRY_ENTRIES * 48 + TBAND_TRACE_ENTRIES * 32) / sizeof(ULONG)];

static TX_THREAD producer, consumer, waiter, high, low, supervisor;
static ULONG producer_stack[4096], consumer_stack[4096], waiter_stack[4096], high_stack[4096],
    low_stack[4096], supervisor_stack[4096];
static TX_QUEUE work_queue;
static ULONG queue_area[QUEUE_DEPTH];
static TX_SEMAPHORE tick_sem;
static TX_MUTEX shared_mutex;
static TX_EVENT_FLAGS_GROUP round_flags;
static TX_TIMER tick_timer;
static TX_BLOCK_POOL msg_pool;
static UCHAR pool_area[8 * (64 + sizeof(void*))];

static volatile ULONG sent, received, sem_gets, timer_fires, rounds_done;

static void timer_expired(ULONG arg) {
  (void)arg;
  ++timer_fires;
  tx_semaphore_put(&tick_sem);
}

/* Priority 10: a burst of messages per round, each in a pool block. */
static void producer_entry(ULONG arg) {
  (void)arg;
  for (ULONG round = 1; round <= ROUNDS; ++round) {
    for (int i = 0; i < BURST; ++i) {
      VOID* block = TX_NULL;
      if (tx_block_allocate(&msg_pool, &block, TX_WAIT_FOREVER) != TX_SUCCESS) {
        scenario_fail();
      }
      ULONG msg = (round << 8) | (ULONG)i;
      memcpy(block, &msg, sizeof msg);
      tx_queue_send(&work_queue, &msg, TX_WAIT_FOREVER);
      tx_block_release(block);
      ++sent;
    }
    tx_trace_user_event_insert(USER_EVENT_ROUND, round, sent, 0xC0FFEE, 42);
    tx_event_flags_set(&round_flags, 0x1, TX_OR);
    tx_thread_sleep(1);
  }
  tx_event_flags_set(&round_flags, 0x2, TX_OR);
}

/* Priority 12: drains the queue. */
static void consumer_entry(ULONG arg) {
  (void)arg;
  ULONG msg = 0;
  while (received < (ULONG)ROUNDS * BURST) {
    if (tx_queue_receive(&work_queue, &msg, TX_WAIT_FOREVER) == TX_SUCCESS) {
      ++received;
    }
  }
}

/* Priority 8: waits for each round's flag and the timer's semaphore. */
static void waiter_entry(ULONG arg) {
  (void)arg;
  ULONG actual = 0;
  for (;;) {
    tx_event_flags_get(&round_flags, 0x3, TX_OR_CLEAR, &actual, TX_WAIT_FOREVER);
    if (tx_semaphore_get(&tick_sem, TX_NO_WAIT) == TX_SUCCESS) {
      ++sem_gets;
    }
    if (actual & 0x2) {
      break;
    }
  }
  rounds_done = ROUNDS;
}

/* Priority 20: takes the mutex and holds it over two ticks. */
static void low_entry(ULONG arg) {
  (void)arg;
  tx_mutex_get(&shared_mutex, TX_WAIT_FOREVER);
  tx_thread_sleep(3);
  tx_mutex_put(&shared_mutex);
}

/* Priority 5: wants the mutex while low holds it: low inherits priority 5. */
static void high_entry(ULONG arg) {
  (void)arg;
  tx_thread_sleep(1);
  tx_mutex_get(&shared_mutex, TX_WAIT_FOREVER);
  tx_mutex_put(&shared_mutex);
}

static void dump_and_exit(void) {
  static ULONG copy[sizeof trace_area / sizeof(ULONG)];
  UINT old = tx_interrupt_control(TX_INT_DISABLE);
  memcpy(copy, trace_area, sizeof copy);
  tx_interrupt_control(old);
  scenario_save(copy, sizeof copy);
  scenario_fact("rounds", ROUNDS);
  scenario_fact("sent", sent);
  scenario_fact("received", received);
  scenario_fact("queue_depth", QUEUE_DEPTH);
  scenario_fact("sem_gets", sem_gets);
  scenario_fact("trace_entries", TBAND_TRACE_ENTRIES);
  scenario_end();
}

/* Priority 30: starts the mutex scene after the rounds, then dumps. */
static void supervisor_entry(ULONG arg) {
  (void)arg;
  while (rounds_done == 0 || received < (ULONG)ROUNDS * BURST) {
    tx_thread_sleep(2);
  }
  tx_thread_resume(&low);
  tx_thread_resume(&high);
  tx_thread_sleep(8);
  tx_trace_user_event_insert(USER_EVENT_DONE, ROUNDS, received, sem_gets, 0);
  dump_and_exit();
}

void tx_application_define(void* first_unused_memory) {
  (void)first_unused_memory;
  if (tx_trace_enable(trace_area, sizeof trace_area, REGISTRY_ENTRIES) != TX_SUCCESS) {
    scenario_fail();
  }
  tx_queue_create(&work_queue, "work_queue", TX_1_ULONG, queue_area, sizeof queue_area);
  tx_semaphore_create(&tick_sem, "tick_sem", 0);
  tx_mutex_create(&shared_mutex, "shared_mutex", TX_INHERIT);
  tx_event_flags_create(&round_flags, "round_flags");
  tx_block_pool_create(&msg_pool, "msg_pool", 64, pool_area, sizeof pool_area);
  tx_timer_create(&tick_timer, "tick_timer", timer_expired, 0, 3, 3, TX_AUTO_ACTIVATE);
  tx_thread_create(&producer, "producer", producer_entry, 0, producer_stack, sizeof producer_stack, 10, 10,
                   TX_NO_TIME_SLICE, TX_AUTO_START);
  tx_thread_create(&consumer, "consumer", consumer_entry, 0, consumer_stack, sizeof consumer_stack, 12, 12,
                   TX_NO_TIME_SLICE, TX_AUTO_START);
  tx_thread_create(&waiter, "waiter", waiter_entry, 0, waiter_stack, sizeof waiter_stack, 8, 8, TX_NO_TIME_SLICE,
                   TX_AUTO_START);
  tx_thread_create(&high, "high", high_entry, 0, high_stack, sizeof high_stack, 5, 5, TX_NO_TIME_SLICE,
                   TX_DONT_START);
  tx_thread_create(&low, "low", low_entry, 0, low_stack, sizeof low_stack, 20, 20, TX_NO_TIME_SLICE, TX_DONT_START);
  tx_thread_create(&supervisor, "supervisor", supervisor_entry, 0, supervisor_stack, sizeof supervisor_stack, 30, 30,
                   TX_NO_TIME_SLICE, TX_AUTO_START);
}

#ifndef TBAND_SCENARIO_BARE_METAL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char* out_path;

unsigned int tband_scenario_time_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  unsigned long long us = (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000u;
  return (unsigned int)(us & TX_TRACE_TIME_MASK);
}

void scenario_save(const void* buffer, unsigned long size) {
  FILE* f = fopen(out_path, "wb");
  if (f == NULL || fwrite(buffer, 1, size, f) != size || fclose(f) != 0) {
    perror(out_path);
    exit(1);
  }
}

void scenario_fact(const char* name, unsigned long value) { printf("fact %s %lu\n", name, value); }

void scenario_end(void) {
  fflush(stdout);
  exit(0);
}

void scenario_fail(void) { abort(); }

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.trx\n", argv[0]);
    return 2;
  }
  out_path = argv[1];
  tx_kernel_enter();
  return 0;
}
#endif
