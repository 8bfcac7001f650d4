// The stand-in's stream and message buffer scenario (../stream_buffers_test.cpp)
// on the real kernel, checked the same way: the events (without their
// timestamps), the task states, and the fill counters Perfetto shows. The
// order of things comes from priorities and blocking only.
#include <gtest/gtest.h>

#include <cstring>

#include "real_kernel.hpp"
#include "stream_buffer_checks.hpp"
// After FreeRTOS.h (real_kernel.hpp), as in any FreeRTOS application.
#include "message_buffer.h"
#include "stream_buffer.h"

namespace tband::test {
namespace {

constexpr TickType_t kTimeout = 100;

using StreamBuffers = RealKernel;

StreamBufferHandle_t g_rx = nullptr;
MessageBufferHandle_t g_commands = nullptr;

// reader (3) waits for bytes on "uart rx", which writer (2) sends; reader
// fills the unnamed message buffer and blocks sending the next message;
// writer has an interrupt send to "uart rx", then takes the first message,
// which lets the reader's send go on. reader reads some bytes, resets the
// buffer, and its last read finds nothing.
TEST_F(StreamBuffers, SendReceiveBlockAndFill) {
  tband_isr_name(1, "uart");
  g_rx = xStreamBufferCreate(8, 1);
  ASSERT_NE(g_rx, nullptr);
  tband_freertos_stream_buffer_name(g_rx, "uart rx");
  g_commands = xMessageBufferCreate(2 * kMessageOf4 - 1);  // room for one message
  ASSERT_NE(g_commands, nullptr);
  spawn("reader", 3, [](void*) {
    char data[8] = {};
    TASK_CHECK(xStreamBufferReceive(g_rx, data, sizeof data, kTimeout) == 3u);  // blocks until the writer's send
    TASK_CHECK(std::memcmp(data, "abc", 3) == 0);
    TASK_CHECK(xMessageBufferSend(g_commands, "ping", 4, 0) == 4u);
    TASK_CHECK(xMessageBufferSend(g_commands, "pong", 4, kTimeout) == 4u);  // blocks until the writer's receive
    TASK_CHECK(xStreamBufferReceive(g_rx, data, 2, 0) == 2u);
    TASK_CHECK(xStreamBufferReset(g_rx) == pdPASS);
    TASK_CHECK(xStreamBufferReceive(g_rx, data, sizeof data, 0) == 0u);
    finish();
  });
  spawn("writer", 2, [](void*) {
    TASK_CHECK(xStreamBufferSend(g_rx, "abc", 3, 0) == 3u);  // the reader runs at once
    interrupt(1, [] {
      BaseType_t woken = pdFALSE;
      TASK_CHECK(xStreamBufferSendFromISR(g_rx, "12345", 5, &woken) == 5u);
      return woken;
    });
    char message[16] = {};
    TASK_CHECK(xMessageBufferReceive(g_commands, message, sizeof message, 0) == 4u);  // the reader runs at once
    TASK_CHECK(std::memcmp(message, "ping", 4) == 0);
    end_task();
  });
  run_kernel();

  const std::string m = std::to_string(kMessageOf4);
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_created"),
            (std::vector<std::string>{
                "stream_buffer_created sb_id=1 kind=FRSBK_STREAM_BUFFER size=8",
                "stream_buffer_created sb_id=2 kind=FRSBK_MESSAGE_BUFFER size=" + std::to_string(2 * kMessageOf4 - 1)}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_stream_buffer_receive"),
            (std::vector<std::string>{"curtask_block_on_stream_buffer_receive sb_id=1 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "curtask_block_on_stream_buffer_send"),
            (std::vector<std::string>{"curtask_block_on_stream_buffer_send sb_id=2 ticks_to_wait=100"}));
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_send"),
            (std::vector<std::string>{"stream_buffer_send sb_id=1 bytes=3 fill_after=3",
                                      "stream_buffer_send sb_id=2 bytes=4 fill_after=" + m,
                                      "stream_buffer_send sb_id=2 bytes=4 fill_after=" + m}));
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_send_from_isr"),
            (std::vector<std::string>{"stream_buffer_send_from_isr sb_id=1 bytes=5 fill_after=5"}));
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_receive"),
            (std::vector<std::string>{"stream_buffer_receive sb_id=1 bytes=3 fill_after=0",
                                      "stream_buffer_receive sb_id=2 bytes=4 fill_after=0",
                                      "stream_buffer_receive sb_id=1 bytes=2 fill_after=3"}));
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_reset"), (std::vector<std::string>{"stream_buffer_reset sb_id=1"}));
  EXPECT_EQ(texts_without_ts(trace, "stream_buffer_receive_failed"),
            (std::vector<std::string>{"stream_buffer_receive_failed sb_id=1"}));

  expect_stream_buffer_scenario_view(convert("stream_buffers"));
}

}  // namespace
}  // namespace tband::test
