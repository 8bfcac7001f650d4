// Chrome trace-event JSON: parses, and has the expected events.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "app/conversion.hpp"
#include "trace_builder.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

TEST(JsonOutput, SlicesCountersAndNamesParse) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1000); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "dsp \"quoted\""); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 1, 1, "fft"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 3, 1); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker(b, 4, 2, -7); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 5, 1, "bad\xff utf8"); });
  ConversionOptions options;
  options.inputs.push_back(parse_input_spec(t.write("json.bin")));
  const std::string path = temp_path("json.json");
  std::FILE* f = std::fopen(path.c_str(), "wb");
  options.json = {f, path};
  (void)convert(options);
  std::fclose(f);

  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const auto& events = doc.at("traceEvents");
  int begins = 0, ends = 0, counters = 0, instants = 0;
  bool named = false;
  for (const auto& e : events) {
    const std::string ph = e.at("ph");
    if (ph == "B") {
      ++begins;
      EXPECT_EQ(e.at("name"), "fft");
      EXPECT_DOUBLE_EQ(e.at("ts").get<double>(), 1.0);  // 1 tick = 1000 ns = 1 us
    }
    if (ph == "E") ++ends;
    if (ph == "C") {
      ++counters;
      EXPECT_EQ(e.at("args").at("value"), -7);
      EXPECT_EQ(e.at("name"), "valmarker 2");
    }
    if (ph == "i") ++instants;
    if (ph == "M" && e.at("args").at("name") == "dsp \"quoted\"") named = true;
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 1);
  EXPECT_EQ(counters, 1);
  EXPECT_GE(instants, 1);
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace tband::test
