// Streaming backend through a staging buffer (64 bytes, one core): the stream
// carries exactly the bytes of the frame-by-frame stream, in batches of at
// most the buffer's size; frames wait until the buffer is full, flushed or
// tracing stops; a dropped batch is counted, every hook call in it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tband.h"
#include "tband_encode.hpp"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::frame_of;
using tband::test::TraceCapture;
namespace enc = tband::enc;

constexpr std::size_t kStaging = tband_configBACKEND_STREAM_STAGING_BUF_SIZE;

class StagedStreaming : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  void TearDown() override { (void)tband_stop_streaming(); }

  TraceCapture capture;
};

void append(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& frame) {
  out.insert(out.end(), frame.begin(), frame.end());
}

// Every kind of event hook, long and short strings, varlens of every length:
// the same bytes as the reference tracer's frame-by-frame stream.
TEST_F(StagedStreaming, StreamsTheBytesOfTheFrameByFrameStream) {
  tband_gather_system_metadata();
  tband_isr_name(3, "timer");
  ASSERT_EQ(tband_start_streaming(), 0);

  std::vector<std::uint8_t> expected;
  // Start sends the resolution ahead of every core's metadata (issue 16).
  append(expected, frame_of([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); }));
  append(expected, frame_of([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); }));
  append(expected, frame_of([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); }));
  append(expected, frame_of([](std::uint8_t* b) { return enc::encode_isr_name(b, 3, "timer"); }));
  append(expected, frame_of([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); }));
  constexpr int kCalls = 300;
  for (int i = 0; i < kCalls; ++i) {
    const std::uint64_t ts = std::uint64_t{1} << (i % 64);
    tband_host_set_time(ts);
    if (i % 51 == 0) {  // the periodic counter: before the first event, then every 51st
      append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, ts, 0); }));
    }
    const auto id = static_cast<std::uint32_t>(i * 2654435761u);
    switch (i % 6) {
      case 0:
        tband_isr_enter(id);
        append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_isr_enter(b, ts, id); }));
        break;
      case 1:
        tband_evtmarker_begin(id, "a message longer than twenty bytes");
        append(expected, frame_of([&](std::uint8_t* b) {
                 return enc::encode_evtmarker_begin(b, ts, id, "a message longer than twenty bytes");
               }));
        break;
      case 2:
        tband_valmarker(id, -static_cast<std::int64_t>(ts));
        append(expected, frame_of([&](std::uint8_t* b) {
                 return enc::encode_valmarker(b, ts, id, -static_cast<std::int64_t>(ts));
               }));
        break;
      case 3:
        tband_evtmarker(id, "");
        append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_evtmarker(b, ts, id, ""); }));
        break;
      case 4:
        tband_evtmarker_end(id);
        append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, ts, id); }));
        break;
      default:
        tband_isr_exit(id);
        append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_isr_exit(b, ts, id); }));
        break;
    }
  }
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(capture.bytes(0), expected);
  EXPECT_LT(capture.calls(0), static_cast<std::size_t>(kCalls)) << "frames go out in batches";
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
}

TEST_F(StagedStreaming, FramesWaitUntilFlushedOrStopped) {
  ASSERT_EQ(tband_start_streaming(), 0);
  const auto start = capture.bytes(0);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0"})) << "start flushes";
  tband_host_set_time(10);
  tband_isr_enter(1);
  EXPECT_EQ(capture.bytes(0), start) << "staged, not streamed yet";
  EXPECT_EQ(tband_flush_streaming(), 0);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                                         "dropped_evt_cnt ts=10 cnt=0", "isr_enter ts=10 isr_id=1"}));
  const std::size_t calls = capture.calls(0);
  EXPECT_EQ(tband_flush_streaming(), 0);
  EXPECT_EQ(capture.calls(0), calls) << "nothing staged: the hook is not called";
  tband_isr_exit(1);
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(capture.events(0).back(), "isr_exit ts=10 isr_id=1") << "stop flushes";
  tband_isr_enter(2);  // not traced
  EXPECT_EQ(tband_flush_streaming(), 0);
  EXPECT_EQ(capture.events(0).back(), "isr_exit ts=10 isr_id=1");
}

TEST_F(StagedStreaming, BatchesNeverExceedTheBuffer) {
  std::vector<std::size_t> sizes;
  tband::test::TraceCapture::DropPolicy record = [&](unsigned, std::size_t) { return false; };
  capture.set_drop_policy(record);
  ASSERT_EQ(tband_start_streaming(), 0);
  for (int i = 0; i < 200; ++i) {
    tband_host_set_time(static_cast<std::uint64_t>(i) << 40);
    tband_evtmarker(static_cast<std::uint32_t>(i), "twenty bytes exactly");
  }
  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::size_t bytes = capture.bytes(0).size();
  EXPECT_GE(capture.calls(0) * kStaging, bytes);
  EXPECT_EQ(tband::test::decode_stream(capture.bytes(0)).size(), 2u + 200u + 4u)
      << "ts_resolution_ns, core_id, events, counters";
}

// Every hook call is in the trace or counted, also when whole batches are lost.
TEST_F(StagedStreaming, DroppedBatchesAreCountedExactly) {
  ASSERT_EQ(tband_start_streaming(), 0);
  capture.set_drop_policy([](unsigned, std::size_t call) { return call % 7 == 3 || call % 11 == 5; });
  constexpr std::int64_t kCalls = 1000;
  for (std::int64_t i = 0; i < kCalls; ++i) {
    tband_host_set_time(static_cast<std::uint64_t>(i));
    tband_valmarker(1, i);
  }
  capture.set_drop_policy(nullptr);
  tband_valmarker(1, kCalls);  // carries the final count
  ASSERT_EQ(tband_stop_streaming(), 0);

  std::size_t delivered = 0;
  std::uint32_t last_count = 0;
  std::int64_t previous = -1;
  for (const auto& event : capture.decoded(0)) {
    if (event.dropped_cnt) {
      EXPECT_GE(*event.dropped_cnt, last_count) << "the count never goes down";
      last_count = *event.dropped_cnt;
    } else if (event.value) {
      ASSERT_GT(*event.value, previous) << "events arrive in call order";
      previous = *event.value;
      ++delivered;
    }
  }
  const std::size_t missing = static_cast<std::size_t>(kCalls + 1) - delivered;
  EXPECT_GT(missing, 100u) << "the policy must really drop batches";
  EXPECT_EQ(previous, kCalls);
  EXPECT_EQ(last_count, missing) << "every call is in the trace or counted";
  EXPECT_EQ(tband_get_dropped_evt_cnt(), missing);
}

TEST_F(StagedStreaming, FlushReportsADroppedBatch) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_isr_enter(1);
  tband_isr_exit(1);
  capture.set_drop_policy([](unsigned, std::size_t) { return true; });
  EXPECT_EQ(tband_flush_streaming(), -1);
  capture.set_drop_policy(nullptr);
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 2u) << "both hook calls; the counter sent with them is no hook call";
  tband_isr_enter(2);
  ASSERT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                                         "dropped_evt_cnt ts=0 cnt=2", "isr_enter ts=0 isr_id=2"}));
}

// Start flushes the staged core_id before it streams the metadata buffer, and
// once more after the last core_id; what it loses there is no hook call.
TEST_F(StagedStreaming, StartFailsWithoutCountingWhenAStagedCoreIdIsDropped) {
  tband_evtmarker_name(4, "rx");
  for (const std::size_t lost_call : {0u, 2u}) {  // the first core_id, the last one
    capture.clear();
    capture.set_drop_policy([lost_call](unsigned, std::size_t call) { return call == lost_call; });
    EXPECT_EQ(tband_start_streaming(), -2) << "call " << lost_call;
    EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
  }
  capture.set_drop_policy(nullptr);
  capture.clear();
  ASSERT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(capture.calls(0), 3u) << "ts_resolution_ns and core_id, metadata buffer, core_id";
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                                         "evtmarker_name evtmarker_id=4 name=\"rx\"",
                                                         "core_id ts=0 core_id=0"}));
}

}  // namespace
