// The control channel on two cores, with link integrity and compact
// timestamps: core 0 takes the commands while core 1 traces. A metadata
// resend replays core 1's names with core 1's sequence numbers on core 0's
// stream, so core 1 announces integrity (and compact timestamps) again on its
// own stream; a restart after events stamped while tracing was off; each
// core's stream, read as the host reads FILE@N, has every event at the time
// it was traced, no link loss and no unknown time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <thread>
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

constexpr const char* kLinkAnnouncement = "link_integrity seq_bits=16 crc_bits=16";
constexpr const char* kCompactAnnouncement = "compact_timestamps tag_bits=2 delta_bits=19";

struct Decoded {
  std::vector<std::string> lines;  // each frame: the event, or "error" / "unknown"
  tband::LinkCheck::Totals link;
  std::uint64_t unknown = 0;
};

Decoded decode(std::span<const std::uint8_t> bytes, std::uint32_t core) {
  Decoded out;
  tband::StreamDecoder decoder{tband::CobsDeframer::kDefaultMaxFrameLen, core};
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
    if (result.ok()) {
      out.lines.push_back(tband::format_event(result.value()));
    } else {
      out.lines.emplace_back(result.error().kind == tband::DecodeErrorKind::kTimestampUnknown ? "unknown" : "error");
    }
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  out.link = decoder.link_totals();
  out.unknown = decoder.timestamps_unknown();
  return out;
}

TEST(ControlCores, ResendAndRestartWhileTheOtherCoreTraces) {
  TraceCapture capture;
  tband_host_set_core_id(0);
  tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  tband_host_set_time(5);
  tband_isr_name(7, "uart");
  std::map<std::uint32_t, std::uint64_t> traced_at;  // isr_id -> time, core 1's events that tracing took
  std::uint64_t t = 100;
  std::uint32_t id = 0;
  const auto on_core1 = [&](int events, bool taken) {
    std::thread([&] {
      tband_host_set_core_id(1);
      for (int i = 0; i < events; ++i) {
        t += 37 + 500 * (i % 3);
        tband_host_set_time(t);
        tband_isr_enter(++id);
        if (taken) {
          traced_at[id] = t;
        }
      }
    }).join();
  };
  carry_out_command(0x01);  // start, on core 0
  on_core1(20, true);
  std::thread([] {
    tband_host_set_core_id(1);
    tband_isr_name(8, "spi");  // a name of core 1's, in its metadata buffer
  }).join();
  t += 10;
  tband_host_set_time(t);
  carry_out_command(0x03);  // metadata: core 1's names replayed on core 0's stream
  on_core1(20, true);
  carry_out_command(0x02);  // stop
  t += 1 << 20;  // far from core 1's anchor: the events off make absolute ones
  on_core1(5, false);  // stamped, not sent: no anchor the host knows
  carry_out_command(0x07);  // restart
  on_core1(20, true);
  carry_out_command(0x02);

  const Decoded core0 = decode(capture.bytes(0), 0);
  const Decoded core1 = decode(capture.bytes(1), 1);
  for (const Decoded* d : {&core0, &core1}) {
    EXPECT_EQ(d->link.lost, 0u);
    EXPECT_EQ(d->link.corrupt, 0u);
    EXPECT_EQ(d->link.stale, 0u);
    EXPECT_EQ(d->unknown, 0u);
    EXPECT_EQ(std::count(d->lines.begin(), d->lines.end(), "error"), 0) << ::testing::PrintToString(d->lines);
  }
  // Core 0 answered every command (with 0, done) and replayed core 1's name.
  for (const int cmd : {1, 3, 2, 7}) {
    const std::string done = " cmd=" + std::to_string(cmd) + " status=0 ";
    EXPECT_TRUE(std::any_of(core0.lines.begin(), core0.lines.end(), [&](const std::string& l) {
      return l.rfind("ctl_ack ", 0) == 0 && l.find(done) != std::string::npos;
    })) << cmd << ": " << ::testing::PrintToString(core0.lines);
  }
  EXPECT_EQ(std::count(core0.lines.begin(), core0.lines.end(), "isr_name isr_id=8 name=\"spi\""), 1);
  // Core 1 announced both at its first frame after the start and after the resend.
  EXPECT_EQ(std::count(core1.lines.begin(), core1.lines.end(), kLinkAnnouncement), 2);
  EXPECT_EQ(std::count(core1.lines.begin(), core1.lines.end(), kCompactAnnouncement), 2);
  std::size_t found = 0;
  for (const std::string& line : core1.lines) {
    if (line.rfind("isr_enter ", 0) != 0) {
      continue;
    }
    const auto isr = static_cast<std::uint32_t>(std::stoul(line.substr(line.find(" isr_id=") + 8)));
    ASSERT_EQ(traced_at.count(isr), 1u) << line;
    EXPECT_EQ(line, "isr_enter ts=" + std::to_string(traced_at[isr]) + " isr_id=" + std::to_string(isr));
    ++found;
  }
  EXPECT_EQ(found, traced_at.size());
}

}  // namespace
