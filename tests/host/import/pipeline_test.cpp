// The conversion on two threads (import/decode_pipeline.hpp) against the one
// on one thread: the same Perfetto and JSON bytes, the same results and the
// same diagnostics in the same order, on traces of many batches: the
// benchmark mix, random events with broken frames, several inputs merged by
// time, events of a schema loaded at run time, unknown ids, strings that are
// not UTF-8, a trace cut mid-frame, the fuzz corpus. And errors in either
// thread end the conversion cleanly: an input that turns unreadable, an
// output that cannot be written, a caller that stops early.
// ThreadSanitizer runs this too (scripts/test.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>

#include "both_ways.hpp"
#include "convert_helper.hpp"
#include "import/decode_pipeline.hpp"
#include "import/event_stream.hpp"
#include "schema/runtime_schema.hpp"
#include "schema/schema_set.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;
namespace fs = std::filesystem;

struct Outcome {
  ConversionResult result;
  std::string perfetto;
  std::string json;
  std::string error;  // what convert() threw, if it did
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Case {
  Case(std::vector<std::string> inputs_, TraceMode mode_ = TraceMode::kFreeRtos, std::uint32_t cores_ = 1,
       std::string format_ = "auto")
      : inputs(std::move(inputs_)), mode(mode_), cores(cores_), format(std::move(format_)) {}

  std::vector<std::string> inputs;
  TraceMode mode;
  std::uint32_t cores;
  std::string format;
  std::function<std::unique_ptr<SchemaSet>()> schemas;  // a fresh set per run; may be empty
};

Outcome run(const Case& setup, ConversionThreads threads, const std::string& name) {
  ConversionOptions options;
  for (const std::string& in : setup.inputs) {
    options.inputs.push_back(parse_input_spec(in));
  }
  options.format = setup.format;
  options.interpreter.mode = setup.mode;
  options.interpreter.core_count = setup.cores;
  options.threads = threads;
  std::unique_ptr<SchemaSet> schemas = setup.schemas ? setup.schemas() : nullptr;
  options.schemas = schemas.get();
  const std::string suffix = threads == ConversionThreads::kTwo ? "_two" : "_one";
  const std::string perfetto = temp_path(name + suffix + ".pftrace");
  const std::string json = temp_path(name + suffix + ".json");
  std::FILE* p = std::fopen(perfetto.c_str(), "wb");
  std::FILE* j = std::fopen(json.c_str(), "wb");
  options.perfetto = {p, perfetto};
  options.json = {j, json};
  Outcome r;
  try {
    r.result = convert(options);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  std::fclose(p);
  std::fclose(j);
  r.perfetto = read_file(perfetto);
  r.json = read_file(json);
  fs::remove(perfetto);
  fs::remove(json);
  return r;
}

std::string diagnostics_text(const Diagnostics& d) {
  std::ostringstream out;
  for (const Diagnostic& k : d.kept()) {
    out << to_string(k.kind) << " @" << (k.ts_ns ? std::to_string(*k.ts_ns) : "-") << ": " << k.message << "\n";
  }
  out << d.summary();
  return out.str();
}

// Converts both ways and expects the same of everything; returns the run on two threads.
Outcome expect_same_both_ways(const Case& setup, const std::string& name) {
  const Outcome one = run(setup, ConversionThreads::kOne, name);
  const Outcome two = run(setup, ConversionThreads::kTwo, name);
  EXPECT_EQ(one.error, two.error) << name;
  EXPECT_TRUE(one.perfetto == two.perfetto) << name << ": Perfetto output differs (" << one.perfetto.size()
                                            << " vs " << two.perfetto.size() << " bytes)";
  EXPECT_TRUE(one.json == two.json) << name << ": JSON output differs";
  const ConversionResult& a = one.result;
  const ConversionResult& b = two.result;
  EXPECT_EQ(a.events, b.events) << name;
  EXPECT_EQ(a.decode_errors, b.decode_errors) << name;
  EXPECT_EQ(a.unknown_frames, b.unknown_frames) << name;
  EXPECT_EQ(a.input_bytes, b.input_bytes) << name;
  EXPECT_EQ(a.perfetto_bytes, b.perfetto_bytes) << name;
  EXPECT_EQ(a.json_bytes, b.json_bytes) << name;
  EXPECT_EQ(a.tracks, b.tracks) << name;
  EXPECT_EQ(a.interned_names, b.interned_names) << name;
  EXPECT_EQ(a.first_ts_ns, b.first_ts_ns) << name;
  EXPECT_EQ(a.last_ts_ns, b.last_ts_ns) << name;
  EXPECT_EQ(a.dropped_events, b.dropped_events) << name;
  EXPECT_EQ(a.notes, b.notes) << name;
  EXPECT_EQ(diagnostics_text(a.diagnostics), diagnostics_text(b.diagnostics)) << name;
  return two;
}

// The benchmark mix: per cycle an ISR, an event-marker span with a message
// and a value marker; many batches' worth.
TraceBuilder mix_trace(int cycles, std::uint64_t ts = 0, std::uint32_t isr = 7) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "acq"); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, 2, "fill"); })
      .add([&](std::uint8_t* b) { return enc::encode_isr_name(b, isr, "timer"); });
  for (int i = 0; i < cycles; ++i) {
    t.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, ts += 13, isr); })
        .add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, ts += 7, 1, i % 3 == 0 ? "fft" : ""); })
        .add([&](std::uint8_t* b) { return enc::encode_valmarker(b, ts += 5, 2, i % 1000 - 500); })
        .add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, ts += 11, 1); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, ts += 3, isr); });
  }
  return t;
}

std::vector<std::uint8_t> framed(const Frame& raw) {
  std::vector<std::uint8_t> out(raw.size() + raw.size() / 254 + 2);
  out.resize(enc::cobs_frame(raw.data(), raw.size(), out.data()));
  return out;
}

// Random events of every kind with random values, and now and then garbage,
// a broken frame, an unknown id or a string that is not UTF-8.
TraceBuilder random_trace(std::uint64_t seed, int frames) {
  std::mt19937_64 rng(seed);
  const auto infos = all_event_infos();
  TraceBuilder t;
  for (int i = 0; i < frames; ++i) {
    switch (rng() % 40) {
      case 0:  // garbage up to the next delimiter
        t.raw({static_cast<std::uint8_t>(rng() | 1u), static_cast<std::uint8_t>(rng() | 1u), 0x00});
        break;
      case 1:  // an id no schema knows
        t.raw(framed({0xEE, static_cast<std::uint8_t>(rng() % 100)}));
        break;
      case 2: {  // an event cut short
        Frame raw = random_frame(infos[rng() % infos.size()], rng);
        raw.resize(std::max<std::size_t>(1, raw.size() / 2));
        t.raw(framed(raw));
        break;
      }
      case 3:  // a message that is not UTF-8
        t.add([&](std::uint8_t* b) { return enc::encode_evtmarker(b, rng() % 1000000, 3, "bad \xFF\xFE"); });
        break;
      default:
        t.raw(framed(random_frame(infos[rng() % infos.size()], rng)));
        break;
    }
  }
  return t;
}

TEST(Pipeline, TheBenchmarkMixConvertsTheSameOnTwoThreads) {
  const std::string path = mix_trace(60000).write("pipeline_mix.bin");  // 300,004 events: many batches
  const Outcome two = expect_same_both_ways({{path}}, "pipeline_mix");
  EXPECT_EQ(two.result.events, 300004u);
  EXPECT_TRUE(two.error.empty()) << two.error;
}

TEST(Pipeline, RandomEventsWithBrokenFramesConvertTheSame) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::string name = "pipeline_random_" + std::to_string(seed);
    const std::string path = random_trace(seed, 20000).write(name + ".bin");
    for (const TraceMode mode : {TraceMode::kFreeRtos, TraceMode::kBareMetal}) {
      const Outcome two = expect_same_both_ways({{path}, mode, 2}, name);
      EXPECT_GT(two.result.decode_errors, 0u);
      EXPECT_GT(two.result.diagnostics.total(), 0u);
    }
  }
}

TEST(Pipeline, SeveralInputsMergedByTimeConvertTheSame) {
  // Three cores' files whose events interleave in time; the second has broken
  // frames, the third switches core ids inside the stream (core_id events).
  TraceBuilder core0 = mix_trace(20000, 0, 7);
  TraceBuilder core1 = mix_trace(20000, 5, 8);
  core1.raw({0x05, 0x01, 0x00, 0x03, 0x00}).raw({0x02, 0xEE, 0x00});
  TraceBuilder core2 = mix_trace(5000, 2, 9);
  core2.add([](std::uint8_t* b) { return enc::encode_core_id(b, 900000, 1); });
  for (int i = 0; i < 2000; ++i) {
    core2.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, 900001u + 2u * static_cast<unsigned>(i), 9); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, 900002u + 2u * static_cast<unsigned>(i), 9); });
  }
  core2.raw({0x04, 0x04, 0x11});  // cut off mid-frame
  const Case setup{{core0.write("merge_core0.bin") + "@0", core1.write("merge_core1.bin") + "@1",
                    core2.write("merge_core2.bin") + "@2"},
                   TraceMode::kFreeRtos, 3};
  const Outcome two = expect_same_both_ways(setup, "pipeline_merged");
  EXPECT_GT(two.result.events, 200000u);
  EXPECT_GT(two.result.decode_errors, 0u);
  EXPECT_EQ(two.result.diagnostics.count(DiagnosticKind::kTruncatedEnd), 1u);
}

TEST(Pipeline, RuntimeSchemaEventsUnknownIdsAndBadStringsConvertTheSame) {
  const std::string kTs = R"({"name": "ts", "type": "u64", "implicit": true})";
  const std::string descriptor = R"({"format": "tband-schema-descriptor", "version": 1,
      "trace_id": "00000000000000ab", "user_groups": ["app"], "enums": [], "events": [
    {"name": "job_begin", "id": 192, "fields": [)" + kTs + R"(, {"name": "job", "type": "u8"},
        {"name": "msg", "type": "str"}],
     "display": {"kind": "span_begin", "span": "job", "key": ["job"], "track": "jobs", "name": "job {job}"}},
    {"name": "job_end", "id": 193, "fields": [)" + kTs + R"(, {"name": "job", "type": "u8"}],
     "display": {"kind": "span_end", "span": "job", "key": ["job"]}},
    {"name": "speed", "id": 194, "fields": [)" + kTs + R"(, {"name": "motor", "type": "u8"},
        {"name": "rpm", "type": "f32"}],
     "display": {"kind": "counter", "value": "rpm", "track": "motor {motor} speed"}},
    {"name": "note", "id": 195, "fields": [)" + kTs + R"(, {"name": "text", "type": "str"}]}]})";
  const auto schema = std::make_shared<const RuntimeSchema>(RuntimeSchema::from_descriptor(descriptor, "app.json"));

  std::mt19937_64 rng(99);
  TraceBuilder t = mix_trace(2000);
  std::uint64_t ts = 1000000;
  for (int i = 0; i < 30000; ++i) {
    const auto job = static_cast<std::uint8_t>(1 + rng() % 4);
    Frame f;
    switch (rng() % 9) {
      case 0:
      case 1:
        f = {0xC0};
        put_varlen(f, ts += 3);
        f.push_back(job);
        f.insert(f.end(), {'r', 'u', 'n'});
        if (rng() % 50 == 0) {
          f.push_back(0xFF);  // not UTF-8
        }
        break;
      case 2:
      case 3:
        f = {0xC1};
        put_varlen(f, ts += 3);
        f.push_back(job);
        break;
      case 4:
        f = {0xC2};
        put_varlen(f, ts += 2);
        f.push_back(job);
        put_varlen(f, rng() & 0xFFFFFFFFu);
        break;
      case 5:
        f = {0xC3};
        put_varlen(f, ts += 1);
        f.insert(f.end(), {'h', 'i'});
        break;
      case 6:
        f = {static_cast<std::uint8_t>(0xE0 + rng() % 4), 0x01};  // ids no schema knows
        break;
      case 7:
        f = {0xC2, 0x80};  // a run-time event cut off in its timestamp
        break;
      default:
        f = {0x04};  // isr_enter without its fields
        break;
    }
    t.raw(framed(f));
  }
  const std::string path = t.write("pipeline_runtime.bin");
  Case setup{{path}};
  setup.schemas = [&] {
    auto set = std::make_unique<SchemaSet>(CompiledSchema{all_event_infos(), kSchemaTraceId});
    set->add_given(schema);
    return set;
  };
  const Outcome two = expect_same_both_ways(setup, "pipeline_runtime");
  EXPECT_GT(two.result.unknown_frames, 0u);
  EXPECT_GT(two.result.diagnostics.count(DiagnosticKind::kUnknownEventId), 0u);
  EXPECT_GT(two.result.diagnostics.count(DiagnosticKind::kInvalidUtf8), 0u);

  // Without the schema the same ids are unknown, frame by frame.
  expect_same_both_ways({{path}}, "pipeline_runtime_no_schema");
}

TEST(Pipeline, TheFuzzCorpusConvertsTheSame) {
  // The whole corpus as one input (many batches of broken frames), and a
  // sample of its files one by one.
  const fs::path corpus = fs::path{TBAND_TEST_VECTORS_DIR}.parent_path().parent_path() / "fuzz" / "corpus";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    if (entry.is_regular_file() && entry.file_size() > 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u);
  std::string all;
  for (const fs::path& f : files) {
    all += read_file(f.string());
  }
  const std::string path = temp_path("pipeline_corpus.bin");
  std::ofstream(path, std::ios::binary) << all;
  for (const TraceMode mode : {TraceMode::kFreeRtos, TraceMode::kBareMetal}) {
    Case setup{{path}, mode, 2, "bin"};
    expect_same_both_ways(setup, "pipeline_corpus");
  }
  for (std::size_t i = 0; i < files.size(); i += 25) {
    expect_same_both_ways({{files[i].string()}, TraceMode::kFreeRtos, 2, "bin"}, "pipeline_corpus_file");
  }
}

TEST(Pipeline, AnInputThatTurnsUnreadableStopsBothThreadsWithItsError) {
  // Hex whose first chunks are good and whose end is not: the decoding
  // thread fails after it has handed over many batches.
  std::string hex;
  const TraceBuilder good = mix_trace(30000);
  for (const std::uint8_t b : good.bytes()) {
    static const char* digits = "0123456789abcdef";
    hex += digits[b >> 4];
    hex += digits[b & 15];
    hex += ' ';
  }
  hex += "zz\n";
  const std::string path = temp_path("pipeline_bad.hex");
  std::ofstream(path, std::ios::binary) << hex;
  const Case setup{{path}, TraceMode::kFreeRtos, 1, "hex"};
  const Outcome two = expect_same_both_ways(setup, "pipeline_bad_hex");
  EXPECT_NE(two.error.find("unexpected character"), std::string::npos) << two.error;
}

TEST(Pipeline, NothingButGarbageIsRejectedTheSame) {
  std::string garbage(3 << 20, '\x55');
  for (std::size_t i = 100; i < garbage.size(); i += 97) {
    garbage[i] = '\0';
  }
  const std::string path = temp_path("pipeline_garbage.bin");
  std::ofstream(path, std::ios::binary) << garbage;
  const Outcome two = expect_same_both_ways({{path}, TraceMode::kFreeRtos, 1, "bin"}, "pipeline_garbage");
  EXPECT_NE(two.error.find("no valid events"), std::string::npos) << two.error;
}

TEST(Pipeline, AnOutputThatCannotBeWrittenFailsTheSame) {
  if (!fs::exists("/dev/full")) {
    GTEST_SKIP() << "no /dev/full";
  }
  const std::string path = mix_trace(40000).write("pipeline_full.bin");
  for (const ConversionThreads threads : {ConversionThreads::kOne, ConversionThreads::kTwo}) {
    ConversionOptions options;
    options.inputs.push_back(parse_input_spec(path));
    options.threads = threads;
    std::FILE* full = std::fopen("/dev/full", "wb");
    ASSERT_NE(full, nullptr);
    options.perfetto = {full, "/dev/full"};
    try {
      (void)convert(options);
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string{e.what()}, "/dev/full: write failed");
    }
    std::fclose(full);
  }
}

// The pipeline itself: a caller that stops early (as when the interpreter
// throws) neither hangs nor leaks the thread, whether the decoding thread is
// still reading, waiting for a free batch or done.
TEST(Pipeline, ACallerThatStopsEarlyEndsTheDecodingThread) {
  const std::string path = mix_trace(100000).write("pipeline_early.bin");
  for (const int batches : {0, 1, 3, 100}) {
    std::vector<std::unique_ptr<EventStream>> streams;
    streams.push_back(std::make_unique<EventStream>(std::make_unique<InputReader>(parse_input_spec(path), "auto"), 0));
    const std::vector<std::string> names{path};
    std::uint64_t entries = 0;
    {
      DecodePipeline pipeline{streams, names, nullptr, nullptr};
      for (int i = 0; i < batches; ++i) {
        const DecodedBatch* batch = pipeline.next();
        if (batch == nullptr) {
          break;
        }
        entries += batch->entries().size();
      }
    }  // destroyed early: the thread must stop
    if (batches == 100) {
      EXPECT_EQ(entries, std::min<std::uint64_t>(500004u, 100u * DecodedBatch::kCapacity));
    }
  }
}

TEST(Pipeline, EveryEntryArrivesInOrderAcrossTheQueue) {
  // More batches than the queue holds, consumed slowly and quickly in turn.
  const std::string path = mix_trace(50000).write("pipeline_order.bin");
  std::vector<std::unique_ptr<EventStream>> streams;
  streams.push_back(std::make_unique<EventStream>(std::make_unique<InputReader>(parse_input_spec(path), "auto"), 0));
  const std::vector<std::string> names{path};
  DecodePipeline pipeline{streams, names, nullptr, nullptr};
  std::uint64_t expected_offset = 0;
  std::uint64_t count = 0;
  int n = 0;
  while (const DecodedBatch* batch = pipeline.next()) {
    for (const BatchEntry& e : batch->entries()) {
      ASSERT_EQ(e.at.offset, expected_offset);
      ASSERT_EQ(e.at.index, count);
      expected_offset += e.at.length;
      ++count;
    }
    if (++n % 7 == 0) {
      std::this_thread::yield();
    }
  }
  EXPECT_EQ(count, 250004u);
}

}  // namespace
}  // namespace tband::test
