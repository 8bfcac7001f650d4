// The control channel (streaming, one core): command frames fed whole, in
// pieces, corrupted, oversized, unknown; what the tracer carries out at
// tband_rx_poll(), what it acknowledges (ctl_ack) and what it counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ctl/protocol.hpp"
#include "tband.h"
#include "tband_user_events.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;
using Bytes = std::vector<std::uint8_t>;

// COBS(payload + CRC-16 big-endian) 0x00: a command frame as the host's
// tband ctl and tband record --send build it (host/ctl/protocol.hpp).
Bytes frame(const Bytes& payload) { return tband::ctl::encode_payload(payload); }

void feed(const Bytes& bytes) { tband_rx_feed(bytes.data(), bytes.size()); }

tband_rx_counts counts() {
  tband_rx_counts c{};
  tband_rx_get_counts(&c);
  return c;
}

std::string ack(unsigned cmd, unsigned status, unsigned value = 0, unsigned ts = 0) {
  return "ctl_ack ts=" + std::to_string(ts) + " cmd=" + std::to_string(cmd) + " status=" + std::to_string(status) +
         " value=" + std::to_string(value);
}

class Control : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  void TearDown() override { (void)tband_stop_streaming(); }

  std::vector<std::string> events() const { return capture.events(0, false); }

  TraceCapture capture;
};

TEST_F(Control, FrameFormatIsCobsOfCommandAndCrc) {
  // start: payload 01, CRC-16/CCITT-FALSE of {0x01} is 0xF1D1.
  EXPECT_EQ(frame({0x01}), (Bytes{0x04, 0x01, 0xF1, 0xD1, 0x00}));
}

TEST_F(Control, NothingHappensBeforePoll) {
  feed(frame({0x01}));
  EXPECT_FALSE(tband_tracing_enabled()) << "feed only queues";
  EXPECT_EQ(counts().accepted, 1u);
  EXPECT_TRUE(capture.bytes(0).empty());
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_EQ(tband_rx_poll(), 0u) << "carried out once";
}

TEST_F(Control, StartStopRestartAcknowledged) {
  tband_isr_name(3, "adc");
  tband_host_set_time(10);
  feed(frame({0x01}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  tband_isr_enter(3);
  feed(frame({0x02}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_FALSE(tband_tracing_enabled());
  tband_isr_exit(3);  // not traced: stopped
  feed(frame({0x02}));  // refused: not on; still answered
  feed(frame({0x07}));  // restart, no metadata
  EXPECT_EQ(tband_rx_poll(), 2u);
  EXPECT_TRUE(tband_tracing_enabled());
  EXPECT_EQ(events(), (std::vector<std::string>{
                          "ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0", "isr_name isr_id=3 name=\"adc\"",
                          "core_id ts=0 core_id=0", ack(1, 0, 0, 10), "isr_enter ts=10 isr_id=3",
                          ack(2, 0, 0, 10), ack(2, 1, 0, 10), ack(7, 0, 0, 10)}));
}

TEST_F(Control, MetadataResentWhileStreaming) {
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_evtmarker_name(4, "loop");
  capture.clear();  // a host that attaches now has missed every name
  tband_host_set_time(20);
  feed(frame({0x03}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_EQ(events(), (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "core_id ts=0 core_id=0",
                                                "evtmarker_name evtmarker_id=4 name=\"loop\"", "core_id ts=0 core_id=0",
                                                ack(3, 0, 0, 20)}));
  ASSERT_EQ(tband_stop_streaming(), 0);
  capture.clear();
  feed(frame({0x03}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_EQ(events(), (std::vector<std::string>{ack(3, 1, 0, 20)})) << "not streaming: refused, answered";
}

TEST_F(Control, QueriesAnswerDroppedAndRejected) {
  ASSERT_EQ(tband_start_streaming(), 0);
  const std::size_t next = capture.calls(0);
  capture.set_drop_policy([next](unsigned, std::size_t call) { return call == next; });
  tband_evtmarker(1, "lost");
  capture.set_drop_policy(nullptr);
  Bytes bad = frame({0x05});
  bad[2] ^= 0x01;
  feed(bad);
  feed(frame({0x05}));
  feed(frame({0x06}));
  EXPECT_EQ(tband_rx_poll(), 2u);
  const std::vector<std::string> got = events();
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(got[got.size() - 2], ack(5, 0, 1)) << "one event dropped";
  EXPECT_EQ(got.back(), ack(6, 0, 1)) << "one frame rejected (bad CRC)";
}

TEST_F(Control, SplitIntoPiecesOfEveryLength) {
  const Bytes whole = frame({0x05});
  for (std::size_t piece = 1; piece <= whole.size(); ++piece) {
    for (std::size_t at = 0; at < whole.size(); at += piece) {
      tband_rx_feed(whole.data() + at, std::min(piece, whole.size() - at));
    }
    EXPECT_EQ(tband_rx_poll(), 1u) << "pieces of " << piece;
  }
  const tband_rx_counts c = counts();
  EXPECT_EQ(c.accepted, whole.size());
  EXPECT_EQ(c.bad_crc + c.malformed + c.overflow + c.busy, 0u);
  for (std::size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(events()[i], ack(5, 0, 0));
  }
}

TEST_F(Control, CorruptedFramesAreCountedNeverActedOn) {
  const Bytes good = frame({0x01});
  std::uint32_t fed = 0;
  // Every single-bit flip of every byte but the delimiter: the CRC or COBS catches it.
  for (std::size_t i = 0; i + 1 < good.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes bad = good;
      bad[i] ^= static_cast<std::uint8_t>(1u << bit);
      feed(bad);
      feed({0x00});  // a flip to 0x00 split the frame: end the rest
      ++fed;
    }
  }
  EXPECT_EQ(tband_rx_poll(), 0u);
  EXPECT_FALSE(tband_tracing_enabled());
  const tband_rx_counts c = counts();
  EXPECT_EQ(c.accepted, 0u);
  EXPECT_GE(c.bad_crc + c.malformed, fed);
  feed(good);  // the channel is in step again at once
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_TRUE(tband_tracing_enabled());
}

TEST_F(Control, ShortCutAndEmptyFramesAreMalformed) {
  feed({0x00, 0x00});           // delimiters alone: nothing
  feed({0x01, 0x00});           // an empty frame
  feed({0x02, 0x01, 0x00});     // one byte: no room for a CRC
  feed({0x05, 0x01, 0x00});     // a block cut by the delimiter
  EXPECT_EQ(counts().malformed, 3u);
  EXPECT_EQ(tband_rx_poll(), 0u);
}

TEST_F(Control, OversizedFrameRejectedAndNextOneTaken) {
  Bytes payload(tband_configCONTROL_RX_BUF_SIZE, 0x05);  // with its CRC, 2 bytes too long
  feed(frame(payload));
  EXPECT_EQ(counts().overflow, 1u);
  payload.resize(tband_configCONTROL_RX_BUF_SIZE - 2);  // fits exactly: a known command, bad arguments
  feed(frame(payload));
  feed(frame({0x05}));
  EXPECT_EQ(counts().overflow, 1u);
  EXPECT_EQ(tband_rx_poll(), 2u);
  EXPECT_EQ(events(), (std::vector<std::string>{ack(5, 5), ack(5, 0)}));
}

TEST_F(Control, UnknownCommandAnsweredNotActedOn) {
  feed(frame({0x7E}));
  feed(frame({0x00}));  // a zero command byte goes through COBS like any other
  EXPECT_EQ(tband_rx_poll(), 2u);
  EXPECT_EQ(events(), (std::vector<std::string>{ack(0x7E, 4), ack(0, 4)}));
  EXPECT_FALSE(tband_tracing_enabled());
}

TEST_F(Control, FullQueueCountsBusy) {
  for (int i = 0; i < 6; ++i) {
    feed(frame({0x05}));
  }
  const tband_rx_counts c = counts();
  EXPECT_EQ(c.accepted, 4u);
  EXPECT_EQ(c.busy, 2u);
  EXPECT_EQ(tband_rx_poll(), 4u);
  feed(frame({0x06}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_EQ(events().back(), ack(6, 0, 2));
}

TEST_F(Control, SnapshotIsNotInAStreamingBuild) {
  feed(frame({0x04}));
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_EQ(events(), (std::vector<std::string>{ack(4, 3)}));
}

TEST_F(Control, FilterCommandsSilenceAnIsrAnEventAndAGroup) {
  ASSERT_EQ(tband_start_streaming(), 0);
  capture.clear();
  const auto send = [](const char* line) { feed(tband::ctl::encode_frame(tband::ctl::parse_command(line))); };
  send("filter -isr 3");
  EXPECT_EQ(tband_rx_poll(), 1u);
  EXPECT_FALSE(tband_filter_object_traced(TBAND_FILTER_KEY_ISR_ID, 3));
  tband_isr_enter(3);  // filtered
  tband_isr_enter(4);
  send("filter -event evtmarker");
  send("filter -group key:valmarker_id");
  EXPECT_EQ(tband_rx_poll(), 2u);
  EXPECT_FALSE(tband_filter_event_traced(7));  // evtmarker
  tband_evtmarker(1, "filtered");
  tband_valmarker(1, 5);  // filtered
  tband_evtmarker_begin(1, "");
  send("filter +isr 3");
  send("filter clear");
  EXPECT_EQ(tband_rx_poll(), 2u);
  EXPECT_TRUE(tband_filter_event_traced(7));
  tband_isr_enter(3);
  std::vector<std::string> got;
  for (const std::string& text : events()) {
    if (text.rfind("filter_", 0) != 0) {  // the filter's own events say what changed; counted below
      got.push_back(text);
    }
  }
  EXPECT_EQ(got, (std::vector<std::string>{ack(0x0A, 0), "isr_enter ts=0 isr_id=4", ack(0x08, 0), ack(0x09, 0),
                                           "evtmarker_begin ts=0 evtmarker_id=1 msg=\"\"", ack(0x0A, 0),
                                           ack(0x0B, 0), "isr_enter ts=0 isr_id=3"}));
  EXPECT_EQ(events().size() - got.size(), 5u) << "one filter event per change";
}

TEST_F(Control, FilterCommandsRefusedOrBadArguments) {
  const auto send = [](const char* line) { feed(tband::ctl::encode_frame(tband::ctl::parse_command(line))); };
  send("filter -group nosuchgroup");
  send("filter -event ctl_ack");  // taken, but the answers bypass the filter: this one and the next come
  feed(frame({0x08, 7}));         // filter_event without its traced byte
  feed(frame({0x0A, 1, 2, 0, 0, 0, 3}));  // traced byte 2
  EXPECT_EQ(tband_rx_poll(), 4u);
  EXPECT_EQ(events(), (std::vector<std::string>{ack(0x09, 1), ack(0x08, 0), ack(0x08, 5), ack(0x0A, 5)}));
}

TEST_F(Control, HostKeysAreTheFirmwaresKeys) {
  EXPECT_EQ(tband::ctl::parse_command("filter -isr 3").args[0], TBAND_FILTER_KEY_ISR_ID);
  EXPECT_EQ(tband::ctl::parse_command("filter -evtmarker 3").args[0], TBAND_FILTER_KEY_EVTMARKER_ID);
  EXPECT_EQ(tband::ctl::parse_command("filter -valmarker 3").args[0], TBAND_FILTER_KEY_VALMARKER_ID);
  EXPECT_EQ(tband::ctl::parse_command("filter -task 3").args[0], TBAND_FILTER_KEY_TASK_ID);
  EXPECT_EQ(tband::ctl::parse_command("filter -queue 3").args[0], TBAND_FILTER_KEY_QUEUE_ID);
}

}  // namespace
