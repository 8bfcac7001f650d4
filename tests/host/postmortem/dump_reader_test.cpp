// The post-mortem dump reader on blocks built here byte by byte after the
// layout header: ring states (not wrapped, wrapped mid-frame or at a frame,
// full, a write in progress), both byte orders, a block inside a larger RAM
// image, and every kind of bad input with its message.
#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <cstdint>
#include <string>
#include <vector>

#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "post_mortem_block_builder.hpp"
#include "postmortem/dump_reader.hpp"
#include "tband/post_mortem_layout.h"
#include "tband_encode.hpp"

namespace {

using tband::postmortem::ByteOrder;
using tband::test::BlockBuilder;
using tband::postmortem::DumpErrorKind;
using tband::postmortem::read_block;
using tband::postmortem::read_dump;
namespace enc = tband::enc;

std::vector<std::uint8_t> isr_enter(std::uint64_t ts) {
  std::vector<std::uint8_t> out(enc::IsrEnter::kMaxFramedLen);
  out.resize(enc::encode_isr_enter(out.data(), ts, 1));
  return out;
}

std::vector<std::uint8_t> cat(const std::vector<std::vector<std::uint8_t>>& parts) {
  std::vector<std::uint8_t> out;
  for (const auto& part : parts) {
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

std::vector<std::string> decode(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::string> events;
  tband::StreamDecoder decoder;
  auto sink = [&](const tband::DecodeResult& r, const tband::FrameLocation&) {
    events.push_back(r.ok() ? tband::format_event(r.value()) : "ERROR " + tband::describe(r.error()));
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  return events;
}

// Frames of 5 bytes each: isr_enter with ts 100..127 (one varlen byte).
const auto kA = isr_enter(100), kB = isr_enter(101), kC = isr_enter(102), kD = isr_enter(103);

TEST(DumpReader, RingThatNeverWrapped) {
  ASSERT_EQ(kA.size(), 5u);
  BlockBuilder block(1, 32, 16);
  block.ring(0, cat({kA, kB}), 10, TBAND_PM_TAIL_AT_FRAME);
  const auto names = [] {
    std::vector<std::uint8_t> out(enc::IsrName::kMaxFramedLen);
    out.resize(enc::encode_isr_name(out.data(), 1, "tick"));
    return out;
  }();
  block.metadata(0, names);
  const auto result = read_block(block.bytes());
  ASSERT_TRUE(result.ok()) << describe(result.error());
  const auto& core = result.value().cores.at(0);
  EXPECT_FALSE(core.wrapped);
  EXPECT_EQ(core.event_frames, 2u);
  EXPECT_EQ(core.skipped_bytes, 0u);
  EXPECT_EQ(decode(core.stream()), (std::vector<std::string>{"isr_name isr_id=1 name=\"tick\"",
                                                             "isr_enter ts=100 isr_id=1",
                                                             "isr_enter ts=101 isr_id=1"}));
}

TEST(DumpReader, WrappedRingSkipsTheRestOfAnOverwrittenFrame) {
  // Ring of 17 bytes after writing A B C D circularly: A at 0, B at 5, C at
  // 10, D at 15 and wrapping to 0..2, over the start of A. The oldest byte
  // (position 3) is in the middle of A.
  std::vector<std::uint8_t> ring(17, 0xAA);
  const auto stream = cat({kA, kB, kC, kD});
  for (std::size_t i = 0; i < stream.size(); ++i) {
    ring[i % 17] = stream[i];
  }
  BlockBuilder block(1, 17, 0);
  block.ring(0, ring, 3, 3 | TBAND_PM_TAIL_WRAPPED);
  const auto result = read_block(block.bytes());
  ASSERT_TRUE(result.ok()) << describe(result.error());
  const auto& core = result.value().cores.at(0);
  EXPECT_TRUE(core.wrapped);
  EXPECT_EQ(core.skipped_bytes, 2u) << "the last two bytes of A";
  EXPECT_EQ(decode(core.events), (std::vector<std::string>{"isr_enter ts=101 isr_id=1", "isr_enter ts=102 isr_id=1",
                                                           "isr_enter ts=103 isr_id=1"}));
}

TEST(DumpReader, WrappedRingThatStartsAtAFrameKeepsIt) {
  // Ring of 15 bytes holding exactly B C D after A was overwritten by D.
  const auto stream = cat({kA, kB, kC, kD});
  std::vector<std::uint8_t> ring(15);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    ring[i % 15] = stream[i];
  }
  BlockBuilder block(1, 15, 0);
  block.ring(0, ring, 5, 5 | TBAND_PM_TAIL_WRAPPED | TBAND_PM_TAIL_AT_FRAME);
  const auto result = read_block(block.bytes());
  ASSERT_TRUE(result.ok()) << describe(result.error());
  EXPECT_EQ(decode(result.value().cores.at(0).events),
            (std::vector<std::string>{"isr_enter ts=101 isr_id=1", "isr_enter ts=102 isr_id=1",
                                      "isr_enter ts=103 isr_id=1"}));
}

TEST(DumpReader, AWriteInProgressIsLeftOut) {
  // The writer moved tail past the bytes of E before copying E; the dump was
  // taken with E half written over the start of B (positions 0..2).
  const auto stream = cat({kA, kB, kC, kD});  // 20 bytes in a 20-byte ring: full, head 0
  std::vector<std::uint8_t> ring(stream);
  const auto e = isr_enter(104);
  ring[0] = e[0];
  ring[1] = e[1];
  ring[2] = e[2];  // half of E over A
  BlockBuilder block(1, 20, 0);
  // tail moved to 5 (after E), at a frame (A's old last byte was 0); head still 0.
  block.ring(0, ring, 0, 5 | TBAND_PM_TAIL_WRAPPED | TBAND_PM_TAIL_AT_FRAME);
  const auto result = read_block(block.bytes());
  ASSERT_TRUE(result.ok()) << describe(result.error());
  EXPECT_EQ(decode(result.value().cores.at(0).events),
            (std::vector<std::string>{"isr_enter ts=101 isr_id=1", "isr_enter ts=102 isr_id=1",
                                      "isr_enter ts=103 isr_id=1"}));
}

TEST(DumpReader, BigEndianTargetGivesTheSameEvents) {
  for (const ByteOrder order : {ByteOrder::kLittleEndian, ByteOrder::kBigEndian}) {
    BlockBuilder block(2, 32, 8, order);
    block.ring(0, cat({kA, kB}), 10, TBAND_PM_TAIL_AT_FRAME);
    block.ring(1, kC, 5, TBAND_PM_TAIL_AT_FRAME);
    const auto result = read_block(block.bytes());
    ASSERT_TRUE(result.ok()) << describe(result.error());
    EXPECT_EQ(result.value().byte_order, order);
    ASSERT_EQ(result.value().cores.size(), 2u);
    EXPECT_EQ(decode(result.value().cores[0].events),
              (std::vector<std::string>{"isr_enter ts=100 isr_id=1", "isr_enter ts=101 isr_id=1"}));
    EXPECT_EQ(decode(result.value().cores[1].events), (std::vector<std::string>{"isr_enter ts=102 isr_id=1"}));
  }
}

// 4099 bytes of RAM with a decoy magic (version 9) at byte 100, a block of
// one event (ring at a frame), then 500 more bytes.
std::vector<std::uint8_t> ram_image_with_block() {
  BlockBuilder block(1, 32, 0);
  block.ring(0, kA, 5, TBAND_PM_TAIL_AT_FRAME);
  std::vector<std::uint8_t> ram(4099, 0x5A);
  const std::vector<std::uint8_t> decoy = {'T', 'B', 'P', 'M', 9, 0, 0, 0};  // magic, but version 9
  ram.insert(ram.begin() + 100, decoy.begin(), decoy.end());
  ram.insert(ram.end(), block.bytes().begin(), block.bytes().end());
  ram.resize(ram.size() + 500, 0x33);
  return ram;
}

TEST(DumpReader, FindsTheBlockInsideARamImage) {
  const auto ram = ram_image_with_block();
  const auto result = read_dump(ram);
  ASSERT_TRUE(result.ok()) << describe(result.error());
  EXPECT_EQ(result.value().block_offset, 4099u + 8u);
  EXPECT_EQ(decode(result.value().cores.at(0).events), (std::vector<std::string>{"isr_enter ts=100 isr_id=1"}));
}

struct BadDump {
  const char* name;
  std::vector<std::uint8_t> bytes;
  DumpErrorKind kind;
  std::string message;
};

std::vector<BadDump> bad_dumps() {
  std::vector<BadDump> cases;
  cases.push_back({"no magic", std::vector<std::uint8_t>(256, 0x11), DumpErrorKind::kNoBlock,
                   "post-mortem dump, byte 0: no post-mortem block (magic \"TBPM\") in the 256-byte dump"});
  {
    BlockBuilder b(1, 32, 0);
    auto bytes = b.bytes();
    bytes.resize(bytes.size() - 1);
    cases.push_back({"truncated", bytes, DumpErrorKind::kTruncated,
                     "post-mortem dump, byte 24: the block has 96 bytes, but the dump ends after 95"});
  }
  {
    BlockBuilder b(1, 32, 0);
    b.put(TBAND_PM_OFF_VERSION, 2);
    cases.push_back({"version", b.bytes(), DumpErrorKind::kUnsupportedVersion,
                     "post-mortem dump, byte 4: post-mortem block version 2; this reader knows version 1"});
  }
  {
    BlockBuilder b(1, 32, 0);
    b.put(TBAND_PM_OFF_CORE_COUNT, 0);
    cases.push_back({"no cores", b.bytes(), DumpErrorKind::kBadLayout,
                     "post-mortem dump, byte 12: core count 0 (expected 1 to 256)"});
  }
  {
    BlockBuilder b(1, 32, 0);
    b.put_core(0, TBAND_PM_CORE_OFF_HEAD, 32);
    cases.push_back({"head", b.bytes(), DumpErrorKind::kBadLayout,
                     "post-mortem dump, byte 32: core 0: write position 32 or oldest position 0 outside the "
                     "32-byte ring"});
  }
  {
    BlockBuilder b(1, 32, 0);
    b.put_core(0, TBAND_PM_CORE_OFF_TAIL, 4);
    cases.push_back({"tail", b.bytes(), DumpErrorKind::kBadLayout,
                     "post-mortem dump, byte 32: core 0: the ring never wrapped, yet its oldest byte is at 4"});
  }
  {
    BlockBuilder b(1, 32, 8);
    b.put_core(0, TBAND_PM_CORE_OFF_METADATA_LEN, 9);
    cases.push_back({"metadata", b.bytes(), DumpErrorKind::kBadLayout,
                     "post-mortem dump, byte 32: core 0: 9 bytes of metadata in a 8-byte area"});
  }
  {
    BlockBuilder b(1, 32, 0);
    b.put_core(0, TBAND_PM_CORE_OFF_RING, 90);
    cases.push_back({"ring offset", b.bytes(), DumpErrorKind::kBadLayout,
                     "post-mortem dump, byte 32: core 0: ring at 90 runs past the block's 96 bytes"});
  }
  return cases;
}

TEST(DumpReader, BadDumpsAreNamedNotCrashedOn) {
  for (const BadDump& bad : bad_dumps()) {
    const auto result = read_dump(bad.bytes);
    ASSERT_FALSE(result.ok()) << bad.name;
    EXPECT_EQ(result.error().kind, bad.kind) << bad.name;
    EXPECT_EQ(describe(result.error()), bad.message) << bad.name;
  }
  EXPECT_EQ(describe(read_block(std::vector<std::uint8_t>(8, 0)).error()),
            "post-mortem dump, byte 0: the dump ends after 8 bytes, inside the block header");
}

// A block of 1 to 3 cores (by round) with about one byte in seven after its
// magic replaced from the generator `x`.
std::vector<std::uint8_t> mutated_block(int round, std::uint32_t& x) {
  BlockBuilder b(1 + static_cast<std::uint32_t>(round % 3), 16, 4);
  auto bytes = b.bytes();
  for (std::size_t i = 4; i < bytes.size(); ++i) {
    x = x * 1103515245u + 12345u;
    if ((x >> 16) % 7 == 0) {
      bytes[i] = static_cast<std::uint8_t>(x >> 24);
    }
  }
  return bytes;
}

TEST(DumpReader, ArbitraryBytesAfterTheMagicNeverCrash) {
  std::uint32_t x = 12345;
  for (int round = 0; round < 2000; ++round) {
    auto bytes = mutated_block(round, x);
    const auto result = read_dump(bytes);
    if (result.ok()) {
      for (const auto& core : result.value().cores) {
        (void)decode(core.stream());
      }
    } else {
      EXPECT_FALSE(result.error().message.empty());
    }
  }
}

// A dump full of blocks (every 96 bytes, the first half of 2 MiB) whose
// core 0 is fine, with a ring of a megabyte, and whose core 1 is not: each
// candidate is rejected from its descriptors, without copying core 0's ring
// first (that made such a dump cost candidates x ring size: minutes).
TEST(DumpReader, ManyBadCandidatesCostOnlyTheirDescriptors) {
  constexpr std::uint32_t kDump = 2u << 20, kHeader = TBAND_PM_HEADER_SIZE + 2 * TBAND_PM_CORE_DESC_SIZE;
  constexpr std::uint32_t kBlock = kDump / 2, kRing = kBlock - kHeader;
  std::vector<std::uint8_t> pattern(kHeader, 0);
  const auto put = [&](std::uint32_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      pattern[at + static_cast<std::uint32_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
    }
  };
  put(TBAND_PM_OFF_MAGIC, TBAND_PM_MAGIC);
  put(TBAND_PM_OFF_VERSION, TBAND_PM_VERSION);
  put(TBAND_PM_OFF_HEADER_SIZE, kHeader);
  put(TBAND_PM_OFF_CORE_COUNT, 2);
  put(TBAND_PM_OFF_RING_SIZE, kRing);
  put(TBAND_PM_OFF_BLOCK_SIZE, kBlock);
  const std::uint32_t core0 = TBAND_PM_HEADER_SIZE, core1 = core0 + TBAND_PM_CORE_DESC_SIZE;
  put(core0 + TBAND_PM_CORE_OFF_RING, kHeader);
  put(core0 + TBAND_PM_CORE_OFF_HEAD, kRing - 1);
  put(core1 + TBAND_PM_CORE_OFF_RING, kHeader);
  put(core1 + TBAND_PM_CORE_OFF_HEAD, kRing);  // outside the ring
  std::vector<std::uint8_t> dump;
  while (dump.size() + kHeader <= kBlock) {
    dump.insert(dump.end(), pattern.begin(), pattern.end());
  }
  dump.resize(kDump, 0);

  const auto start = std::chrono::steady_clock::now();
  const auto result = read_dump(dump);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, DumpErrorKind::kBadLayout);
  EXPECT_NE(result.error().message.find("core 1: write position"), std::string::npos) << result.error().message;
  // Milliseconds when each candidate costs its descriptors; a minute or more
  // when each copies its ring. The bound leaves room for a loaded machine.
  EXPECT_LT(took, std::chrono::seconds(5));
}

}  // namespace

namespace {

using tband::postmortem::DumpScanner;

// What a dump reads as, for comparing two ways of reading it.
std::string outcome(const tband::postmortem::DumpResult& result) {
  if (!result.ok()) {
    return "error " + describe(result.error());
  }
  std::string out = "block at " + std::to_string(result.value().block_offset);
  for (const auto& core : result.value().cores) {
    for (const std::string& event : decode(core.stream())) {
      out += "; " + event;
    }
  }
  return out;
}

std::string scanned_in_pieces(const std::vector<std::uint8_t>& dump, std::size_t piece) {
  DumpScanner scanner;
  for (std::size_t at = 0; at < dump.size(); at += piece) {
    scanner.feed(std::span<const std::uint8_t>(dump).subspan(at, std::min(piece, dump.size() - at)));
  }
  return outcome(scanner.finish());
}

TEST(DumpScanner, ReadsADumpInPiecesAsReadDumpReadsItWhole) {
  std::vector<std::vector<std::uint8_t>> dumps;
  for (const BadDump& bad : bad_dumps()) {
    dumps.push_back(bad.bytes);
  }
  const auto ram = ram_image_with_block();
  dumps.push_back(ram);
  dumps.emplace_back(ram.begin(), ram.end() - 560);  // the block's end missing
  std::uint32_t x = 777;
  for (int round = 0; round < 300; ++round) {
    auto bytes = mutated_block(round, x);
    bytes.insert(bytes.begin(), static_cast<std::size_t>(round % 11), std::uint8_t{'T'});
    dumps.push_back(bytes);
  }
  for (std::size_t d = 0; d < dumps.size(); ++d) {
    const std::string whole = outcome(read_dump(dumps[d]));
    for (const std::size_t piece : std::initializer_list<std::size_t>{1, 3, 7, 64, 4096}) {
      EXPECT_EQ(scanned_in_pieces(dumps[d], piece), whole) << "dump " << d << ", pieces of " << piece;
    }
  }
}

// 64 MiB without a block, then a block: the scanner holds one piece, not the
// dump; a block claiming more than kMaxBlockSize is refused, not waited for.
TEST(DumpScanner, HoldsOnlyWhatACandidateBlockNeeds) {
  constexpr std::size_t kPiece = 64 * 1024;
  const std::vector<std::uint8_t> garbage(kPiece, 0x11);
  DumpScanner scanner;
  std::size_t most = 0;
  for (int i = 0; i < 1024; ++i) {
    scanner.feed(garbage);
    most = std::max(most, scanner.held_bytes());
  }
  EXPECT_LE(most, 2 * kPiece);
  BlockBuilder block(1, 32, 0);
  block.ring(0, kA, 5, TBAND_PM_TAIL_AT_FRAME);
  scanner.feed(block.bytes());
  scanner.feed(garbage);
  const auto result = scanner.finish();
  ASSERT_TRUE(result.ok()) << describe(result.error());
  EXPECT_EQ(result.value().block_offset, 1024 * kPiece);

  BlockBuilder huge(1, 32, 0);
  huge.put(TBAND_PM_OFF_BLOCK_SIZE, DumpScanner::kMaxBlockSize + 1u);
  DumpScanner refusing;
  refusing.feed(huge.bytes());
  for (int i = 0; i < 64; ++i) {
    refusing.feed(garbage);
  }
  EXPECT_LE(refusing.held_bytes(), 2 * kPiece);
  const auto refused = refusing.finish();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(describe(refused.error()), "post-mortem dump, byte 24: block size 1073741825 bytes: more than this reader "
                                       "takes (1073741824)");
}

}  // namespace
