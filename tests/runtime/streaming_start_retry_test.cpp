// Streaming start over a lossy link, with tband_configBACKEND_STREAM_START_RETRIES:
// start hands the hook what it dropped again, and only that, so it starts
// although the sink drops every second frame and the host still gets every
// metadata frame once, in order. Built for two configurations: two cores
// frame by frame (2 retries), and one core through a staging buffer (1 retry).
// Without retries start gives up: streaming_test.cpp.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;

constexpr std::size_t kRetries = tband_configBACKEND_STREAM_START_RETRIES;
static_assert(kRetries > 0, "this test is for a configuration with start retries");
constexpr bool kStaged = tband_configBACKEND_STREAM_STAGING_BUF_SIZE > 0;
constexpr unsigned kLastCore = TBAND_HOST_CORES - 1;

class StartRetry : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
    tband_host_reset_stream_retry_waits();
  }
  void TearDown() override {
    (void)tband_stop_streaming();
    tband_host_set_core_id(0);
  }

  // Names on every core, and more than the last core's 64-byte buffer holds
  // (24 bytes per name frame: two fit, two are lost), so start sends every
  // kind of data: reports, metadata buffers and a metadata_overflow event.
  static void name_things() {
    tband_host_set_time(5);
    tband_gather_system_metadata();
    tband_isr_name(1, "uart");
    tband_host_set_core_id(kLastCore);
    for (std::uint32_t id = 10; id < 14; ++id) {
      tband_valmarker_name(id, "twenty bytes exactly");
    }
    tband_host_set_core_id(0);
  }

  // What start sends: read off the configuration, not the tracer.
  static std::vector<std::string> start_events() {
    std::vector<std::string> events = {"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                       "ts_resolution_ns ns_per_ts=1", "isr_name isr_id=1 name=\"uart\""};
    if (kLastCore != 0) {
      events.push_back("core_id ts=0 core_id=" + std::to_string(kLastCore));
    }
    events.push_back("valmarker_name valmarker_id=10 name=\"twenty bytes exactly\"");
    events.push_back("valmarker_name valmarker_id=11 name=\"twenty bytes exactly\"");
    events.push_back("metadata_overflow ts=5 core_id=" + std::to_string(kLastCore) + " lost_evts=2 lost_bytes=48");
    events.push_back("core_id ts=0 core_id=0");
    return events;
  }

  // Every start at the time of the names: metadata_overflow is stamped when it is sent.
  static int start() {
    tband_host_set_time(5);
    return tband_start_streaming();
  }

  // Starts and stops over a link that drops nothing: start's bytes and how
  // many hook calls carried them. Leaves the capture empty.
  std::vector<std::uint8_t> start_without_drops(std::size_t& calls) {
    tband_host_reset_stream_retry_waits();
    EXPECT_EQ(start(), 0);
    EXPECT_EQ(tband_stop_streaming(), 0);
    const std::vector<std::uint8_t> bytes = capture.bytes(0);
    calls = capture.calls(0);
    EXPECT_EQ(capture.dropped(0), 0u);
    EXPECT_EQ(tband_host_stream_retry_waits(), 0u) << "nothing dropped, nothing resent";
    capture.clear();
    return bytes;
  }

  // Streaming runs: an event after start is traced behind the metadata (and
  // behind the reports the core owes; with one core its own metadata_overflow).
  void expect_streaming_after_start() {
    EXPECT_TRUE(tband_tracing_enabled());
    capture.set_drop_policy(nullptr);
    capture.set_max_call_len(0);
    tband_host_set_time(10);
    tband_isr_enter(1);
    ASSERT_EQ(tband_stop_streaming(), 0);
    const std::vector<std::string> events = capture.events(0);
    const std::vector<std::string> expected = start_events();
    ASSERT_GT(events.size(), expected.size());
    EXPECT_EQ(std::vector<std::string>(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(expected.size())),
              expected);
    EXPECT_EQ(events.back(), "isr_enter ts=10 isr_id=1");
  }

  TraceCapture capture;
};

TEST_F(StartRetry, EverySecondFrameDroppedStartsAndTheHostGetsEachFrameOnce) {
  name_things();
  std::size_t pieces = 0;
  const std::vector<std::uint8_t> clean = start_without_drops(pieces);
  ASSERT_EQ(tband::test::texts(tband::test::decode_stream(clean)), start_events());
  if (!kStaged) {
    EXPECT_EQ(pieces, start_events().size()) << "with retries every hook call carries one frame";
  }

  for (const std::size_t first_dropped : {std::size_t{1}, std::size_t{0}}) {
    SCOPED_TRACE("the sink drops call " + std::to_string(first_dropped) + " and every second one after it");
    capture.set_drop_policy([=](unsigned, std::size_t call) { return call % 2 == first_dropped; });
    tband_host_reset_stream_retry_waits();
    ASSERT_EQ(start(), 0);
    EXPECT_EQ(capture.bytes(0), clean) << "every frame once, in order, as over a link that drops nothing";
    EXPECT_EQ(capture.events(0), start_events());
    // Each piece after the first (or each piece) was dropped once and handed over once more.
    EXPECT_EQ(capture.dropped(0), first_dropped == 0 ? pieces : pieces - 1);
    EXPECT_EQ(capture.calls(0), pieces + capture.dropped(0)) << "only dropped data is handed over again";
    EXPECT_EQ(tband_host_stream_retry_waits(), capture.dropped(0)) << "the port waits before each resend";
    EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u) << "what start sends is no hook call";
    expect_streaming_after_start();
    capture.clear();
  }
}

TEST_F(StartRetry, AsManyDropsInARowAsRetriesStillStart) {
  name_things();
  std::size_t pieces = 0;
  const std::vector<std::uint8_t> clean = start_without_drops(pieces);
  // Each piece is dropped kRetries times, then taken.
  capture.set_drop_policy([](unsigned, std::size_t call) { return call % (kRetries + 1) != kRetries; });
  ASSERT_EQ(start(), 0);
  EXPECT_EQ(capture.bytes(0), clean);
  EXPECT_EQ(capture.dropped(0), pieces * kRetries);
  EXPECT_EQ(tband_host_stream_retry_waits(), pieces * kRetries);
  expect_streaming_after_start();
}

TEST_F(StartRetry, RetriesAreBounded) {
  name_things();
  capture.set_drop_policy([](unsigned, std::size_t) { return true; });
  EXPECT_EQ(start(), -2);
  EXPECT_EQ(capture.calls(0), 1 + kRetries) << "the first piece, then its retries; nothing after it";
  EXPECT_EQ(tband_host_stream_retry_waits(), kRetries);
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);

  // One more drop than there are retries, at the last piece: start gives up there.
  std::size_t pieces = 0;
  capture.set_drop_policy(nullptr);
  capture.clear();
  (void)start_without_drops(pieces);
  capture.set_drop_policy([&](unsigned, std::size_t call) { return call + 1 >= pieces; });
  EXPECT_EQ(start(), -2);
  EXPECT_EQ(capture.calls(0), pieces + kRetries);
  EXPECT_FALSE(tband_tracing_enabled());

  capture.set_drop_policy(nullptr);
  capture.clear();
  ASSERT_EQ(start(), 0) << "a later start sends everything again";
  EXPECT_EQ(capture.events(0), start_events());
}

// The link: a non-blocking RTT up-buffer smaller than a core's
// metadata buffer takes a frame but never the whole buffer at once. With
// retries start hands the metadata over frame by frame (without, it is one
// call and start fails: streaming_test.cpp).
TEST_F(StartRetry, ALinkSmallerThanTheMetadataBufferTakesItFrameByFrame) {
  name_things();
  ASSERT_GT(tband_get_metadata_buf_amnt(kLastCore), 32u);
  capture.set_max_call_len(32);
  ASSERT_EQ(start(), 0);
  EXPECT_EQ(capture.dropped(0), 0u) << "no call was longer than the link takes";
  EXPECT_EQ(capture.events(0), start_events());
  expect_streaming_after_start();
}

}  // namespace
