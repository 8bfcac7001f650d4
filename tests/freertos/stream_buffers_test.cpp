// FreeRTOS stream and message buffers, on one core: the stand-in kernel (V10,
// V11, V11 built for size) calls tband's trace macros where the real kernel
// does; the streamed trace is decoded, converted, and the .pftrace read back
// as Perfetto shows it.
#include <gtest/gtest.h>

#include <cstring>

#include "scenario.hpp"
#include "stream_buffer_checks.hpp"
// After FreeRTOS.h (scenario.hpp), as in any FreeRTOS application.
#include "message_buffer.h"
#include "stream_buffer.h"

namespace tband::test {
namespace {

using StreamBuffers = Scenario;

// reader (2) waits for bytes on "uart rx", which writer (1) sends; an
// interrupt sends more, reader reads some and resets the buffer. reader then
// fills an unnamed message buffer and blocks sending the next message until
// writer takes the first. Last, a read of an empty buffer fails.
TEST_F(StreamBuffers, SendReceiveBlockAndFill) {
  at(10);
  StreamBufferHandle_t rx = xStreamBufferCreate(8, 1);
  ASSERT_NE(rx, nullptr);
  tband_freertos_stream_buffer_name(rx, "uart rx");
  MessageBufferHandle_t commands = xMessageBufferCreate(2 * kMessageOf4 - 1);  // room for one message
  ASSERT_NE(commands, nullptr);
  tband_isr_name(1, "uart");
  TaskHandle_t reader = nullptr;
  TaskHandle_t writer = nullptr;
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "reader", 128, nullptr, 2, &reader), pdPASS);
  ASSERT_EQ(xTaskCreate(nullptr, "writer", 128, nullptr, 1, &writer), pdPASS);
  at(100);
  boot();
  ASSERT_EQ(running(), "reader");
  char data[16] = {};
  at(110);
  ASSERT_EQ(xStreamBufferReceive(rx, data, 8, 50), standinSTREAM_BUFFER_BLOCKED);
  ASSERT_EQ(running(), "writer");
  at(120);
  ASSERT_EQ(xStreamBufferSend(rx, "abc", 3, 0), 3u);
  ASSERT_EQ(running(), "reader");  // notified, and of higher priority
  at(130);
  ASSERT_EQ(xStreamBufferReceive(rx, data, 8, 50), 3u);  // the blocked call goes on
  EXPECT_EQ(std::memcmp(data, "abc", 3), 0);
  at(140);
  interrupt(1, [&] {
    BaseType_t woken = pdFALSE;
    EXPECT_EQ(xStreamBufferSendFromISR(rx, "12345", 5, &woken), 5u);
    EXPECT_EQ(woken, pdFALSE);  // nobody waits
  });
  at(150);
  ASSERT_EQ(xStreamBufferReceive(rx, data, 2, 0), 2u);
  at(160);
  ASSERT_EQ(xStreamBufferReset(rx), pdPASS);
  at(170);
  ASSERT_EQ(xMessageBufferSend(commands, "ping", 4, 0), 4u);
  at(180);
  ASSERT_EQ(xMessageBufferSend(commands, "pong", 4, 20), standinSTREAM_BUFFER_BLOCKED);
  ASSERT_EQ(running(), "writer");
  at(190);
  ASSERT_EQ(xMessageBufferReceive(commands, data, sizeof data, 0), 4u);
  EXPECT_EQ(std::memcmp(data, "ping", 4), 0);
  ASSERT_EQ(running(), "reader");
  at(200);
  ASSERT_EQ(xMessageBufferSend(commands, "pong", 4, 20), 4u);
  at(210);
  ASSERT_EQ(xStreamBufferReceive(rx, data, 8, 0), 0u);

  EXPECT_EQ(uxStreamBufferGetStreamBufferNumber(rx), 1u);
  EXPECT_EQ(uxStreamBufferGetStreamBufferNumber(commands), 2u);
  const std::string m = std::to_string(kMessageOf4);
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "stream_buffer_created"),
            (std::vector<std::string>{
                "stream_buffer_created ts=10 sb_id=1 kind=FRSBK_STREAM_BUFFER size=8",
                "stream_buffer_created ts=10 sb_id=2 kind=FRSBK_MESSAGE_BUFFER size=" + std::to_string(2 * kMessageOf4 - 1)}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_name"),
            (std::vector<std::string>{R"(stream_buffer_name sb_id=1 name="uart rx")"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_stream_buffer_receive"),
            (std::vector<std::string>{"curtask_block_on_stream_buffer_receive ts=110 sb_id=1 ticks_to_wait=50"}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_send"),
            (std::vector<std::string>{"stream_buffer_send ts=120 sb_id=1 bytes=3 fill_after=3",
                                      "stream_buffer_send ts=170 sb_id=2 bytes=4 fill_after=" + m,
                                      "stream_buffer_send ts=200 sb_id=2 bytes=4 fill_after=" + m}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_receive"),
            (std::vector<std::string>{"stream_buffer_receive ts=130 sb_id=1 bytes=3 fill_after=0",
                                      "stream_buffer_receive ts=150 sb_id=1 bytes=2 fill_after=3",
                                      "stream_buffer_receive ts=190 sb_id=2 bytes=4 fill_after=0"}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_send_from_isr"),
            (std::vector<std::string>{"stream_buffer_send_from_isr ts=140 sb_id=1 bytes=5 fill_after=5"}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_reset"), (std::vector<std::string>{"stream_buffer_reset ts=160 sb_id=1"}));
  EXPECT_EQ(texts_of(trace, "curtask_block_on_stream_buffer_send"),
            (std::vector<std::string>{"curtask_block_on_stream_buffer_send ts=180 sb_id=2 ticks_to_wait=20"}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_receive_failed"),
            (std::vector<std::string>{"stream_buffer_receive_failed ts=210 sb_id=1"}));

  const Converted c = convert("stream_buffers");
  expect_stream_buffer_scenario_view(c);
  EXPECT_EQ(c.view.track("uart rx fill", "").counter.front().first, 10u);
  EXPECT_TRUE(has_instant(c.view, "stream_buffer_receive_failed", 210));  // an instant with its fields
  vStreamBufferDelete(rx);  // the stand-in allocates buffers; LeakSanitizer checks they are freed
  vMessageBufferDelete(commands);
}

// A receive that times out: the task blocks, the tick wakes it, the call
// reads nothing and says so.
TEST_F(StreamBuffers, ReceiveTimesOut) {
  at(10);
  MessageBufferHandle_t replies = xMessageBufferCreate(32);
  tband_freertos_message_buffer_name(replies, "replies");
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "waiter", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  char data[8] = {};
  at(110);
  ASSERT_EQ(xMessageBufferReceive(replies, data, sizeof data, 2), standinSTREAM_BUFFER_BLOCKED);
  ASSERT_EQ(running(), "IDLE");
  for (std::uint64_t t : {120, 130}) {
    at(t);
    standin_tick();
  }
  ASSERT_EQ(running(), "waiter");
  at(140);
  EXPECT_EQ(xMessageBufferReceive(replies, data, sizeof data, 2), 0u);
  EXPECT_EQ(texts_of(events(), "stream_buffer_receive_failed"),
            (std::vector<std::string>{"stream_buffer_receive_failed ts=140 sb_id=1"}));
  const Converted c = convert("stream_buffer_timeout");
  EXPECT_EQ(slice_names(c.view.track("State", "waiter")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from replies", "Ready",
                                      "Running on core 0"}));
  vMessageBufferDelete(replies);
}

// A send into a full buffer that does not wait writes nothing and says so;
// the task does not block.
TEST_F(StreamBuffers, SendFailsWhenFull) {
  at(10);
  StreamBufferHandle_t tx = xStreamBufferCreate(4, 1);
  tband_freertos_stream_buffer_name(tx, "uart tx");
  at(20);
  ASSERT_EQ(xTaskCreate(nullptr, "sender", 128, nullptr, 2, nullptr), pdPASS);
  at(100);
  boot();
  at(110);
  ASSERT_EQ(xStreamBufferSend(tx, "abcd", 4, 0), 4u);
  at(120);
  ASSERT_EQ(xStreamBufferSend(tx, "e", 1, 0), 0u);
  ASSERT_EQ(running(), "sender");
  const std::vector<DecodedEvent> trace = events();
  EXPECT_EQ(texts_of(trace, "stream_buffer_send"),
            (std::vector<std::string>{"stream_buffer_send ts=110 sb_id=1 bytes=4 fill_after=4"}));
  EXPECT_EQ(texts_of(trace, "stream_buffer_send_failed"),
            (std::vector<std::string>{"stream_buffer_send_failed ts=120 sb_id=1"}));
  EXPECT_TRUE(texts_of(trace, "curtask_block_on_stream_buffer_send").empty());
  const Converted c = convert("stream_buffer_send_failed");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_TRUE(has_instant(c.view, "stream_buffer_send_failed", 120));  // an instant with its fields
  EXPECT_EQ(counter_values(c.view.track("uart tx fill", "")).back(), 4);
  EXPECT_EQ(slice_names(c.view.track("State", "sender")), (std::vector<std::string>{"Ready", "Running on core 0"}));
  vStreamBufferDelete(tx);
}

}  // namespace
}  // namespace tband::test
