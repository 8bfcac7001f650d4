// The double-buffered output: every byte arrives in order, whatever the
// sizes of the writes, and a failing file is reported.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "common/buffered_output.hpp"
#include "trace_builder.hpp"

namespace tband::test {
namespace {

TEST(BufferedOutput, KeepsEveryByteInOrderAcrossBufferHandOvers) {
  const std::string path = temp_path("buffered.bin");
  std::vector<std::uint8_t> expected;
  std::mt19937 rng(7);
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    BufferedOutput out{f, path};
    while (expected.size() < 10 * BufferedOutput::kBufferSize) {
      // Mostly small writes, now and then one larger than the whole buffer.
      const std::size_t n = rng() % 50 == 0 ? BufferedOutput::kBufferSize + rng() % 1000 : rng() % 300;
      std::vector<std::uint8_t> chunk(n);
      for (auto& b : chunk) b = static_cast<std::uint8_t>(rng());
      if (rng() % 2 == 0) {
        out.write(chunk.data(), n);
      } else {
        std::uint8_t* p = out.reserve(n);
        std::copy(chunk.begin(), chunk.end(), p);
        out.commit(p + n);
      }
      expected.insert(expected.end(), chunk.begin(), chunk.end());
    }
    out.flush();
    EXPECT_FALSE(out.failed());
    EXPECT_EQ(out.bytes_written(), expected.size());
    std::fclose(f);
  }
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> actual{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_EQ(actual.size(), expected.size());
  EXPECT_TRUE(actual == expected);
}

TEST(BufferedOutput, ReportsAFileThatCannotBeWritten) {
  std::FILE* f = std::fopen("/dev/full", "wb");
  if (f == nullptr) {
    GTEST_SKIP() << "/dev/full is not available here";
  }
  BufferedOutput out{f, "/dev/full"};
  const std::vector<std::uint8_t> data(3 * BufferedOutput::kBufferSize, 0x55);
  out.write(data.data(), data.size());
  out.flush();
  EXPECT_TRUE(out.failed());
  std::fclose(f);
}

}  // namespace
}  // namespace tband::test
