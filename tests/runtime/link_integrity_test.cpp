// Link integrity (tband_configLINK_INTEGRITY, two cores): the trace announces
// it and decodes as without it; frames the stream hook drops use up no
// sequence number; and the link-fault harness: a real trace of more than a
// million frames, with frames dropped, bits flipped, chunks duplicated and
// reordered at fixed rates with a fixed seed, must be counted exactly.
//
// What the harness does and what each fault counts as (decode/link_check.hpp):
//  - a dropped frame: 1 lost frame (the sequence gap where the next frame resumes);
//  - a corrupted frame (one bit flipped, in any byte but the delimiter, never
//    making a 0x00): 1 corrupt frame, and not lost;
// Chunk faults take only frames no other fault touched ("intact"), so that
// each counts on its own:
//  - a duplicated chunk (k intact frames sent again right after themselves):
//    k stale frames, discarded;
//  - two adjacent chunks A (a intact frames) and B swapped: B resumes after a
//    gap of a frames (a lost: their events are not in the trace), and A's
//    frames, arriving after B's, are a stale frames, discarded.
// Faults stay off the start's frames and the last ones (a loss at the very
// end leaves no frame after it to show a gap).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband.h"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

using tband::test::TraceCapture;

class LinkIntegrity : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
  }
  void TearDown() override {
    (void)tband_stop_streaming();
    tband_host_set_core_id(0);
  }
  TraceCapture capture;
};

struct Decoded {
  std::vector<std::string> events;
  std::uint64_t errors = 0;  // frames that failed other than on the link
  tband::LinkCheck::Totals link;
};

Decoded decode(std::span<const std::uint8_t> bytes, std::size_t max_chunk = 0, std::uint64_t seed = 1) {
  Decoded out;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
    if (result.ok()) {
      out.events.push_back(tband::format_event(result.value()));
    } else if (result.error().kind != tband::DecodeErrorKind::kLinkLost &&
               result.error().kind != tband::DecodeErrorKind::kLinkCorrupt &&
               result.error().kind != tband::DecodeErrorKind::kLinkStale) {
      ++out.errors;
    }
  };
  std::mt19937_64 rng(seed);
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t n =
        max_chunk == 0 ? bytes.size() : std::min<std::size_t>(bytes.size() - at, 1 + rng() % max_chunk);
    decoder.feed(bytes.subspan(at, n), sink);
    at += n;
  }
  decoder.finish(sink);
  out.link = decoder.link_totals();
  return out;
}

TEST_F(LinkIntegrity, EveryCoresStreamAnnouncesItAndDecodesAsWithout) {
  tband_isr_name(7, "uart");
  ASSERT_EQ(tband_start_streaming(), 0);
  tband_host_set_time(10);
  tband_isr_enter(7);
  tband_isr_exit(7);
  std::thread([] {
    tband_host_set_core_id(1);
    tband_host_set_time(20);
    tband_evtmarker(3, "on core 1");
  }).join();
  ASSERT_EQ(tband_stop_streaming(), 0);

  const Decoded core0 = decode(capture.bytes(0));
  EXPECT_EQ(core0.errors, 0u);
  ASSERT_GE(core0.events.size(), 4u);
  EXPECT_EQ(core0.events.front(), "link_integrity seq_bits=16 crc_bits=16");
  EXPECT_NE(std::find(core0.events.begin(), core0.events.end(), "isr_enter ts=10 isr_id=7"), core0.events.end());
  const Decoded core1 = decode(capture.bytes(1));
  EXPECT_EQ(core1.errors, 0u);
  // Its own announcement first (the start was core 0's), then what it traced.
  const std::vector<std::string> expected1 = {"link_integrity seq_bits=16 crc_bits=16", "dropped_evt_cnt ts=20 cnt=0",
                                              "evtmarker ts=20 evtmarker_id=3 msg=\"on core 1\""};
  EXPECT_EQ(core1.events, expected1);
  for (const Decoded* d : {&core0, &core1}) {
    EXPECT_EQ(d->link.lost, 0u);
    EXPECT_EQ(d->link.corrupt, 0u);
    EXPECT_EQ(d->link.stale, 0u);
  }
}

// What the host's check finds in a stream it reads as `core`'s, as the CLI
// reads a per-core file given as FILE@core.
tband::LinkCheck::Totals link_totals_as(std::span<const std::uint8_t> bytes, std::uint32_t core) {
  tband::CobsDeframer deframer;
  tband::LinkCheck link(core);
  const auto pass = [&](const tband::RawFrame& frame) { link.pass(frame, [](const tband::RawFrame&) {}); };
  deframer.feed(bytes, pass);
  deframer.finish(pass);
  return link.totals();
}

// A start on core 1 numbers its frames before the first core_id as core 1's:
// the host reads core 1's stream as core 1's (FILE@1) and counts them so. They
// were core 0's numbers, and every later frame of core 1 was "stale".
TEST_F(LinkIntegrity, AStartOnAnotherCoreNumbersItsFirstFramesAsItsOwn) {
  tband_isr_name(7, "uart");
  ASSERT_EQ(tband_start_streaming(), 0);
  for (std::uint64_t i = 0; i < 50; ++i) {  // core 0's numbers run ahead of core 1's
    tband_host_set_time(10 + i);
    tband_isr_enter(7);
  }
  std::thread([] {
    tband_host_set_core_id(1);
    tband_host_set_time(100);
    tband_isr_enter(7);
    ASSERT_EQ(tband_stop_streaming(), 0);
    ASSERT_EQ(tband_start_streaming(), 0);
    for (std::uint64_t i = 0; i < 5; ++i) {
      tband_host_set_time(200 + i);
      tband_isr_exit(7);
    }
  }).join();
  tband_host_set_time(300);
  tband_isr_exit(7);
  ASSERT_EQ(tband_stop_streaming(), 0);

  for (std::uint32_t core = 0; core < 2; ++core) {
    SCOPED_TRACE("core " + std::to_string(core));
    const tband::LinkCheck::Totals totals = link_totals_as(capture.bytes(core), core);
    EXPECT_EQ(totals.lost, 0u);
    EXPECT_EQ(totals.corrupt, 0u);
    EXPECT_EQ(totals.stale, 0u);
  }
  const std::vector<std::string> core1 = decode(capture.bytes(1)).events;
  EXPECT_EQ(std::count(core1.begin(), core1.end(), "isr_exit ts=204 isr_id=7"), 1);
}

TEST_F(LinkIntegrity, FramesTheHookDropsUseNoSequenceNumber) {
  ASSERT_EQ(tband_start_streaming(), 0);
  capture.set_drop_policy([](unsigned, std::size_t call) { return call % 3 == 2; });
  for (std::uint32_t i = 0; i < 300; ++i) {
    tband_host_set_time(100 + i);
    tband_isr_enter(i);
  }
  capture.set_drop_policy(nullptr);
  tband_isr_enter(1000);  // reports the drops
  ASSERT_EQ(tband_stop_streaming(), 0);
  ASSERT_GT(capture.dropped(0), 0u);
  const Decoded d = decode(capture.bytes(0));
  EXPECT_EQ(d.errors, 0u);
  EXPECT_EQ(d.link.lost, 0u) << "the target's own drops are dropped_evt_cnt's, not the link's";
  EXPECT_EQ(d.link.corrupt, 0u);
  const bool counted = std::any_of(d.events.begin(), d.events.end(),
                                   [](const std::string& e) { return e.rfind("dropped_evt_cnt", 0) == 0; });
  EXPECT_TRUE(counted);
}

// Whether a (corrupted) frame would still deframe with a matching CRC.
bool passes_link_check(const std::vector<std::uint8_t>& frame) {
  bool passes = false;
  tband::CobsDeframer deframer;
  deframer.feed(frame, [&](const tband::RawFrame& f) {
    if (f.error == nullptr && f.data.size() > tband::LinkCheck::kTrailerLen) {
      const std::size_t n = f.data.size() - 2;
      passes = tband_crc16(f.data.data(), n) == (f.data[n] | (f.data[n + 1] << 8));
    }
  });
  return passes;
}

// The frames of a stream: each with its 0x00.
std::vector<std::vector<std::uint8_t>> split_frames(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::vector<std::uint8_t>> frames;
  std::vector<std::uint8_t> frame;
  for (const std::uint8_t b : bytes) {
    frame.push_back(b);
    if (b == 0) {
      frames.push_back(std::move(frame));
      frame.clear();
    }
  }
  EXPECT_TRUE(frame.empty());
  return frames;
}

TEST_F(LinkIntegrity, FaultHarnessCountsExactlyOverAMillionFrames) {
  constexpr std::uint32_t kEvents = 1'050'000;
  ASSERT_EQ(tband_start_streaming(), 0);
  for (std::uint32_t i = 0; i < kEvents; ++i) {
    tband_host_set_time(1000 + i);
    if (i % 3 == 0) {
      tband_isr_enter(i % 40);
    } else if (i % 3 == 1) {
      tband_valmarker(i % 7, -static_cast<std::int64_t>(i) * 1000);
    } else {
      tband_evtmarker(i % 5, "msg");
    }
  }
  ASSERT_EQ(tband_stop_streaming(), 0);
  const std::vector<std::vector<std::uint8_t>> frames = split_frames(capture.bytes(0));
  ASSERT_GE(frames.size(), 1'000'000u);

  const Decoded clean = decode(capture.bytes(0), 4096);
  ASSERT_EQ(clean.errors, 0u);
  ASSERT_EQ(clean.events.size(), frames.size());
  ASSERT_EQ(clean.link.lost + clean.link.corrupt + clean.link.stale, 0u);

  // Per mille, per frame: drop, corrupt; per chunk boundary: duplicate, swap.
  constexpr unsigned kDrop = 5, kCorrupt = 5, kDuplicate = 2, kSwap = 2;
  constexpr std::size_t kQuiet = 16;  // frames left alone at each end
  std::mt19937_64 rng(0x26);
  struct WireFrame {
    std::vector<std::uint8_t> bytes;
    bool intact;  // as sent, in its place, and part of no chunk fault yet
  };
  std::vector<WireFrame> wire;
  wire.reserve(frames.size() + frames.size() / 50);
  std::uint64_t lost = 0, corrupt = 0, stale = 0, undetectable = 0;
  const auto intact_tail = [&](std::size_t k) {
    if (wire.size() < k) {
      return false;
    }
    return std::all_of(wire.end() - static_cast<std::ptrdiff_t>(k), wire.end(),
                       [](const WireFrame& w) { return w.intact; });
  };
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const bool quiet = i < kQuiet || i + kQuiet >= frames.size();
    const unsigned roll = static_cast<unsigned>(rng() % 1000);
    if (!quiet && roll < kDrop) {
      ++lost;
      continue;
    }
    WireFrame w{frames[i], true};
    if (!quiet && roll < kDrop + kCorrupt) {
      // One bit of any byte but the delimiter, never turning it into 0x00.
      const std::size_t at = rng() % (w.bytes.size() - 1);
      unsigned bit = static_cast<unsigned>(rng() % 8);
      if ((w.bytes[at] ^ (1u << bit)) == 0) {
        bit = (bit + 1) % 8;
      }
      w.bytes[at] = static_cast<std::uint8_t>(w.bytes[at] ^ (1u << bit));
      w.intact = false;
      ++corrupt;
      undetectable += passes_link_check(w.bytes) ? 1 : 0;
    }
    wire.push_back(std::move(w));
    if (quiet) {
      continue;
    }
    const unsigned chunk_roll = static_cast<unsigned>(rng() % 1000);
    const std::size_t k = 1 + rng() % 4;
    if (chunk_roll < kDuplicate && intact_tail(k)) {
      for (std::size_t j = wire.size() - k, end = wire.size(); j < end; ++j) {
        wire[j].intact = false;
        wire.push_back(wire[j]);
      }
      stale += k;
    } else if (chunk_roll < kDuplicate + kSwap && intact_tail(2 * k)) {
      // A = the k frames before the last k (B): B goes first.
      std::rotate(wire.end() - static_cast<std::ptrdiff_t>(2 * k), wire.end() - static_cast<std::ptrdiff_t>(k),
                  wire.end());
      for (std::size_t j = wire.size() - 2 * k; j < wire.size(); ++j) {
        wire[j].intact = false;
      }
      lost += k;
      stale += k;
    }
  }
  ASSERT_EQ(undetectable, 0u) << "a flipped bit the CRC let through: pick another seed";
  std::vector<std::uint8_t> bytes;
  for (const WireFrame& w : wire) {
    bytes.insert(bytes.end(), w.bytes.begin(), w.bytes.end());
  }
  const Decoded faulty = decode(bytes, 4096, 7);
  EXPECT_GT(lost, 5000u);
  EXPECT_GT(corrupt, 4000u);
  EXPECT_GT(stale, 2000u);
  EXPECT_EQ(faulty.link.lost, lost);
  EXPECT_EQ(faulty.link.corrupt, corrupt);
  EXPECT_EQ(faulty.link.stale, stale);
  EXPECT_EQ(faulty.errors, 0u) << "a corrupt frame decoded as an event";
  EXPECT_EQ(faulty.events.size(), frames.size() - lost - corrupt) << "every other frame decoded, once";
}

}  // namespace
