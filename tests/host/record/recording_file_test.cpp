// The file a source is recorded into: created only when the recording starts,
// written straight through, split into parts at frame delimiters; compressed,
// in zstd frames that end by size, by time, at rotation and at the end.
#include <gtest/gtest.h>
#include <zstd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "record/recording_file.hpp"
#include "trace_builder.hpp"

namespace tband::record {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string fresh_path(const std::string& name) {
  const std::string path = test::temp_path(name);
  std::filesystem::remove(path);
  return path;
}

// `count` frames of `size` bytes each: size - 1 non-zero bytes and a delimiter.
Bytes frames(std::size_t count, std::size_t size) {
  Bytes out;
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t k = 0; k + 1 < size; ++k) {
      out.push_back(static_cast<std::uint8_t>(1 + (i + k) % 200));
    }
    out.push_back(0);
  }
  return out;
}

std::string error_of_write(RecordingFile& file, const Bytes& bytes) {
  try {
    file.write(bytes);
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}

TEST(RecordingFile, NothingIsCreatedBeforeStart) {
  const std::string path = fresh_path("lazy.bin");
  {
    RecordingFile file{path, 0};
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(file.parts().empty());
    EXPECT_EQ(file.bytes(), 0U);
    EXPECT_TRUE(file.at_frame_boundary());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RecordingFile, AnExistingFileIsKeptUntilStart) {
  const std::string path = fresh_path("kept.bin");
  write_text(path, "an earlier recording");
  { RecordingFile file{path, 0}; }
  EXPECT_EQ(read_all(path), (Bytes{'a', 'n', ' ', 'e', 'a', 'r', 'l', 'i', 'e', 'r', ' ', 'r', 'e', 'c', 'o', 'r',
                                   'd', 'i', 'n', 'g'}));
  RecordingFile file{path, 0};
  file.start();
  EXPECT_TRUE(read_all(path).empty());  // truncated by start()
  EXPECT_EQ(file.parts(), std::vector<std::string>{path});
}

TEST(RecordingFile, StartOnlyOnce) {
  const std::string path = fresh_path("once.bin");
  RecordingFile file{path, 0};
  file.start();
  file.write(Bytes{1, 2, 0});
  file.start();  // a second start() neither truncates nor opens another part
  EXPECT_EQ(read_all(path), (Bytes{1, 2, 0}));
  EXPECT_EQ(file.parts().size(), 1U);
}

TEST(RecordingFile, WriteStartsTheRecording) {
  const std::string path = fresh_path("write_starts.bin");
  write_text(path, "old");
  RecordingFile file{path, 0};
  file.write(Bytes{7, 0});
  EXPECT_EQ(read_all(path), (Bytes{7, 0}));
  EXPECT_EQ(file.parts(), std::vector<std::string>{path});
}

TEST(RecordingFile, BytesReachTheFileAtOnce) {
  // No user-space buffer: what write() took is in the file while it is open.
  const std::string path = fresh_path("at_once.bin");
  RecordingFile file{path, 0};
  file.write(Bytes{1, 2, 3});
  EXPECT_EQ(read_all(path), (Bytes{1, 2, 3}));
  file.write(Bytes{4, 0});
  file.sync();
  EXPECT_EQ(read_all(path), (Bytes{1, 2, 3, 4, 0}));
  EXPECT_EQ(file.bytes(), 5U);
}

TEST(RecordingFile, FrameBoundary) {
  RecordingFile file{fresh_path("boundary.bin"), 0};
  EXPECT_TRUE(file.at_frame_boundary());
  file.write(Bytes{5, 6});
  EXPECT_FALSE(file.at_frame_boundary());
  file.write(Bytes{});
  EXPECT_FALSE(file.at_frame_boundary());  // an empty write changes nothing
  file.write(Bytes{7, 0});
  EXPECT_TRUE(file.at_frame_boundary());
  file.write(Bytes{0, 8});
  EXPECT_FALSE(file.at_frame_boundary());
}

TEST(RecordingFile, WithoutRotationOneFileHoldsEverything) {
  const std::string path = fresh_path("one_file.bin");
  const Bytes data = frames(1000, 17);
  RecordingFile file{path, 0};
  file.write(data);
  EXPECT_EQ(file.parts().size(), 1U);
  EXPECT_EQ(read_all(path), data);
}

TEST(RecordingFile, PartNames) {
  EXPECT_EQ(RecordingFile::part_path("trace.bin", 0), "trace.bin");
  EXPECT_EQ(RecordingFile::part_path("trace.bin", 1), "trace.1.bin");
  EXPECT_EQ(RecordingFile::part_path("out/trace.bin", 12), "out/trace.12.bin");
  EXPECT_EQ(RecordingFile::part_path("trace.tar.gz", 2), "trace.tar.2.gz");
  EXPECT_EQ(RecordingFile::part_path("trace", 1), "trace.1");
  EXPECT_EQ(RecordingFile::part_path("out.d/trace", 3), "out.d/trace.3");  // a dot in a folder is no extension
  EXPECT_EQ(RecordingFile::part_path(".trace", 1), ".trace.1");            // nor a leading dot
  EXPECT_EQ(RecordingFile::part_path("out/.trace", 1), "out/.trace.1");
}

// `data` written at once into parts of `rotate_bytes`: each part's bytes,
// after checking the parts' names and that they hold all of `data`.
std::vector<Bytes> rotated(const std::string& name, const Bytes& data, std::uint64_t rotate_bytes) {
  const std::string path = fresh_path(name);
  RecordingFile file{path, rotate_bytes};
  file.write(data);
  std::vector<Bytes> parts;
  Bytes joined;
  for (std::size_t i = 0; i < file.parts().size(); ++i) {
    EXPECT_EQ(file.parts()[i], RecordingFile::part_path(path, i));
    parts.push_back(read_all(file.parts()[i]));
    joined.insert(joined.end(), parts.back().begin(), parts.back().end());
  }
  EXPECT_EQ(joined, data);
  EXPECT_EQ(file.bytes(), data.size());
  return parts;
}

std::vector<std::size_t> sizes(const std::vector<Bytes>& parts) {
  std::vector<std::size_t> out;
  for (const Bytes& part : parts) {
    out.push_back(part.size());
  }
  return out;
}

TEST(RecordingFile, RotationCutsAtTheFirstDelimiterOnceThePartIsFull) {
  // Frames of 4 bytes, parts of 10: a part reaches 10 bytes inside its third
  // frame and ends with it, at 12.
  EXPECT_EQ(sizes(rotated("rotate.bin", frames(7, 4), 10)), (std::vector<std::size_t>{12, 12, 4}));
}

TEST(RecordingFile, RotationAtExactlyTheSize) {
  EXPECT_EQ(sizes(rotated("rotate_exact.bin", frames(5, 4), 8)), (std::vector<std::size_t>{8, 8, 4}));
}

TEST(RecordingFile, RotationNeverCutsAFrame) {
  Bytes data(50, 0x11);  // one frame much longer than a part
  data.push_back(0);
  data.insert(data.end(), {1, 2, 3});
  const std::vector<Bytes> parts = rotated("rotate_long_frame.bin", data, 8);
  ASSERT_EQ(parts.size(), 2U);
  EXPECT_EQ(parts[0].size(), 51U);
  EXPECT_EQ(parts[1], (Bytes{1, 2, 3}));
}

TEST(RecordingFile, TheNextPartOpensWhenOneIsCut) {
  // A write that ends with the cutting delimiter leaves the next part created
  // and empty (a recording that stops there has an empty last part).
  const std::string path = fresh_path("rotate_empty_next.bin");
  RecordingFile file{path, 4};
  file.write(frames(1, 4));
  ASSERT_EQ(file.parts().size(), 2U);
  EXPECT_TRUE(std::filesystem::exists(file.parts()[1]));
  EXPECT_TRUE(read_all(file.parts()[1]).empty());
  EXPECT_TRUE(file.at_frame_boundary());
}

TEST(RecordingFile, RotationDoesNotDependOnHowTheBytesArrive) {
  const Bytes data = frames(41, 7);
  std::vector<std::vector<Bytes>> results;
  for (const std::size_t chunk : {data.size(), std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{64}}) {
    const std::string path = fresh_path("rotate_chunks_" + std::to_string(chunk) + ".bin");
    RecordingFile file{path, 30};
    for (std::size_t at = 0; at < data.size(); at += chunk) {
      file.write(std::span<const std::uint8_t>{data}.subspan(at, std::min(chunk, data.size() - at)));
    }
    std::vector<Bytes> parts;
    Bytes joined;
    for (const std::string& part : file.parts()) {
      parts.push_back(read_all(part));
      joined.insert(joined.end(), parts.back().begin(), parts.back().end());
    }
    EXPECT_EQ(joined, data) << "chunks of " << chunk;
    EXPECT_EQ(file.bytes(), data.size());
    results.push_back(parts);
  }
  ASSERT_EQ(results[0].size(), 9U);  // 8 parts of 35 bytes (the 5th frame reaches 30), then 7
  for (std::size_t i = 1; i < results.size(); ++i) {
    EXPECT_EQ(results[i], results[0]) << i;
  }
}

TEST(RecordingFile, CannotCreate) {
  const std::string path = test::temp_path("no_such_folder") + "/trace.bin";
  RecordingFile file{path, 0};
  try {
    file.start();
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_EQ(std::string{e.what()}, path + ": cannot create the recording: No such file or directory");
  }
  RecordingFile written{path, 0};
  EXPECT_EQ(error_of_write(written, Bytes{1, 0}), path + ": cannot create the recording: No such file or directory");
}

TEST(RecordingFile, WriteError) {
  // /dev/full takes the open and refuses every write.
  RecordingFile file{"/dev/full", 0};
  file.start();
  EXPECT_EQ(error_of_write(file, Bytes{1, 2, 0}), "/dev/full: write failed: No space left on device");
  file.sync();  // a device that cannot sync is no error
}

// ---- --compress: zstd frames ----

// The complete zstd frames of `packed`, each decompressed; `rest` gets the
// byte count after the last complete frame (an open frame, cut short).
std::vector<Bytes> zstd_frames(const Bytes& packed, std::size_t& rest) {
  std::vector<Bytes> out;
  std::size_t at = 0;
  while (at < packed.size()) {
    const std::size_t size = ZSTD_findFrameCompressedSize(packed.data() + at, packed.size() - at);
    if (ZSTD_isError(size) != 0) {
      break;
    }
    ZSTD_DStream* d = ZSTD_createDStream();
    Bytes content;
    Bytes buffer(ZSTD_DStreamOutSize());
    ZSTD_inBuffer in{packed.data() + at, size, 0};
    std::size_t left = 1;
    while (left != 0) {
      ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
      left = ZSTD_decompressStream(d, &o, &in);
      EXPECT_EQ(ZSTD_isError(left), 0U) << ZSTD_getErrorName(left);
      if (ZSTD_isError(left) != 0) {
        break;
      }
      content.insert(content.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(o.pos));
    }
    ZSTD_freeDStream(d);
    out.push_back(std::move(content));
    at += size;
  }
  rest = packed.size() - at;
  return out;
}

Bytes joined(const std::vector<Bytes>& parts) {
  Bytes out;
  for (const Bytes& p : parts) {
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

TEST(RecordingFileCompressed, PartNamesKeepZstLast) {
  EXPECT_EQ(RecordingFile::part_path("trace.bin.zst", 0), "trace.bin.zst");
  EXPECT_EQ(RecordingFile::part_path("trace.bin.zst", 2), "trace.2.bin.zst");
  EXPECT_EQ(RecordingFile::part_path("out/trace.zst", 1), "out/trace.1.zst");
}

TEST(RecordingFileCompressed, AFrameEndsEveryMiBAndOnTime) {
  const std::string path = fresh_path("compressed.bin.zst");
  const Bytes data = frames(50000, 50);  // 2.5 MB
  RecordingFile file{path, 0, true};
  EXPECT_FALSE(file.frame_due());
  file.write(data);
  // Two frames of 1 MiB each are on disk; the rest waits in the open frame.
  std::size_t rest = 0;
  std::vector<Bytes> on_disk = zstd_frames(read_all(path), rest);
  ASSERT_EQ(on_disk.size(), 2U);
  EXPECT_EQ(on_disk[0].size(), RecordingFile::kFrameBytes);
  EXPECT_EQ(on_disk[1].size(), RecordingFile::kFrameBytes);
  const auto due = file.frame_due();
  ASSERT_TRUE(due);
  file.end_due_frame(*due - std::chrono::milliseconds{1});  // not yet
  EXPECT_EQ(zstd_frames(read_all(path), rest).size(), 2U);
  file.end_due_frame(*due);
  on_disk = zstd_frames(read_all(path), rest);
  EXPECT_EQ(rest, 0U);
  ASSERT_EQ(on_disk.size(), 3U);
  EXPECT_EQ(joined(on_disk), data);
  EXPECT_FALSE(file.frame_due());
  EXPECT_EQ(file.bytes(), data.size());
  EXPECT_LT(read_all(path).size(), data.size() / 3);
  // sync() ends the open frame too (the end of a recording).
  file.write(frames(10, 5));
  file.sync();
  on_disk = zstd_frames(read_all(path), rest);
  EXPECT_EQ(rest, 0U);
  EXPECT_EQ(on_disk.size(), 4U);
}

TEST(RecordingFileCompressed, EveryRotationPartIsCompleteAlone) {
  const std::string path = fresh_path("compressed_rotate.bin.zst");
  const Bytes data = frames(1000, 40);
  Bytes parts_content;
  {
    RecordingFile file{path, 4096, true};
    for (std::size_t at = 0; at < data.size(); at += 777) {  // chunks that straddle frames
      file.write({data.data() + at, std::min<std::size_t>(777, data.size() - at)});
    }
    file.sync();
    ASSERT_GT(file.parts().size(), 5U);
    for (std::size_t i = 0; i < file.parts().size(); ++i) {
      EXPECT_EQ(file.parts()[i], RecordingFile::part_path(path, i));
      std::size_t rest = 0;
      const Bytes content = joined(zstd_frames(read_all(file.parts()[i]), rest));
      EXPECT_EQ(rest, 0U) << file.parts()[i];
      if (i + 1 < file.parts().size()) {
        EXPECT_GE(content.size(), 4096U);
        EXPECT_EQ(content.back(), 0);  // cut after a delimiter, as uncompressed parts are
      }
      parts_content.insert(parts_content.end(), content.begin(), content.end());
    }
  }
  EXPECT_EQ(parts_content, data);
}

}  // namespace
}  // namespace tband::record
