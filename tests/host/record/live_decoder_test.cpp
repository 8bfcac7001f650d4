// Decoding while recording: however the bytes arrive (one at a time, whole
// frames, frames split anywhere, several sources interleaved), the events and
// diagnostics are those of the whole trace pushed at once; gaps in a source.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "record/live_decoder.hpp"
#include "scheduler_trace.hpp"

namespace tband::record {
namespace {

using Bytes = std::vector<std::uint8_t>;

// What a decoder ended with, compared as a whole.
struct Outcome {
  std::uint64_t events = 0;
  std::uint64_t decode_errors = 0;
  std::uint64_t dropped_events = 0;
  std::array<std::uint64_t, static_cast<std::size_t>(DiagnosticKind::kCount)> counts{};
  std::vector<std::string> kept;
  std::string last_event;
  bool operator==(const Outcome&) const = default;
};

Outcome outcome_of(const LiveDecoder& decoder) {
  Outcome o;
  o.events = decoder.events();
  o.decode_errors = decoder.decode_errors();
  o.dropped_events = decoder.dropped_events();
  for (std::size_t k = 0; k < o.counts.size(); ++k) {
    o.counts[k] = decoder.diagnostics().count(static_cast<DiagnosticKind>(k));
  }
  for (const Diagnostic& d : decoder.diagnostics().kept()) {
    o.kept.push_back(d.message);
  }
  o.last_event = std::string{decoder.last_event()};
  return o;
}

std::ostream& operator<<(std::ostream& out, const Outcome& o) {
  out << o.events << " events, " << o.decode_errors << " decode errors, " << o.dropped_events << " dropped, last '"
      << o.last_event << "', diagnostics:";
  for (const std::string& m : o.kept) {
    out << " [" << m << "]";
  }
  return out;
}

std::vector<SourceSpec> specs(std::initializer_list<const char*> args) {
  std::vector<SourceSpec> out;
  for (const char* arg : args) {
    out.push_back(parse_source_spec(arg));
  }
  return out;
}

// The end offsets of the frames in `bytes` (one past each delimiter).
std::vector<std::size_t> frame_ends(const Bytes& bytes) {
  std::vector<std::size_t> ends;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == 0) {
      ends.push_back(i + 1);
    }
  }
  return ends;
}

// Pushes `bytes` to source 0 cut at `cuts` (increasing offsets), then finishes.
Outcome decode_in_pieces(const Bytes& bytes, const std::vector<std::size_t>& cuts,
                         TraceMode mode = TraceMode::kFreeRtos) {
  LiveDecoder decoder{specs({"-"}), mode, nullptr};
  std::size_t from = 0;
  for (const std::size_t cut : cuts) {
    decoder.push(0, std::span<const std::uint8_t>{bytes}.subspan(from, cut - from));
    from = cut;
  }
  decoder.push(0, std::span<const std::uint8_t>{bytes}.subspan(from));
  decoder.finish();
  return outcome_of(decoder);
}

std::vector<std::size_t> every(std::size_t step, std::size_t size) {
  std::vector<std::size_t> cuts;
  for (std::size_t at = step; at < size; at += step) {
    cuts.push_back(at);
  }
  return cuts;
}

// A frame of `encode` with its last data byte left out: the COBS code bytes
// then promise more than there is, so it cannot decode.
template <class Encode>
Bytes broken_frame(Encode&& encode) {
  std::array<std::uint8_t, enc::kMaxFramedLen> frame{};
  const std::size_t n = encode(frame.data());
  Bytes out(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(n));
  out.erase(out.end() - 2);
  return out;
}

// The scheduler trace with events the target dropped and an undecodable frame.
Bytes eventful_trace() {
  test::TraceBuilder t = test::scheduler_trace();
  t.add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 205, 7); })
      .raw(broken_frame([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 210, 2); }))
      .add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 220, 3); });
  return t.bytes();
}

// Interrupts on one core: a name, then `count` enter/exit pairs.
Bytes isr_trace(std::uint32_t isr, const char* name, int count) {
  test::TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([&](std::uint8_t* b) { return enc::encode_isr_name(b, isr, name); });
  for (int i = 0; i < count; ++i) {
    const auto ts = static_cast<std::uint64_t>(100 + 10 * i);
    t.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, ts, isr); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, ts + 5, isr); });
  }
  return t.bytes();
}

TEST(LiveDecoder, WholeTraceAtOnce) {
  const Outcome whole = decode_in_pieces(eventful_trace(), {});
  EXPECT_EQ(whole.decode_errors, 1U);
  EXPECT_EQ(whole.counts[static_cast<std::size_t>(DiagnosticKind::kDecodeError)], 1U);
  EXPECT_EQ(whole.dropped_events, 7U);
  EXPECT_EQ(whole.counts[static_cast<std::size_t>(DiagnosticKind::kDroppedEvents)], 1U);
  EXPECT_EQ(whole.last_event, "task_switched_in");
  // Every frame that decodes counts: the scheduler trace's, dropped_evt_cnt
  // and the one after the broken frame.
  const std::size_t frames = frame_ends(test::scheduler_trace().bytes()).size();
  EXPECT_EQ(whole.events, frames + 2) << whole;
}

TEST(LiveDecoder, NothingPushed) {
  LiveDecoder decoder{specs({"-"}), TraceMode::kFreeRtos, nullptr};
  EXPECT_EQ(decoder.events(), 0U);
  EXPECT_EQ(decoder.last_event(), "");
  decoder.finish();
  EXPECT_EQ(decoder.events(), 0U);
  EXPECT_EQ(decoder.decode_errors(), 0U);
}

TEST(LiveDecoder, OneByteAtATime) {
  const Bytes trace = eventful_trace();
  EXPECT_EQ(decode_in_pieces(trace, every(1, trace.size())), decode_in_pieces(trace, {}));
}

TEST(LiveDecoder, FixedChunkSizes) {
  const Bytes trace = eventful_trace();
  const Outcome whole = decode_in_pieces(trace, {});
  for (const std::size_t size : {2, 3, 5, 7, 13, 64, 1000}) {
    EXPECT_EQ(decode_in_pieces(trace, every(size, trace.size())), whole) << "chunks of " << size;
  }
}

TEST(LiveDecoder, WholeFrames) {
  const Bytes trace = eventful_trace();
  EXPECT_EQ(decode_in_pieces(trace, frame_ends(trace)), decode_in_pieces(trace, {}));
}

TEST(LiveDecoder, FramesSplitInTheMiddle) {
  const Bytes trace = eventful_trace();
  std::vector<std::size_t> cuts;
  std::size_t start = 0;
  for (const std::size_t end : frame_ends(trace)) {
    cuts.push_back(start + (end - start) / 2);
    if (end < trace.size()) {
      cuts.push_back(end);
    }
    start = end;
  }
  EXPECT_EQ(decode_in_pieces(trace, cuts), decode_in_pieces(trace, {}));
}

TEST(LiveDecoder, CutRightBeforeAndAfterEachDelimiter) {
  const Bytes trace = eventful_trace();
  std::vector<std::size_t> cuts;
  for (const std::size_t end : frame_ends(trace)) {
    if (end < trace.size()) {
      cuts.push_back(end - 1);
      cuts.push_back(end);
    }
  }
  EXPECT_EQ(decode_in_pieces(trace, cuts), decode_in_pieces(trace, {}));
}

TEST(LiveDecoder, RandomChunks) {
  const Bytes trace = eventful_trace();
  const Outcome whole = decode_in_pieces(trace, {});
  std::mt19937 random{24};  // fixed: the same pieces every run
  for (int round = 0; round < 20; ++round) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0;;) {
      at += 1 + random() % 40;
      if (at >= trace.size()) {
        break;
      }
      cuts.push_back(at);
    }
    EXPECT_EQ(decode_in_pieces(trace, cuts), whole) << "round " << round;
  }
}

TEST(LiveDecoder, BareMetal) {
  const Bytes trace = isr_trace(4, "uart", 50);
  const Outcome whole = decode_in_pieces(trace, {}, TraceMode::kBareMetal);
  EXPECT_EQ(whole.events, 102U) << whole;  // every frame is one, the name and resolution too
  EXPECT_EQ(whole.decode_errors, 0U);
  EXPECT_TRUE(whole.kept.empty()) << whole;
  EXPECT_EQ(whole.last_event, "isr_exit");
  EXPECT_EQ(decode_in_pieces(trace, every(1, trace.size()), TraceMode::kBareMetal), whole);
}

TEST(LiveDecoder, LastEventFollowsThePushes) {
  const Bytes trace = isr_trace(4, "uart", 1);
  const std::vector<std::size_t> ends = frame_ends(trace);
  ASSERT_EQ(ends.size(), 4U);
  LiveDecoder decoder{specs({"-"}), TraceMode::kBareMetal, nullptr};
  decoder.push(0, std::span<const std::uint8_t>{trace}.first(ends[2] - 1));  // up to isr_enter's delimiter
  EXPECT_EQ(decoder.last_event(), "isr_name");
  decoder.push(0, std::span<const std::uint8_t>{trace}.subspan(ends[2] - 1, 1));
  EXPECT_EQ(decoder.last_event(), "isr_enter");
  decoder.push(0, std::span<const std::uint8_t>{trace}.subspan(ends[2]));
  EXPECT_EQ(decoder.last_event(), "isr_exit");
}

TEST(LiveDecoder, AFrameOpenAtTheEndIsTruncated) {
  const Bytes trace = isr_trace(4, "uart", 3);
  LiveDecoder decoder{specs({"-"}), TraceMode::kBareMetal, nullptr};
  decoder.push(0, std::span<const std::uint8_t>{trace}.first(trace.size() - 3));
  const std::uint64_t events = decoder.events();
  decoder.finish();
  EXPECT_EQ(decoder.diagnostics().count(DiagnosticKind::kTruncatedEnd), 1U);
  EXPECT_EQ(decoder.events(), events);
  EXPECT_EQ(events, 7U);  // all frames but the open one
}

// Gaps: a source lost and reconnected. The bytes before the loss end in the
// middle of frame `cut_at`; the bytes after it start with the next frame.
struct GapCase {
  Bytes before;  // ends inside a frame
  Bytes after;   // starts at a frame
};

GapCase gap_case() {
  const Bytes trace = isr_trace(4, "uart", 10);
  const std::vector<std::size_t> ends = frame_ends(trace);
  const std::size_t cut_frame_start = ends[5];
  const std::size_t cut_frame_end = ends[6];
  const std::size_t middle = cut_frame_start + (cut_frame_end - cut_frame_start) / 2;
  return {Bytes(trace.begin(), trace.begin() + static_cast<std::ptrdiff_t>(middle)),
          Bytes(trace.begin() + static_cast<std::ptrdiff_t>(cut_frame_end), trace.end())};
}

// The gap case decoded live: the bytes before, the gap (with or without the
// delimiter that ends the cut frame), the bytes after.
Outcome decode_across_gap(bool cut_frame) {
  const GapCase c = gap_case();
  LiveDecoder decoder{specs({"-"}), TraceMode::kBareMetal, nullptr};
  decoder.push(0, c.before);
  decoder.gap(0, cut_frame, "lost");
  decoder.push(0, c.after);
  decoder.finish();
  return outcome_of(decoder);
}

std::uint64_t count(const Outcome& o, DiagnosticKind kind) { return o.counts[static_cast<std::size_t>(kind)]; }

TEST(LiveDecoderGap, WithoutACutFrame) {
  const Bytes trace = isr_trace(4, "uart", 10);
  LiveDecoder decoder{specs({"tcp:localhost:19021"}), TraceMode::kBareMetal, nullptr};
  const std::size_t half = frame_ends(trace)[9];
  decoder.push(0, std::span<const std::uint8_t>{trace}.first(half));
  decoder.gap(0, false, "tcp:localhost:19021: lost after 99 bytes");
  decoder.push(0, std::span<const std::uint8_t>{trace}.subspan(half));
  decoder.finish();
  EXPECT_EQ(decoder.diagnostics().count(DiagnosticKind::kCaptureGap), 1U);
  EXPECT_EQ(decoder.diagnostics().total(), 1U);
  ASSERT_EQ(decoder.diagnostics().kept().size(), 1U);
  EXPECT_EQ(decoder.diagnostics().kept()[0].message, "tcp:localhost:19021: lost after 99 bytes");
  EXPECT_EQ(decoder.events(), 22U);  // every frame: the gap fell between two
  EXPECT_EQ(decoder.decode_errors(), 0U);
}

TEST(LiveDecoderGap, TheCutFrameIsOneDecodeErrorAndTheNextFrameSurvives) {
  Outcome got = decode_across_gap(true);
  EXPECT_EQ(got.decode_errors, 1U);
  EXPECT_EQ(count(got, DiagnosticKind::kDecodeError), 1U);
  EXPECT_EQ(count(got, DiagnosticKind::kCaptureGap), 1U);
  EXPECT_EQ(got.events, 21U);  // all 22 frames but the cut one

  // The same as the recorded file decoded at once: the delimiter the
  // recorder writes after the cut frame, and the gap reported.
  const GapCase c = gap_case();
  Bytes file = c.before;
  file.push_back(0);
  file.insert(file.end(), c.after.begin(), c.after.end());
  LiveDecoder at_once{specs({"-"}), TraceMode::kBareMetal, nullptr};
  at_once.push(0, file);
  at_once.gap(0, false, "lost");
  at_once.finish();
  Outcome expected = outcome_of(at_once);
  // Only the order of the kept messages differs (the gap came first live).
  std::sort(expected.kept.begin(), expected.kept.end());
  std::sort(got.kept.begin(), got.kept.end());
  EXPECT_EQ(got, expected);
}

TEST(LiveDecoderGap, WithoutTheDelimiterTheCutFrameSwallowsTheNext) {
  // Why the recorder ends the cut frame: left open, it merges with the first
  // frame after the gap and both are lost.
  const Outcome got = decode_across_gap(false);
  EXPECT_EQ(got.events, 20U);
  EXPECT_EQ(got.decode_errors, 1U);
}

TEST(LiveDecoderSources, InterleavedBytesOfTwoCores) {
  const Bytes a = isr_trace(1, "timer", 30);
  const Bytes b = isr_trace(2, "dma", 20);
  const auto sources = specs({"file:/tmp/core0.bin@0", "file:/tmp/core1.bin@1"});

  LiveDecoder one_after_other{sources, TraceMode::kBareMetal, nullptr};
  one_after_other.push(0, a);
  one_after_other.push(1, b);
  one_after_other.finish();
  const Outcome expected = outcome_of(one_after_other);
  EXPECT_EQ(expected.events, 62U + 42U) << expected;
  EXPECT_EQ(expected.decode_errors, 0U);
  EXPECT_TRUE(expected.kept.empty()) << expected;  // core 1 is within the cores the sources name

  for (const std::size_t size : {1, 3, 7}) {
    LiveDecoder interleaved{sources, TraceMode::kBareMetal, nullptr};
    for (std::size_t at = 0; at < std::max(a.size(), b.size()); at += size) {
      if (at < a.size()) {
        interleaved.push(0, std::span<const std::uint8_t>{a}.subspan(at, std::min(size, a.size() - at)));
      }
      if (at < b.size()) {
        interleaved.push(1, std::span<const std::uint8_t>{b}.subspan(at, std::min(size, b.size() - at)));
      }
    }
    interleaved.finish();
    Outcome got = outcome_of(interleaved);
    got.last_event = expected.last_event;  // whichever source spoke last
    EXPECT_EQ(got, expected) << "chunks of " << size;
  }
}

TEST(LiveDecoderSources, AGapInOneSourceLeavesTheOtherAlone) {
  const GapCase c = gap_case();
  const Bytes other = isr_trace(2, "dma", 5);
  LiveDecoder decoder{specs({"-@0", "file:/tmp/other.bin@1"}), TraceMode::kBareMetal, nullptr};
  decoder.push(0, c.before);
  decoder.push(1, std::span<const std::uint8_t>{other}.first(other.size() / 2));
  decoder.gap(0, true, "lost");
  decoder.push(1, std::span<const std::uint8_t>{other}.subspan(other.size() / 2));
  decoder.push(0, c.after);
  decoder.finish();
  EXPECT_EQ(decoder.events(), 21U + 12U);
  EXPECT_EQ(decoder.decode_errors(), 1U);
  EXPECT_EQ(decoder.diagnostics().count(DiagnosticKind::kCaptureGap), 1U);
}

TEST(LiveDecoderSources, DiagnosticsNameTheSource) {
  const Bytes bad = broken_frame([](std::uint8_t* b) { return enc::encode_isr_enter(b, 5, 1); });
  LiveDecoder decoder{specs({"file:/tmp/good.bin@0", "file:/tmp/bad.bin@1"}), TraceMode::kBareMetal, nullptr};
  decoder.push(1, bad);
  decoder.finish();
  ASSERT_EQ(decoder.diagnostics().count(DiagnosticKind::kDecodeError), 1U);
  bool named = false;
  for (const Diagnostic& d : decoder.diagnostics().kept()) {
    named = named || (d.kind == DiagnosticKind::kDecodeError && d.message.find("file:/tmp/bad.bin") != std::string::npos);
  }
  EXPECT_TRUE(named) << outcome_of(decoder);
}

}  // namespace
}  // namespace tband::record
