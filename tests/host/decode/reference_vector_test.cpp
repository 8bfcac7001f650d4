// A trace written by the reference implementation's own C tracer must decode
// without a single error, and our encoder must write the same bytes for the
// same calls.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband_encode.hpp"

namespace {

std::vector<std::uint8_t> read_vector(const std::string& name) {
  std::ifstream file(std::string{TBAND_TEST_VECTORS_DIR} + "/" + name, std::ios::binary);
  EXPECT_TRUE(file) << name;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// What the reference tracer's bare-metal integration test emitted, in order.
const std::vector<std::string> kExpectedEvents = {
    "ts_resolution_ns ns_per_ts=1",
    "isr_name isr_id=0 name=\"ISR0\"",
    "isr_name isr_id=1 name=\"ISR1\"",
    "evtmarker_name evtmarker_id=0 name=\"EVTM0\"",
    "valmarker_name valmarker_id=0 name=\"VALM0\"",
    "evtmarker_name evtmarker_id=100 name=\"my_fn1\"",
    "evtmarker_name evtmarker_id=101 name=\"my_fn2\"",
    "isr_enter ts=10 isr_id=0",
    "isr_enter ts=12 isr_id=1",
    "isr_exit ts=14 isr_id=1",
    "isr_exit ts=16 isr_id=0",
    "evtmarker ts=20 evtmarker_id=0 msg=\"EVENT@20\"",
    "evtmarker_begin ts=30 evtmarker_id=0 msg=\"EVENT@30\"",
    "evtmarker_end ts=40 evtmarker_id=0",
    "evtmarker_name evtmarker_id=100 name=\"my_fn1\"",
    "evtmarker_begin ts=40 evtmarker_id=100 msg=\"\"",
    "evtmarker_end ts=50 evtmarker_id=100",
    "evtmarker_name evtmarker_id=101 name=\"my_fn2\"",
    "evtmarker ts=50 evtmarker_id=101 msg=\"\"",
};

// Re-encodes one decoded event with the generated encoder, as the firmware
// call that produced it would.
std::vector<std::uint8_t> reencode(const tband::Event& event) {
  namespace enc = tband::enc;
  std::vector<std::uint8_t> out(enc::kMaxFramedLen);
  const std::size_t len = std::visit(
      [&](const auto& e) -> std::size_t {
        using T = std::decay_t<decltype(e)>;
        std::uint8_t* b = out.data();
        if constexpr (std::is_same_v<T, tband::TsResolutionNs>) {
          return enc::encode_ts_resolution_ns(b, e.ns_per_ts);
        } else if constexpr (std::is_same_v<T, tband::IsrName>) {
          return enc::encode_isr_name(b, e.isr_id, e.name.data(), e.name.size());
        } else if constexpr (std::is_same_v<T, tband::EvtmarkerName>) {
          return enc::encode_evtmarker_name(b, e.evtmarker_id, e.name.data(), e.name.size());
        } else if constexpr (std::is_same_v<T, tband::ValmarkerName>) {
          return enc::encode_valmarker_name(b, e.valmarker_id, e.name.data(), e.name.size());
        } else if constexpr (std::is_same_v<T, tband::IsrEnter>) {
          return enc::encode_isr_enter(b, e.ts, e.isr_id);
        } else if constexpr (std::is_same_v<T, tband::IsrExit>) {
          return enc::encode_isr_exit(b, e.ts, e.isr_id);
        } else if constexpr (std::is_same_v<T, tband::Evtmarker>) {
          return enc::encode_evtmarker(b, e.ts, e.evtmarker_id, e.msg.data(), e.msg.size());
        } else if constexpr (std::is_same_v<T, tband::EvtmarkerBegin>) {
          return enc::encode_evtmarker_begin(b, e.ts, e.evtmarker_id, e.msg.data(), e.msg.size());
        } else if constexpr (std::is_same_v<T, tband::EvtmarkerEnd>) {
          return enc::encode_evtmarker_end(b, e.ts, e.evtmarker_id);
        } else {
          ADD_FAILURE() << "no re-encoding for " << T::kName;
          return 0;
        }
      },
      event);
  out.resize(len);
  return out;
}

TEST(ReferenceVector, DecodesWithoutErrorAndNamesResolve) {
  const std::vector<std::uint8_t> bytes = read_vector("reference_baremetal.bin");
  ASSERT_EQ(bytes.size(), 144u);
  std::vector<std::string> events;
  std::vector<std::uint8_t> reencoded;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation& at) {
    ASSERT_TRUE(result.ok()) << "frame at byte " << at.offset << ": " << tband::describe(result.error());
    events.push_back(tband::format_event(result.value()));
    const std::vector<std::uint8_t> frame = reencode(result.value());
    reencoded.insert(reencoded.end(), frame.begin(), frame.end());
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  EXPECT_EQ(events, kExpectedEvents);
  // Every id used by a marker or ISR event was named by a metadata event.
  for (const std::string& e : events) {
    if (e.starts_with("isr_enter") || e.starts_with("isr_exit")) {
      const std::string id = e.substr(e.find("isr_id=") + 7);
      EXPECT_NE(std::find(events.begin(), events.end(), "isr_name isr_id=" + id + " name=\"ISR" + id + "\""),
                events.end())
          << e;
    }
  }
  // Byte for byte: our encoder writes exactly what the reference wrote.
  EXPECT_EQ(reencoded, bytes);
}

TEST(ReferenceVector, SameEventsWhateverTheChunkSize) {
  const std::vector<std::uint8_t> bytes = read_vector("reference_baremetal.bin");
  for (std::size_t chunk = 1; chunk <= 17; ++chunk) {
    std::vector<std::string> events;
    tband::StreamDecoder decoder;
    const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation&) {
      events.push_back(result.ok() ? tband::format_event(result.value()) : tband::describe(result.error()));
    };
    for (std::size_t at = 0; at < bytes.size(); at += chunk) {
      decoder.feed({bytes.data() + at, std::min(chunk, bytes.size() - at)}, sink);
    }
    decoder.finish(sink);
    EXPECT_EQ(events, kExpectedEvents) << "chunk size " << chunk;
  }
}

}  // namespace
