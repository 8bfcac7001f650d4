// The control channel with link integrity (one core): the host checks every
// frame once the trace announced integrity, so every acknowledgement must
// carry its trailer, those sent while tracing is off (straight to the stream
// hook, not through the event path) too: a stop's, a refused command's.
// Before the first start the host reads frames as they are: an answer then
// has no trailer.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "control_command.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::carry_out_command;
using tband::test::TraceCapture;

struct Decoded {
  std::vector<std::string> events;  // what decoded; "error" for anything else
  tband::LinkCheck::Totals link;
};

Decoded decode(std::span<const std::uint8_t> bytes) {
  Decoded out;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
    out.events.push_back(result.ok() ? tband::format_event(result.value()) : "error");
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  out.link = decoder.link_totals();
  return out;
}

TEST(ControlLink, AcknowledgementsWhileStoppedCarryTheirTrailer) {
  TraceCapture capture;
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(5);
  carry_out_command(0x05);  // a query before any start: no trailer, the host reads it as it is
  tband_host_set_time(10);
  carry_out_command(0x01);  // start
  tband_host_set_time(20);
  carry_out_command(0x02);  // stop: answered after tracing stopped
  tband_host_set_time(30);
  carry_out_command(0x02);  // stop again: refused, answered while off
  tband_host_set_time(40);
  carry_out_command(0x07);  // restart
  tband_host_set_time(50);
  carry_out_command(0x02);
  const Decoded d = decode(capture.bytes(0));
  EXPECT_EQ(d.link.corrupt, 0u);
  EXPECT_EQ(d.link.lost, 0u);
  EXPECT_EQ(d.link.stale, 0u);
  std::vector<std::string> acks;
  for (const std::string& e : d.events) {
    EXPECT_NE(e, "error");
    if (e.rfind("ctl_ack ", 0) == 0) {
      acks.push_back(e);
    }
  }
  EXPECT_EQ(acks.size(), 6u) << ::testing::PrintToString(d.events);
}

}  // namespace
