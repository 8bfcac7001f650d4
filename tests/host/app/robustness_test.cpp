// The interpreter and both writers on arbitrary input: the decoder fuzz
// corpus, and random sequences of well-formed events with random field values
// (ids, core numbers, timestamps going anywhere). Nothing may crash (the
// sanitizer build runs this too); a converted trace must read back cleanly.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "convert_helper.hpp"
#include "tband_events.hpp"

namespace tband::test {
namespace {

namespace fs = std::filesystem;

void convert_both_ways(const std::string& path, const std::string& name) {
  for (const TraceMode mode : {TraceMode::kBareMetal, TraceMode::kFreeRtos}) {
    ConversionOptions options;
    options.inputs.push_back(parse_input_spec(path));
    options.format = "bin";
    options.interpreter.mode = mode;
    options.interpreter.core_count = 2;
    const std::string out = temp_path(name + ".pftrace");
    const std::string json = temp_path(name + ".json");
    std::FILE* f = std::fopen(out.c_str(), "wb");
    std::FILE* j = std::fopen(json.c_str(), "wb");
    options.perfetto = {f, out};
    options.json = {j, json};
    try {
      (void)convert(options);
    } catch (const InputError&) {
      // unreadable input (nothing decodes) is a fine answer
    }
    std::fclose(f);
    std::fclose(j);
  }
}

TEST(Robustness, FuzzCorpusConvertsOrIsRejected) {
  const fs::path corpus = fs::path{TBAND_TEST_VECTORS_DIR}.parent_path().parent_path() / "fuzz" / "corpus";
  ASSERT_TRUE(fs::is_directory(corpus)) << corpus;
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    if (entry.is_regular_file() && entry.file_size() > 0) {
      convert_both_ways(entry.path().string(), "corpus");
      ++files;
    }
  }
  EXPECT_GT(files, 100u);
}

// A random frame of event `info` with random field values.
std::vector<std::uint8_t> random_frame(const EventInfo& info, std::mt19937_64& rng) {
  std::vector<std::uint8_t> raw{info.id};
  const auto varint = [&](std::uint64_t v) {
    while (v >= 0x80) {
      raw.push_back(static_cast<std::uint8_t>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    raw.push_back(static_cast<std::uint8_t>(v));
  };
  // Small values most of the time, so ids repeat and markers nest.
  const auto value = [&](unsigned bits) -> std::uint64_t {
    const std::uint64_t r = rng();
    const std::uint64_t v = rng() % 4 == 0 ? r : r % 8;
    return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1);
  };
  for (const FieldInfo& f : info.fields) {
    switch (f.type) {
      case FieldType::kU8:
      case FieldType::kS8: raw.push_back(static_cast<std::uint8_t>(value(8))); break;
      case FieldType::kBool: raw.push_back(static_cast<std::uint8_t>(value(1))); break;
      case FieldType::kU16: varint(value(16)); break;
      case FieldType::kS16: varint(value(16)); break;  // magnitude << 1 | sign: in range below 2^16
      case FieldType::kU32:
      case FieldType::kF32: varint(value(32)); break;
      case FieldType::kS32: varint(value(32)); break;
      case FieldType::kU64: varint(f.implicit ? rng() % 1000000 : value(64)); break;
      case FieldType::kS64:
      case FieldType::kF64: varint(value(64)); break;
      case FieldType::kEnum: raw.push_back(f.enum_info->values[rng() % f.enum_info->values.size()].value); break;
      case FieldType::kStr:
        for (std::uint64_t n = rng() % 6; n > 0; --n) raw.push_back(static_cast<std::uint8_t>(rng()));
        break;
    }
  }
  std::vector<std::uint8_t> framed(raw.size() + raw.size() / 254 + 2);
  framed.resize(enc::cobs_frame(raw.data(), raw.size(), framed.data()));
  return framed;
}

TEST(Robustness, RandomEventSequencesConvertAndReadBack) {
  const auto infos = all_event_infos();
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    TraceBuilder t;
    for (int i = 0; i < 3000; ++i) {
      t.raw(random_frame(infos[rng() % infos.size()], rng));
    }
    const std::string name = "random_" + std::to_string(seed);
    const std::string path = t.write(name + ".bin");
    convert_both_ways(path, name);
    const Converted c = convert_files({path}, name, TraceMode::kFreeRtos, 2);
    EXPECT_TRUE(c.view.errors.empty()) << "seed " << seed << ": " << c.view.errors.front();
    EXPECT_GT(c.result.events, 2900u) << "seed " << seed;
  }
}

}  // namespace
}  // namespace tband::test
