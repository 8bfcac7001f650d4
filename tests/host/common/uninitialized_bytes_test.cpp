// The input reader's chunk buffer: resizing keeps the bytes written so far,
// and growing a chunk at a time reallocates only a logarithmic number of times.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "common/uninitialized_bytes.hpp"

namespace tband::test {
namespace {

TEST(UninitializedBytes, ResizeKeepsTheBytesWrittenBefore) {
  UninitializedBytes bytes(16);
  std::iota(bytes.data(), bytes.data() + 16, std::uint8_t{1});
  bytes.resize(100000);
  ASSERT_EQ(bytes.size(), 100000u);
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(bytes.data()[i], i + 1);
  }
  bytes.resize(4);
  bytes.shrink_to_fit();
  ASSERT_EQ(bytes.size(), 4u);
  EXPECT_EQ(bytes.data()[3], 4);
  bytes.resize(0);
  bytes.shrink_to_fit();
  EXPECT_EQ(bytes.size(), 0u);
}

TEST(UninitializedBytes, GrowingAChunkAtATimeMovesTheStorageRarely) {
  constexpr std::size_t kChunk = 64 * 1024;
  UninitializedBytes bytes(kChunk);
  int moves = 0;
  const std::uint8_t* where = bytes.data();
  for (std::size_t chunks = 2; chunks <= 1024; ++chunks) {  // 64 MiB
    bytes.resize(chunks * kChunk);
    bytes.data()[bytes.size() - 1] = 1;
    if (bytes.data() != where) {
      ++moves;
      where = bytes.data();
    }
  }
  EXPECT_LE(moves, 11);  // doubling from 64 KiB to 64 MiB
}

}  // namespace
}  // namespace tband::test
