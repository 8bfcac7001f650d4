// The FreeRTOS POSIX port's critical section (ports/freertos_posix): it
// blocks the signals (the port's interrupts) and puts back the mask it found.
// The case that broke V10: the kernel calls a hook with every signal blocked
// but its own nesting count at 0 (vTaskStartScheduler() ->
// traceTASK_SWITCHED_IN()); the hook must leave them blocked.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include "tband_port.h"

namespace {

bool alarm_blocked() {
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  return sigismember(&now, SIGALRM) == 1;
}

void set_all_signals(bool blocked) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &all, nullptr);
}

// A hook's critical section, as the tracer's sources open and close it.
bool blocked_inside_hook() {
  tband_portENTER_CRITICAL_FROM_ANY();
  const bool inside = alarm_blocked();
  tband_portEXIT_CRITICAL_FROM_ANY();
  return inside;
}

TEST(FreeRtosPosixPort, BlocksSignalsAndUnblocksThemAfter) {
  set_all_signals(false);
  EXPECT_TRUE(blocked_inside_hook());
  EXPECT_FALSE(alarm_blocked());
}

TEST(FreeRtosPosixPort, LeavesSignalsBlockedThatTheKernelBlocked) {
  set_all_signals(true);  // portDISABLE_INTERRUPTS() in vTaskStartScheduler()
  EXPECT_TRUE(blocked_inside_hook());
  EXPECT_TRUE(alarm_blocked()) << "the hook turned the kernel's interrupts on";
  set_all_signals(false);
}

TEST(FreeRtosPosixPort, SectionsNestInOrder) {
  set_all_signals(false);
  {
    tband_portENTER_CRITICAL_FROM_ANY();
    EXPECT_TRUE(alarm_blocked());
    // The lock is not re-entrant: a nested section comes from another thread
    // (the kernel handing over between tasks' threads), which waits.
    tband_portEXIT_CRITICAL_FROM_ANY();
  }
  EXPECT_TRUE(blocked_inside_hook());
  EXPECT_FALSE(alarm_blocked());
}

TEST(FreeRtosPosixPort, SinkGetsTheFramesAndCanDropThem) {
  struct Seen {
    std::size_t bytes = 0;
    bool drop = false;
  } seen;
  tband_posix_set_sink(
      [](void* context, const std::uint8_t*, std::size_t len, bool) {
        auto* s = static_cast<Seen*>(context);
        s->bytes += len;
        return s->drop;
      },
      &seen);
  const std::uint8_t frame[3] = {1, 2, 0};
  EXPECT_FALSE(tband_posix_stream_data(frame, sizeof frame));
  seen.drop = true;
  EXPECT_TRUE(tband_posix_external_event(frame, sizeof frame, true));
  EXPECT_EQ(seen.bytes, 6u);
  tband_posix_set_sink(nullptr, nullptr);
  EXPECT_FALSE(tband_posix_stream_data(frame, sizeof frame));  // discarded, not dropped
  const std::uint64_t first = tband_posix_timestamp();
  EXPECT_LE(first, tband_posix_timestamp());
}

}  // namespace
