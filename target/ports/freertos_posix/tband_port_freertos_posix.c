/* tband port for FreeRTOS's POSIX port: see tband_port.h. */
#define _POSIX_C_SOURCE 200809L
#include "tband_port.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static atomic_flag g_lock = ATOMIC_FLAG_INIT;
static _Atomic(uint64_t) g_epoch_ns;
static _Atomic(tband_posix_sink) g_sink;
static _Atomic(void*) g_sink_context;

static uint64_t monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

uint64_t tband_posix_timestamp(void) {
  const uint64_t now = monotonic_ns();
  uint64_t epoch = atomic_load_explicit(&g_epoch_ns, memory_order_relaxed);
  if (epoch == 0) {
    uint64_t expected = 0;
    epoch = atomic_compare_exchange_strong(&g_epoch_ns, &expected, now) ? now : expected;
  }
  return now - epoch;
}

/* Signals first, then the lock: a tick on this thread cannot then find the
 * lock taken by the code it interrupted. */
void tband_posix_enter_critical(sigset_t* saved) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, saved);
  while (atomic_flag_test_and_set_explicit(&g_lock, memory_order_acquire)) {
  }
}

void tband_posix_exit_critical(const sigset_t* saved) {
  atomic_flag_clear_explicit(&g_lock, memory_order_release);
  pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static bool deliver(const uint8_t* buf, size_t len, bool is_metadata) {
  const tband_posix_sink sink = atomic_load_explicit(&g_sink, memory_order_acquire);
  return sink != NULL && sink(atomic_load_explicit(&g_sink_context, memory_order_acquire), buf, len, is_metadata);
}

bool tband_posix_stream_data(const uint8_t* buf, size_t len) { return deliver(buf, len, false); }
bool tband_posix_external_event(const uint8_t* buf, size_t len, bool is_metadata) {
  return deliver(buf, len, is_metadata);
}

void tband_posix_set_sink(tband_posix_sink sink, void* context) {
  atomic_store_explicit(&g_sink_context, context, memory_order_release);
  atomic_store_explicit(&g_sink, sink, memory_order_release);
}
