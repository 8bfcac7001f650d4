// Compact timestamps on two cores (tband_configCOMPACT_TIMESTAMPS with
// TBAND_HOST_CORES 2): each core's stream, read by the host on its own as a
// per-core file is (`conv core0.bin@0 core1.bin@1`), announces them before
// its first timestamp after a start on any core and decodes to the very
// times the events were traced at: the cores take turns at random, with dense,
// sparse and huge steps, a start on each core and a phase where the stream
// hook drops frames of one core (its announcement among them). The same
// streams as files, through the tband binary: each dumps to the same times,
// and stats of both together counts no decode error. Built with link
// integrity too (runtime_compact_timestamps_cores_link): each stream
// announces integrity first, and the frames carry their trailers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "compact_workload.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;

constexpr const char* kAnnouncement = "compact_timestamps tag_bits=2 delta_bits=19";

struct Decoded {
  std::vector<std::string> lines;  // each frame: the event, "error" or "unknown" (time not known)
  std::uint64_t dropped = 0;       // the highest dropped_evt_cnt count (the tracer's total, all cores)
};

// A core's stream as the host reads FILE@core.
Decoded decode(std::span<const std::uint8_t> bytes, std::uint32_t core) {
  Decoded out;
  tband::StreamDecoder decoder{tband::CobsDeframer::kDefaultMaxFrameLen, core};
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
    if (!result.ok()) {
      out.lines.emplace_back(result.error().kind == tband::DecodeErrorKind::kTimestampUnknown ? "unknown" : "error");
      return;
    }
    const std::string line = tband::format_event(result.value());
    if (line.rfind("dropped_evt_cnt ", 0) == 0) {
      out.dropped = std::max<std::uint64_t>(out.dropped, std::stoull(line.substr(line.find(" cnt=") + 5)));
    }
    out.lines.push_back(line);
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  return out;
}

// What `cmd` printed (stdout), and its exit status.
std::pair<std::string, int> run_command(const std::string& cmd) {
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << cmd;
    return {out, -1};
  }
  for (int c = std::fgetc(pipe); c != EOF; c = std::fgetc(pipe)) {
    out.push_back(static_cast<char>(c));
  }
  return {out, pclose(pipe)};
}

// The number after `"key":` in a JSON line (the dump's flat objects), or -1.
long long json_number(const std::string& line, const std::string& key) {
  const std::size_t at = line.find("\"" + key + "\":");
  return at == std::string::npos ? -1 : std::stoll(line.substr(at + key.size() + 3));
}

class CompactTimestampsCores : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(5);
  }
  void TearDown() override {
    tband_host_set_core_id(0);
    (void)tband_stop_streaming();
  }
  TraceCapture capture;
};

TEST_F(CompactTimestampsCores, EachCoresStreamDecodesToTheTimesTraced) {
  tband_isr_name(7, "uart");
  std::map<std::uint32_t, std::uint64_t> traced_at;  // isr_id (the call's number) -> time
  std::map<std::uint32_t, unsigned> traced_on;     // isr_id -> core
  bool dropping = false;
  std::size_t phase_calls = 0;
  capture.set_drop_policy([&](unsigned core, std::size_t) { return dropping && core == 1 && ++phase_calls % 3 == 0; });
  ASSERT_EQ(tband_start_streaming(), 0);
  std::uint64_t t = 1000;
  std::uint32_t x = 7;
  for (std::uint32_t i = 1; i <= 4000; ++i) {
    const std::uint32_t r = tband::test::next_random(x);
    t += tband::test::compact_workload_step(static_cast<int>(i), r);
    tband_host_set_time(t);
    dropping = i >= 1200 && i < 1600;
    if (i == 2000 || i == 3000) {
      // Stopped and started again, on core 1 and then on core 0: the other core announces again.
      tband_host_set_core_id(i == 2000 ? 1 : 0);
      ASSERT_EQ(tband_stop_streaming(), 0);
      ASSERT_EQ(tband_start_streaming(), 0);
    }
    const unsigned core = r % 3 == 0 ? 1 : 0;  // runs of either core, core 0's the longer
    tband_host_set_core_id(core);
    r % 2 == 0 ? tband_isr_enter(i) : tband_isr_exit(i);
    traced_at[i] = t;
    traced_on[i] = core;
  }
  tband_host_set_core_id(0);
  ASSERT_EQ(tband_stop_streaming(), 0);
  capture.set_drop_policy(nullptr);
  EXPECT_GT(capture.dropped(1), 0u);
  const std::map<std::uint32_t, std::uint64_t> first_traced_at = traced_at;  // traced_at loses what is found

  std::uint64_t reported_dropped = 0;
  for (unsigned core = 0; core < 2; ++core) {
    SCOPED_TRACE("core " + std::to_string(core));
    const Decoded decoded = decode(capture.bytes(core), core);
    std::size_t announcements = 0;
    bool announced = false;
    for (const std::string& line : decoded.lines) {
      ASSERT_NE(line, "unknown");
      ASSERT_NE(line, "error");
      if (line == kAnnouncement) {
        ++announcements;
        announced = true;
        continue;
      }
      if (line.rfind("isr_enter ", 0) != 0 && line.rfind("isr_exit ", 0) != 0) {
        continue;  // isr_name, core_id, dropped_evt_cnt
      }
      // "isr_enter ts=T isr_id=I": at the time of call I, and announced before it.
      ASSERT_TRUE(announced) << line;
      const std::size_t ts_at = line.find(" ts=") + 4;
      const std::uint64_t ts = std::stoull(line.substr(ts_at));
      const auto id = static_cast<std::uint32_t>(std::stoul(line.substr(line.find(" isr_id=") + 8)));
      ASSERT_EQ(traced_at.count(id), 1u) << line;  // each event once
      EXPECT_EQ(ts, traced_at[id]) << line;
      EXPECT_EQ(traced_on[id], core) << line;
      traced_at.erase(id);
    }
    // Three starts: the one on this core announced on its stream, the others asked it to.
    EXPECT_EQ(announcements, 3u);
    reported_dropped = std::max(reported_dropped, decoded.dropped);
  }
  // What is in neither stream: core 1's events that the hook dropped, as many as the tracer reported.
  EXPECT_GT(traced_at.size(), 0u);
  for (const auto& [id, ts] : traced_at) {
    EXPECT_EQ(traced_on[id], 1u) << "isr_id " << id;
  }
  EXPECT_EQ(traced_at.size(), reported_dropped);

  // As two per-core files, through the CLI: `tband dump FILE@N` gives every
  // event the time the in-process decoder did, and `tband stats` of both
  // together counts no decode error and no unknown time.
  char dir_template[] = "/tmp/tband_compact_cores_XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir = dir_template;
  std::string inputs;
  for (unsigned core = 0; core < 2; ++core) {
    const std::filesystem::path file = dir / ("core" + std::to_string(core) + ".bin");
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(capture.bytes(core).data()),
               static_cast<std::streamsize>(capture.bytes(core).size()));
    const std::string input = file.string() + "@" + std::to_string(core);
    inputs += " '" + input + "'";
    const auto [dumped, status] = run_command(std::string{TBAND_CLI_EXE} + " dump --json --mode bare-metal '" + input + "'");
    EXPECT_EQ(status, 0) << input;
    std::size_t checked = 0;
    for (std::size_t begin = 0, end = 0; begin < dumped.size(); begin = end + 1) {
      end = dumped.find('\n', begin);
      const std::string line = dumped.substr(begin, end - begin);
      if (line.find("\"event\":\"isr_enter\"") == std::string::npos &&
          line.find("\"event\":\"isr_exit\"") == std::string::npos) {
        continue;
      }
      const auto id = static_cast<std::uint32_t>(json_number(line, "isr_id"));
      EXPECT_EQ(json_number(line, "core"), core) << line;
      EXPECT_EQ(json_number(line, "ts"), static_cast<long long>(first_traced_at.at(id))) << line;
      ++checked;
    }
    EXPECT_GT(checked, 500u) << dumped.substr(0, 2000);
  }
  const auto [stats, status] = run_command(std::string{TBAND_CLI_EXE} + " stats --json --mode bare-metal -c 2" + inputs);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(json_number(stats, "decode_errors"), 0) << stats.substr(0, 2000);
  std::filesystem::remove_all(dir);
}

TEST_F(CompactTimestampsCores, AnAnnouncementTheHookDropsGoesOutBeforeTheNextFrame) {
  capture.set_drop_policy([](unsigned core, std::size_t call) { return core == 1 && call == 0; });
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_core_id(1);
  tband_host_set_time(70000);
  tband_isr_enter(1);  // its announcement dropped: so is the event
  tband_host_set_time(70100);
  tband_isr_exit(1);
  tband_host_set_time(70150);
  tband_isr_enter(2);
  tband_host_set_core_id(0);
  ASSERT_EQ(tband_stop_streaming(), 0);
  std::vector<std::string> expected = {kAnnouncement, "dropped_evt_cnt ts=70100 cnt=1", "isr_exit ts=70100 isr_id=1",
                                       "isr_enter ts=70150 isr_id=2"};
  if (tband_configLINK_INTEGRITY == 1) {
    // The first frame the hook dropped was integrity's announcement, sent again ahead of this one.
    expected.insert(expected.begin(), "link_integrity seq_bits=16 crc_bits=16");
  }
  EXPECT_EQ(decode(capture.bytes(1), 1).lines, expected);
  EXPECT_EQ(capture.dropped(1), 1u);
}

}  // namespace
