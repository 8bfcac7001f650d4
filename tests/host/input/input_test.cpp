// Input formats, sniffing and "file@core" arguments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "input/input_format.hpp"
#include "input/input_reader.hpp"
#include "input/input_spec.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "post_mortem_block_builder.hpp"
#include "trace_builder.hpp"

namespace tband::test {
namespace {

std::vector<std::uint8_t> bytes_of(std::string_view text) { return {text.begin(), text.end()}; }

std::vector<std::uint8_t> decode_all(const InputFormat& format, std::string_view text, std::size_t chunk) {
  auto decoder = format.make_decoder();
  std::vector<std::uint8_t> out;
  const auto in = bytes_of(text);
  for (std::size_t i = 0; i < in.size(); i += chunk) {
    decoder->feed({in.data() + i, std::min(chunk, in.size() - i)}, out);
  }
  decoder->finish(out);
  return out;
}

TEST(InputSpec, SplitsCoreSuffix) {
  EXPECT_EQ(parse_input_spec("trace.bin").path, "trace.bin");
  EXPECT_FALSE(parse_input_spec("trace.bin").core);
  const InputSpec s = parse_input_spec("dir/core1.bin@1");
  EXPECT_EQ(s.path, "dir/core1.bin");
  EXPECT_EQ(s.core, 1u);
  EXPECT_EQ(parse_input_spec("user@host/t.bin").path, "user@host/t.bin");  // not a number: part of the path
  EXPECT_TRUE(parse_input_spec("-").is_stdin());
  EXPECT_THROW(parse_input_spec("t.bin@"), std::invalid_argument);
  EXPECT_THROW(parse_input_spec("t.bin@99999999999"), std::invalid_argument);
}

TEST(HexFormat, IgnoresWhitespaceAcrossChunks) {
  const InputFormat& hex = *find_input_format("hex");
  for (std::size_t chunk : {1u, 2u, 3u, 100u}) {
    EXPECT_EQ(decode_all(hex, "02 0a\n00\t0304 05  00\r\n", chunk),
              (std::vector<std::uint8_t>{0x02, 0x0A, 0x00, 0x03, 0x04, 0x05, 0x00}));
  }
}

TEST(HexFormat, RejectsOtherCharactersWithTheirPlace) {
  const InputFormat& hex = *find_input_format("hex");
  try {
    (void)decode_all(hex, "02 00\n0x05", 64);
    FAIL() << "no error";
  } catch (const InputFormatError& e) {
    EXPECT_NE(std::string{e.what()}.find("'x' at line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)decode_all(hex, "02 0", 64), InputFormatError);
  EXPECT_THROW((void)decode_all(hex, "0 2", 64), InputFormatError);
}

TEST(Base64Format, DecodesDataLinesAndSkipsLogLines) {
  const InputFormat& b64 = *find_input_format("base64");
  // "AgEA" = 02 01 00; "AwQFAA==" = 03 04 05 00
  const std::string log = "boot: tband demo v1\r\nAgEA\n[INFO] sensor ready\n  AwQFAA==  \n\n";
  for (std::size_t chunk : {1u, 5u, 1000u}) {
    EXPECT_EQ(decode_all(b64, log, chunk), (std::vector<std::uint8_t>{0x02, 0x01, 0x00, 0x03, 0x04, 0x05, 0x00}));
  }
  auto decoder = b64.make_decoder();
  std::vector<std::uint8_t> out;
  const auto in = bytes_of(log);
  decoder->feed(in, out);
  decoder->finish(out);
  EXPECT_EQ(decoder->note(), "2 base64 line(s) decoded, 2 log line(s) skipped");
}

TEST(Base64Format, ALogWithoutDataLinesIsAnError) {
  EXPECT_THROW((void)decode_all(*find_input_format("base64"), "hello world\nno trace here\n", 64),
               InputFormatError);
}

TEST(Sniffing, TellsTheFormatsApart) {
  EXPECT_EQ(sniff_input_format(bytes_of(std::string{"\x02\x01\x00", 3})).name, "bin");
  EXPECT_EQ(sniff_input_format(bytes_of("02 01 00\n03 04 00")).name, "hex");
  EXPECT_EQ(sniff_input_format(bytes_of("boot ok\nAgEA\n")).name, "base64");
  EXPECT_THROW((void)sniff_input_format(bytes_of("just some words\n")), InputFormatError);
}

TEST(Sniffing, TheMagicAloneIsNoPostmortemBlock) {
  // A raw trace whose marker name holds "TBPM" at an aligned offset: the
  // bytes after it are no block header (version, sizes), so it stays raw.
  const auto trace = bytes_of(std::string{"\x0f\x05\x03xTBPM marker\x00\x02\x01\x00", 20});
  EXPECT_EQ(sniff_input_format(trace).name, "bin");
  EXPECT_TRUE(looks_like_cobs_frames(trace));
}

TEST(Sniffing, ZerosAndNoiseAreNoCobsFrames) {
  std::vector<std::uint8_t> ram(4096, 0);
  for (std::size_t i = 0; i < ram.size(); i += 3) {
    ram[i] = static_cast<std::uint8_t>(0x40 + i % 100);
  }
  EXPECT_FALSE(looks_like_cobs_frames(ram));
  EXPECT_FALSE(looks_like_cobs_frames({}));
}

std::vector<std::uint8_t> frame_of(std::size_t (*encode)(std::uint8_t*)) {
  std::vector<std::uint8_t> out(enc::kMaxFramedLen);
  out.resize(encode(out.data()));
  return out;
}

std::vector<std::string> decode_to_text(const std::vector<std::uint8_t>& stream) {
  std::vector<std::string> events;
  StreamDecoder decoder;
  const auto sink = [&](const DecodeResult& r, const FrameLocation&) {
    events.push_back(r.ok() ? format_event(r.value()) : "ERROR " + describe(r.error()));
  };
  decoder.feed(stream, sink);
  decoder.finish(sink);
  return events;
}

TEST(PostmortemFormat, RecoversEveryCoreFromARamImage) {
  const auto name = frame_of([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); });
  const auto a = frame_of([](std::uint8_t* b) { return enc::encode_isr_enter(b, 100, 1); });
  const auto b = frame_of([](std::uint8_t* b) { return enc::encode_isr_exit(b, 101, 1); });
  BlockBuilder block(2, 32, 16);
  block.metadata(0, name);
  std::vector<std::uint8_t> ring0 = a;
  ring0.insert(ring0.end(), b.begin(), b.end());
  block.ring(0, ring0, static_cast<std::uint32_t>(ring0.size()), TBAND_PM_TAIL_AT_FRAME);
  block.ring(1, a, static_cast<std::uint32_t>(a.size()), TBAND_PM_TAIL_AT_FRAME);
  block.put_core(1, TBAND_PM_CORE_OFF_META_LOST_EVTS, 2);
  block.put_core(1, TBAND_PM_CORE_OFF_META_LOST_BYTES, 19);
  // The block inside a larger RAM image, after other data, as a debugger dumps it.
  std::vector<std::uint8_t> ram(0x104, 0x5A);
  ram.insert(ram.end(), block.bytes().begin(), block.bytes().end());
  ram.resize(4096, 0x00);

  const InputFormat& format = sniff_input_format(ram);
  ASSERT_EQ(format.name, "postmortem");
  auto decoder = format.make_decoder();
  std::vector<std::uint8_t> stream;
  for (std::size_t i = 0; i < ram.size(); i += 1000) {
    decoder->feed({ram.data() + i, std::min<std::size_t>(1000, ram.size() - i)}, stream);
  }
  decoder->finish(stream);
  EXPECT_EQ(decode_to_text(stream), (std::vector<std::string>{
                                        "core_id ts=0 core_id=0",
                                        "isr_name isr_id=1 name=\"tick\"",
                                        "isr_enter ts=100 isr_id=1",
                                        "isr_exit ts=101 isr_id=1",
                                        "core_id ts=0 core_id=1",
                                        "metadata_overflow ts=0 core_id=1 lost_evts=2 lost_bytes=19",
                                        "isr_enter ts=100 isr_id=1",
                                    }));
  EXPECT_NE(decoder->note().find("post-mortem block at byte 260"), std::string::npos) << decoder->note();
}

TEST(PostmortemFormat, ADumpWithoutABlockSaysSo) {
  std::vector<std::uint8_t> ram(4096, 0x11);
  auto decoder = find_input_format("postmortem")->make_decoder();
  std::vector<std::uint8_t> stream;
  decoder->feed(ram, stream);
  try {
    decoder->finish(stream);
    FAIL() << "no error";
  } catch (const InputFormatError& e) {
    EXPECT_EQ(std::string{e.what()}.rfind("post-mortem dump, byte 0: ", 0), 0u) << e.what();
    EXPECT_NE(std::string{e.what()}.find("TBPM"), std::string::npos) << e.what();
  }
}

TEST(InputReader, MissingAndEmptyFilesAreInputErrors) {
  EXPECT_THROW(InputReader(parse_input_spec("/nonexistent/trace.bin"), "auto"), InputError);
  TraceBuilder empty;
  const std::string path = empty.write("empty.bin");
  try {
    InputReader reader(parse_input_spec(path), "auto");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string{e.what()}.find("empty"), std::string::npos);
  }
}

TEST(InputReader, ReadsHexFilesInChunks) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "02 07 00\n";
  TraceBuilder t;
  t.raw(bytes_of(text));
  InputReader reader(parse_input_spec(t.write("big.hex")), "auto");
  EXPECT_EQ(reader.format_name(), "hex");
  std::size_t total = 0;
  for (auto chunk = reader.next(); !chunk.empty(); chunk = reader.next()) total += chunk.size();
  EXPECT_EQ(total, 300000u);
}

}  // namespace
}  // namespace tband::test
