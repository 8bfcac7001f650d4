// The host's side of compact timestamps (decode/compact_ts.hpp) on hand-made
// frames: only the exact announcement switches the mode on, so a stray 0x11
// frame in garbage leaves every later time as it is.
#include "decode/compact_ts.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace tband {
namespace {

struct Seen {
  std::vector<std::vector<std::uint8_t>> frames;
  std::size_t errors = 0;
};

void feed(CompactTs& compact, std::vector<std::uint8_t> frame, Seen& seen) {
  const RawFrame raw{frame, {}, nullptr};
  compact.pass(raw, [](std::uint8_t id) { return id >= 0x21; },
               [&](const RawFrame& out) {
                 if (out.error != nullptr) {
                   ++seen.errors;
                 } else {
                   seen.frames.emplace_back(out.data.begin(), out.data.end());
                 }
               });
}

TEST(CompactTs, TheAnnouncementSwitchesTimesToDeltas) {
  CompactTs compact;
  Seen seen;
  feed(compact, {0x11, 2, 19}, seen);
  EXPECT_TRUE(compact.active());
  feed(compact, {0x30, 0x91, 0x03}, seen);  // absolute 100: varint of 100 << 2 | 1 (401)
  feed(compact, {0x30, 5 << 2}, seen);      // the anchor + 5
  ASSERT_EQ(seen.frames.size(), 3u);
  EXPECT_EQ(seen.frames[1], (std::vector<std::uint8_t>{0x30, 100}));
  EXPECT_EQ(seen.frames[2], (std::vector<std::uint8_t>{0x30, 105}));
  EXPECT_EQ(seen.errors, 0u);
}

TEST(CompactTs, AStray0x11FrameIsNoAnnouncement) {
  for (const std::vector<std::uint8_t>& stray : std::vector<std::vector<std::uint8_t>>{
           {0x11}, {0x11, 2}, {0x11, 3, 19}, {0x11, 2, 18}, {0x11, 2, 19, 0}, {0x11, 0x82, 0x80, 0x80}}) {
    CompactTs compact;
    Seen seen;
    feed(compact, stray, seen);
    EXPECT_FALSE(compact.active()) << stray.size();
    feed(compact, {0x30, 20}, seen);  // a plain time: handed on as it is
    ASSERT_EQ(seen.frames.size(), 2u);
    EXPECT_EQ(seen.frames[1], (std::vector<std::uint8_t>{0x30, 20}));
    EXPECT_EQ(seen.errors, 0u);
  }
}

}  // namespace
}  // namespace tband
