// The stream decompressors of compressed inputs (input/decompressor.hpp):
// several frames or members, fed and drained in pieces of every size, cut
// short, garbage behind a good magic, empty; and InputReader reading a
// compressed file that is not named so.
#include "input/decompressor.hpp"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "input/input_reader.hpp"

namespace tband {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Deterministic bytes that compress somewhat, like a trace: runs and counters.
Bytes sample(std::size_t size, std::uint32_t seed) {
  Bytes out(size);
  std::uint32_t x = seed;
  for (std::size_t i = 0; i < size; ++i) {
    x = x * 1664525u + 1013904223u;
    out[i] = static_cast<std::uint8_t>((i % 7 == 0) ? 0 : ((x >> 24) & 0x1F));
  }
  return out;
}

Bytes zstd_frame(const Bytes& content) {
  Bytes out(ZSTD_compressBound(content.size()));
  const std::size_t n = ZSTD_compress(out.data(), out.size(), content.data(), content.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

Bytes gzip_member(const Bytes& content) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&zs, static_cast<uLong>(content.size())) + 32);
  zs.next_in = const_cast<Bytef*>(content.data());
  zs.avail_in = static_cast<uInt>(content.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) {
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

struct Decoded {
  Bytes bytes;
  std::string truncation;
};

// Feeds `packed` `piece` bytes at a time, takes into a buffer of `room` bytes.
Decoded decompress(Compression c, const Bytes& packed, std::size_t piece, std::size_t room) {
  const auto d = StreamDecompressor::make(c);
  Decoded out;
  Bytes buffer(room);
  for (std::size_t at = 0; at < packed.size(); at += piece) {
    d->give({packed.data() + at, std::min(piece, packed.size() - at)});
    while (const std::size_t n = d->take(buffer)) {
      out.bytes.insert(out.bytes.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    }
  }
  EXPECT_EQ(d->consumed(), packed.size());
  out.truncation = d->finish();
  return out;
}

struct Codec {
  Compression compression;
  Bytes (*pack)(const Bytes&);
  const char* unit;  // what the truncation message calls a piece
};

class Decompressor : public ::testing::TestWithParam<Codec> {};

TEST_P(Decompressor, SeveralFramesInPiecesOfEverySize) {
  const Codec codec = GetParam();
  const Bytes a = sample(300000, 1);
  const Bytes b = sample(10, 2);
  const Bytes c = sample(70000, 3);
  const Bytes packed = concat({codec.pack(a), codec.pack(b), codec.pack({}), codec.pack(c)});
  const Bytes whole = concat({a, b, c});
  ASSERT_EQ(sniff_compression(packed), codec.compression);
  for (const std::size_t piece : {std::size_t{1}, std::size_t{13}, std::size_t{4096}, packed.size()}) {
    for (const std::size_t room : {std::size_t{1}, std::size_t{1000}, std::size_t{65536}}) {
      if (piece == 1 && room == 1 && codec.compression == Compression::kGzip) {
        continue;  // correct, but a million inflate calls; piece 1 with room 1000 covers it
      }
      const Decoded d = decompress(codec.compression, packed, piece, room);
      EXPECT_EQ(d.bytes, whole) << "piece " << piece << ", room " << room;
      EXPECT_EQ(d.truncation, "");
    }
  }
}

TEST_P(Decompressor, CutShortKeepsWhatCameBeforeAndNamesTheOffset) {
  const Codec codec = GetParam();
  const Bytes a = sample(200000, 4);
  const Bytes b = sample(200000, 5);
  const Bytes first = codec.pack(a);
  const Bytes second = codec.pack(b);
  Bytes packed = concat({first, second});
  const std::size_t cut = first.size() + second.size() / 2;
  packed.resize(cut);
  const Decoded d = decompress(codec.compression, packed, 4096, 65536);
  ASSERT_GE(d.bytes.size(), a.size());  // the first frame whole, then what the second's blocks gave
  ASSERT_LT(d.bytes.size(), a.size() + b.size());
  const Bytes whole = concat({a, b});
  EXPECT_TRUE(std::equal(d.bytes.begin(), d.bytes.end(), whole.begin()));
  EXPECT_EQ(d.truncation, "compressed input cut short: the " + std::string{codec.unit} + " that starts at byte " +
                              std::to_string(first.size()) + " is incomplete (the input ends at byte " +
                              std::to_string(cut) + "); everything before it was read, and of it what could be "
                              "decoded");
}

TEST_P(Decompressor, CutInsideTheHeader) {
  const Codec codec = GetParam();
  Bytes packed = codec.pack(sample(1000, 6));
  packed.resize(5);
  const Decoded d = decompress(codec.compression, packed, 1, 100);
  EXPECT_TRUE(d.bytes.empty());
  EXPECT_NE(d.truncation.find("starts at byte 0 is incomplete (the input ends at byte 5)"), std::string::npos)
      << d.truncation;
}

TEST_P(Decompressor, GarbageBehindTheMagicIsAnError) {
  const Codec codec = GetParam();
  const Bytes good = codec.pack(sample(5000, 7));
  Bytes packed = concat({good, good});
  // The second frame's magic, then garbage.
  for (std::size_t i = good.size() + 4; i < packed.size(); ++i) {
    packed[i] = static_cast<std::uint8_t>(0xA5 ^ i);
  }
  try {
    (void)decompress(codec.compression, packed, 4096, 65536);
    FAIL() << "no error";
  } catch (const DecompressError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(std::string{"not valid "} + std::string{compression_name(codec.compression)} + " data in the"),
              std::string::npos) << what;
    EXPECT_NE(what.find("starts at byte " + std::to_string(good.size())), std::string::npos) << what;
  }
}

TEST_P(Decompressor, EmptyInputAndEmptyFrame) {
  const Codec codec = GetParam();
  Decoded d = decompress(codec.compression, {}, 1, 100);
  EXPECT_TRUE(d.bytes.empty());
  EXPECT_EQ(d.truncation, "");
  d = decompress(codec.compression, codec.pack({}), 1, 100);
  EXPECT_TRUE(d.bytes.empty());
  EXPECT_EQ(d.truncation, "");
}

TEST(GzipPadding, ZeroBytesBetweenAndAfterMembersAreSkippedAndCounted) {
  const Bytes first = sample(3000, 11);
  const Bytes second = sample(2000, 12);
  const Bytes packed = concat({gzip_member(first), Bytes(7), gzip_member(second), Bytes(1000)});
  for (const std::size_t piece : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) {
    const auto d = StreamDecompressor::make(Compression::kGzip);
    Bytes got;
    Bytes buffer(512);
    for (std::size_t at = 0; at < packed.size(); at += piece) {
      d->give({packed.data() + at, std::min(piece, packed.size() - at)});
      while (const std::size_t n = d->take(buffer)) {
        got.insert(got.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
      }
    }
    EXPECT_EQ(got, concat({first, second})) << piece;
    EXPECT_EQ(d->finish(), "") << piece;
    EXPECT_EQ(d->note(), "1007 zero byte(s) of padding after gzip data skipped") << piece;
  }
}

TEST(GzipPadding, AnythingButZeroAfterTheZerosIsAMemberAndMustBeOne) {
  const Bytes good = gzip_member(sample(3000, 11));
  const Bytes packed = concat({good, Bytes(10), Bytes{0x1F, 0x8B, 0x08, 0xFF, 0xFF, 0xFF}});
  try {
    (void)decompress(Compression::kGzip, packed, 4096, 65536);
    FAIL() << "no error";
  } catch (const DecompressError& e) {
    EXPECT_NE(std::string{e.what()}.find("starts at byte " + std::to_string(good.size() + 10)), std::string::npos)
        << e.what();
  }
  // zstd has no such padding: a zero byte after a frame is not a frame.
  const Bytes zstd = zstd_frame(sample(3000, 11));
  try {
    (void)decompress(Compression::kZstd, concat({zstd, Bytes(10)}), 4096, 65536);
    FAIL() << "no error";
  } catch (const DecompressError& e) {
    EXPECT_NE(std::string{e.what()}.find("starts at byte " + std::to_string(zstd.size())), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, Decompressor,
                         ::testing::Values(Codec{Compression::kZstd, zstd_frame, "zstd frame"},
                                           Codec{Compression::kGzip, gzip_member, "gzip member"}),
                         [](const auto& info) { return std::string{compression_name(info.param.compression)}; });

TEST(SniffCompression, Magics) {
  EXPECT_EQ(sniff_compression(Bytes{0x28, 0xB5, 0x2F, 0xFD}), Compression::kZstd);
  EXPECT_EQ(sniff_compression(Bytes{0x5E, 0x2A, 0x4D, 0x18}), Compression::kZstd);  // skippable frame
  EXPECT_EQ(sniff_compression(Bytes{0x1F, 0x8B, 0x08}), Compression::kGzip);
  EXPECT_EQ(sniff_compression(Bytes{0x28, 0xB5, 0x2F}), Compression::kNone);  // too short to tell
  EXPECT_EQ(sniff_compression(Bytes{0x1F, 0x8B, 0x07}), Compression::kNone);
  EXPECT_EQ(sniff_compression(Bytes{0x02, 0x01, 0x00}), Compression::kNone);
}

class TempFile {
 public:
  explicit TempFile(const Bytes& bytes)
      : path_(std::filesystem::temp_directory_path() /
              ("tband_decompressor_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    std::ofstream(path_, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                 static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

Bytes read_all(InputReader& reader) {
  Bytes out;
  for (auto chunk = reader.next(); !chunk.empty(); chunk = reader.next()) {
    out.insert(out.end(), chunk.begin(), chunk.end());
  }
  return out;
}

TEST(InputReaderCompressed, SniffedByMagicNotByName) {
  const Bytes raw = sample(500000, 8);
  for (const Bytes& packed : {concat({zstd_frame(raw)}), gzip_member(raw)}) {
    const TempFile file{packed};  // no .zst or .gz in the name
    InputReader reader{InputSpec{file.path(), std::nullopt}, "bin"};
    EXPECT_EQ(read_all(reader), raw);
    EXPECT_NE(reader.compression(), Compression::kNone);
    EXPECT_EQ(reader.raw_bytes_read(), packed.size());
    EXPECT_EQ(reader.truncation(), "");
  }
}

TEST(InputReaderCompressed, PlainInputsShorterThanAMagic) {
  const TempFile file{Bytes{0x02, 0x01, 0x00}};
  InputReader reader{InputSpec{file.path(), std::nullopt}, "bin"};
  EXPECT_EQ(read_all(reader), (Bytes{0x02, 0x01, 0x00}));
  EXPECT_EQ(reader.compression(), Compression::kNone);
}

TEST(InputReaderCompressed, TruncationAndGarbage) {
  const Bytes raw = sample(300000, 9);
  Bytes packed = concat({zstd_frame(raw), zstd_frame(raw)});
  const std::size_t first = zstd_frame(raw).size();
  packed.resize(first + 100);
  {
    const TempFile file{packed};
    InputReader reader{InputSpec{file.path(), std::nullopt}, "bin"};
    const Bytes got = read_all(reader);
    EXPECT_GE(got.size(), raw.size());
    EXPECT_NE(reader.truncation().find("starts at byte " + std::to_string(first)), std::string::npos);
  }
  Bytes garbage{0x28, 0xB5, 0x2F, 0xFD};
  garbage.resize(1000, 0xEE);
  const TempFile file{garbage};
  try {
    InputReader reader{InputSpec{file.path(), std::nullopt}, "auto"};
    (void)read_all(reader);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string{e.what()}.find(file.path() + ": not valid zstd data in the frame that starts at byte 0"),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tband
