// Compact timestamps (tband_configCOMPACT_TIMESTAMPS, one core): the same
// calls as in the default mode (compact_workload.hpp, run by
// runtime_compact_reference in a process of its own) decode to the same
// events at the same times, in fewer bytes; and the loss harness: the trace
// with each single frame taken out in turn never decodes an event at another
// time than the whole trace gives it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "compact_workload.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"

namespace {

using tband::test::TraceCapture;

constexpr const char* kAnnouncement = "compact_timestamps tag_bits=2 delta_bits=19";

// One line per frame, as runtime_compact_reference prints them: the event,
// "error", or for a time the host could not know "unknown".
std::vector<std::string> decode_lines(std::span<const std::uint8_t> bytes, std::uint64_t* unknown = nullptr) {
  std::vector<std::string> lines;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
    if (result.ok()) {
      lines.push_back(tband::format_event(result.value()));
    } else {
      lines.emplace_back(result.error().kind == tband::DecodeErrorKind::kTimestampUnknown ? "unknown" : "error");
    }
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  if (unknown != nullptr) {
    *unknown = decoder.timestamps_unknown();
  }
  return lines;
}

std::vector<std::string> reference_lines(std::size_t& bytes) {
  std::vector<std::string> lines;
  FILE* out = popen(TBAND_COMPACT_REFERENCE_EXE, "r");
  if (out == nullptr) {
    ADD_FAILURE() << "cannot run " << TBAND_COMPACT_REFERENCE_EXE;
    return lines;
  }
  std::string line;
  for (int c = std::fgetc(out); c != EOF; c = std::fgetc(out)) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line.push_back(static_cast<char>(c));
    }
  }
  EXPECT_EQ(pclose(out), 0);
  if (lines.empty() || lines.front().rfind("bytes ", 0) != 0) {
    ADD_FAILURE() << "runtime_compact_reference printed no size";
    return {};
  }
  bytes = std::stoul(lines.front().substr(6));
  lines.erase(lines.begin());
  return lines;
}

class CompactTimestamps : public ::testing::Test {
 protected:
  void TearDown() override { (void)tband_stop_streaming(); }
  TraceCapture capture;
};

TEST_F(CompactTimestamps, SameCallsDecodeAsInTheDefaultMode) {
  tband::test::run_compact_workload(capture);
  const std::vector<std::uint8_t>& bytes = capture.bytes(0);
  std::uint64_t unknown = 0;
  std::vector<std::string> compact = decode_lines(bytes, &unknown);
  EXPECT_EQ(unknown, 0u);
  // Announced at both starts; apart from that the very events of the default mode.
  std::size_t announcements = 0;
  std::erase_if(compact, [&](const std::string& line) {
    const bool is = line == kAnnouncement;
    announcements += is ? 1 : 0;
    return is;
  });
  EXPECT_EQ(announcements, 2u);
  std::size_t reference_bytes = 0;
  const std::vector<std::string> reference = reference_lines(reference_bytes);
  ASSERT_GT(reference.size(), static_cast<std::size_t>(tband::test::kCompactWorkloadCalls) / 2);
  EXPECT_EQ(compact, reference);
  EXPECT_LT(bytes.size(), reference_bytes);
  std::printf("bytes: default %zu, compact %zu (%zu frames)\n", reference_bytes, bytes.size(), reference.size());
}

// The frames of a stream: each one's bytes (with its 0x00) and whether it
// carries an absolute timestamp.
struct WireFrame {
  std::span<const std::uint8_t> bytes;
  bool absolute = false;
};

std::vector<WireFrame> split_frames(std::span<const std::uint8_t> bytes) {
  std::vector<WireFrame> frames;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == 0) {
      frames.push_back({bytes.subspan(begin, i + 1 - begin)});
      begin = i + 1;
    }
  }
  std::size_t at = 0;
  tband::CobsDeframer deframer;
  deframer.feed(bytes, [&](const tband::RawFrame& frame) {
    ASSERT_EQ(frame.error, nullptr);
    const tband::EventInfo* info = tband::find_event_info(frame.data[0]);
    ASSERT_NE(info, nullptr);
    // The tag is bit 0 of the varint's first byte.
    frames.at(at++).absolute = !info->is_metadata && frame.data[0] != 0x00 && (frame.data[1] & 1u) != 0;
  });
  EXPECT_EQ(at, frames.size());
  return frames;
}

TEST_F(CompactTimestamps, LosingAnyOneFrameShiftsNoLaterTimestamp) {
  tband::test::run_compact_workload(capture);
  const std::vector<WireFrame> frames = split_frames(capture.bytes(0));
  const std::vector<std::string> whole = decode_lines(capture.bytes(0));
  ASSERT_EQ(whole.size(), frames.size());
  std::size_t absolute = 0;
  std::size_t unknown_total = 0;
  std::vector<std::uint8_t> lossy;
  for (std::size_t lost = 0; lost < frames.size(); ++lost) {
    if (whole[lost] == kAnnouncement) {
      continue;  // without it the host reads the fields as plain times (target/README.md)
    }
    absolute += frames[lost].absolute ? 1 : 0;
    lossy.clear();
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (i != lost) {
        lossy.insert(lossy.end(), frames[i].bytes.begin(), frames[i].bytes.end());
      }
    }
    const std::vector<std::string> got = decode_lines(lossy);
    ASSERT_EQ(got.size() + 1, frames.size());
    // Every other frame decodes as in the whole trace, or, after a lost
    // absolute timestamp and until the next one, as an unknown time.
    bool next_absolute_seen = false;
    for (std::size_t i = 0, j = 0; i < frames.size(); ++i) {
      if (i == lost) {
        continue;
      }
      const std::string& line = got[j++];
      if (i > lost && frames[i].absolute) {
        next_absolute_seen = true;
      }
      if (line == whole[i]) {
        continue;
      }
      ASSERT_EQ(line, "unknown") << "frame " << i << " with frame " << lost << " lost: " << whole[i];
      ASSERT_TRUE(frames[lost].absolute && i > lost && !next_absolute_seen)
          << "frame " << i << " unknown with frame " << lost << " lost";
      ++unknown_total;
    }
  }
  EXPECT_GT(absolute, 10u);
  EXPECT_GT(unknown_total, 0u);
  std::printf("%zu frames, each lost in turn (%zu absolute): %zu events left without a time in all\n",
              frames.size(), absolute, unknown_total);
}

}  // namespace
