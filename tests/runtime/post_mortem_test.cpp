// Post-mortem backend (two cores, 1 KiB rings, 128-byte metadata areas), read
// back with the host's dump reader: exactly the newest events, whole, after
// wrapping many times, at every alignment; a dump taken in the middle of a
// write (torn last frame); a big-endian image; names kept per core.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "postmortem/dump_reader.hpp"
#include "tband.h"
#include "tband/post_mortem_layout.h"
#include "tband_encode.hpp"
#include "tband_port.h"
#include "trace_capture.hpp"

namespace {

namespace enc = tband::enc;
namespace pm = tband::postmortem;
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kRing = tband_configBACKEND_POST_MORTEM_BUF_SIZE;

Bytes dump() {
  const volatile std::uint8_t* block = tband_get_post_mortem_buf();
  Bytes out(tband_get_post_mortem_buf_size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = block[i];
  }
  return out;
}

/// With TBAND_PM_SEED_DIR set, keeps a dump there: seeds for the fuzz corpora (tests/fuzz).
void save_seed(const char* name, const Bytes& bytes) {
  if (const char* dir = std::getenv("TBAND_PM_SEED_DIR")) {
    std::ofstream(std::string{dir} + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
}

pm::Dump read(const Bytes& bytes) {
  const auto result = pm::read_dump(bytes);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : describe(result.error()));
  return result.ok() ? result.value() : pm::Dump{};
}

/// What core 0 writes for valmarker(1, i) at ts = 7 * i + 1 from the start of
/// a session: a dropped_evt_cnt frame before calls 0, 51, 102, ... and the value.
class Model {
 public:
  /// Returns how many frames the call wrote.
  int call(std::int64_t i) {
    const std::uint64_t ts = 7 * static_cast<std::uint64_t>(i) + 1;
    int written = 1;
    if (calls_++ % (tband_configTRACE_DROP_CNT_EVERY + 1) == 0) {
      frames_.push_back(tband::test::frame_of([&](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, ts, 0); }));
      written = 2;
    }
    frames_.push_back(tband::test::frame_of([&](std::uint8_t* b) { return enc::encode_valmarker(b, ts, 1, i); }));
    return written;
  }
  /// The newest frames that fit in `room` bytes, oldest first, skipping the newest `leave_out`.
  Bytes newest(std::size_t room, std::size_t leave_out = 0) const {
    std::size_t first = frames_.size() - leave_out;
    std::size_t used = 0;
    while (first > 0 && used + frames_[first - 1].size() <= room) {
      used += frames_[--first].size();
    }
    Bytes out;
    for (std::size_t k = first; k < frames_.size() - leave_out; ++k) {
      out.insert(out.end(), frames_[k].begin(), frames_[k].end());
    }
    return out;
  }
  const Bytes& last() const { return frames_.back(); }

 private:
  std::size_t calls_ = 0;
  std::vector<Bytes> frames_;
};

int emit(Model& model, std::int64_t i) {
  tband_host_set_time(7 * static_cast<std::uint64_t>(i) + 1);
  tband_valmarker(1, i);
  return model.call(i);
}

class PostMortem : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
  }
  void TearDown() override { tband_host_set_core_id(0); }
};

TEST_F(PostMortem, StartStopAndTheSelfDescribingHeader) {
  EXPECT_NE(tband_get_post_mortem_buf(), nullptr);
  EXPECT_FALSE(pm::read_dump(dump()).ok()) << "no valid block before the first start";
  EXPECT_EQ(tband_stop_post_mortem(), -1);
  EXPECT_EQ(tband_start_post_mortem(), 0);
  EXPECT_EQ(tband_start_post_mortem(), -1);
  const pm::Dump block = read(dump());
  EXPECT_EQ(block.version, TBAND_PM_VERSION);
  EXPECT_EQ(block.ring_size, kRing);
  EXPECT_EQ(block.metadata_size, 128u);
  ASSERT_EQ(block.cores.size(), 2u);
  EXPECT_TRUE(block.cores[0].events.empty());
  EXPECT_EQ(tband_stop_post_mortem(), 0);
  EXPECT_EQ(tband_stop_post_mortem(), -1);
  EXPECT_TRUE(tband_tracing_finished());
}

TEST_F(PostMortem, NewestEventsWholeAfterWrappingManyTimes) {
  ASSERT_EQ(tband_start_post_mortem(), 0);
  Model model;
  std::int64_t i = 0;
  for (; i < 20000; ++i) {  // about 150 times round the ring
    emit(model, i);
  }
  // Then at every alignment of the ring's oldest frame.
  for (int step = 0; step < 400; ++step, ++i) {
    emit(model, i);
    const pm::Dump block = read(dump());
    ASSERT_TRUE(block.cores.at(0).wrapped);
    ASSERT_EQ(block.cores[0].events, model.newest(kRing)) << "after call " << i;
  }
  const auto events = tband::test::decode_stream(read(dump()).cores[0].events);
  EXPECT_EQ(events.back().value, i - 1);
  save_seed("pm_wrapped.bin", dump());
}

TEST_F(PostMortem, ADumpTakenMidWriteHoldsOnlyWholeFrames) {
  ASSERT_EQ(tband_start_post_mortem(), 0);
  Model model;
  const std::size_t desc = TBAND_PM_HEADER_SIZE;  // core 0's descriptor
  for (std::int64_t i = 0; i < 3000; ++i) {
    const Bytes before = dump();
    if (emit(model, i) != 1) {
      continue;  // the counter went first: the state before the value's write was not dumped
    }
    const Bytes after = dump();
    // The writer moves tail, copies the frame, then moves head. Rebuild every
    // state in between: new tail, old head, the first k bytes of the frame.
    const auto u32 = [](const Bytes& b, std::size_t at) {
      return static_cast<std::uint32_t>(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24);
    };
    const std::uint32_t ring = u32(before, desc + TBAND_PM_CORE_OFF_RING);
    const std::uint32_t old_head = u32(before, desc + TBAND_PM_CORE_OFF_HEAD);
    const std::size_t len = model.last().size();
    for (std::size_t k = 0; k <= len; ++k) {
      Bytes torn = before;
      std::copy_n(after.begin() + desc + TBAND_PM_CORE_OFF_TAIL, 4, torn.begin() + desc + TBAND_PM_CORE_OFF_TAIL);
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t at = ring + (old_head + j) % kRing;
        torn[at] = after[at];
      }
      ASSERT_EQ(read(torn).cores.at(0).events, model.newest(kRing - len, 1))
          << "call " << i << ", " << k << " of " << len << " bytes written";
      if (i == 2000 && k == len / 2) {
        save_seed("pm_torn.bin", torn);
      }
    }
  }
}

TEST_F(PostMortem, BigEndianImageOfTheSameBlock) {
  ASSERT_EQ(tband_start_post_mortem(), 0);
  Model model;
  for (std::int64_t i = 0; i < 500; ++i) {
    emit(model, i);
  }
  Bytes image = dump();
  const pm::Dump little = read(image);
  // Swap every header and descriptor word, as a big-endian target would have stored them.
  const std::size_t words_end = TBAND_PM_HEADER_SIZE + 2 * TBAND_PM_CORE_DESC_SIZE;
  for (std::size_t at = 0; at < words_end; at += 4) {
    std::swap(image[at], image[at + 3]);
    std::swap(image[at + 1], image[at + 2]);
  }
  const pm::Dump big = read(image);
  save_seed("pm_big_endian.bin", image);
  EXPECT_EQ(big.byte_order, pm::ByteOrder::kBigEndian);
  EXPECT_EQ(little.byte_order, pm::ByteOrder::kLittleEndian);
  ASSERT_EQ(big.cores.size(), 2u);
  EXPECT_EQ(big.cores[0].events, little.cores[0].events);
  EXPECT_EQ(big.cores[0].events, model.newest(kRing));
}

TEST_F(PostMortem, EachCoreKeepsItsEventsAndNames) {
  tband_gather_system_metadata();
  tband_isr_name(1, "tick");
  ASSERT_EQ(tband_start_post_mortem(), 0);
  tband_host_set_time(5);
  tband_isr_enter(1);
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_host_set_time(6);
    tband_evtmarker_name(2, "job");
    tband_evtmarker_begin(2, "run");
    for (std::uint32_t i = 0; i < 12; ++i) {
      tband_valmarker_name(10 + i, "a-value-marker");  // 128-byte area: the last few do not fit
    }
  });
  core1.join();

  // Inside a larger RAM image, at an odd offset.
  Bytes ram(777, 0x42);
  const Bytes block = dump();
  ram.insert(ram.end(), block.begin(), block.end());
  const pm::Dump found = read(ram);
  save_seed("pm_two_cores_in_ram.bin", ram);
  EXPECT_EQ(found.block_offset, 777u);
  ASSERT_EQ(found.cores.size(), 2u);
  EXPECT_EQ(tband::test::texts(tband::test::decode_stream(found.cores[0].stream())),
            (std::vector<std::string>{"ts_resolution_ns ns_per_ts=1", "isr_name isr_id=1 name=\"tick\"",
                                      "dropped_evt_cnt ts=5 cnt=0", "isr_enter ts=5 isr_id=1"}));
  const auto core1_events = tband::test::texts(tband::test::decode_stream(found.cores[1].stream()));
  ASSERT_GE(core1_events.size(), 4u);
  EXPECT_EQ(core1_events[0], "evtmarker_name evtmarker_id=2 name=\"job\"");
  EXPECT_GT(found.cores[1].metadata_lost_evts, 0u);
  EXPECT_EQ(found.cores[1].metadata.size(), tband_get_metadata_buf_amnt(1));
  bool overflow_reported = false;
  for (const std::string& event : core1_events) {
    overflow_reported |= event.rfind("metadata_overflow ts=6 core_id=1 lost_evts=1 ", 0) == 0;
  }
  EXPECT_TRUE(overflow_reported);
}

}  // namespace
