// tband demo: encodes a short trace with the generated target encoder, then
// decodes it with the host decoder, fed in small chunks as a UART would
// deliver it, and prints every event. Given file paths, it decodes those too.
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mix_encoder.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband_encode.hpp"

namespace {

namespace enc = tband::enc;

class TraceWriter {
 public:
  template <class Encode>
  void add(Encode&& encode) {
    std::array<std::uint8_t, enc::kMaxFramedLen> frame{};
    const std::size_t len = encode(frame.data());
    std::printf("  ");
    for (std::size_t i = 0; i < len; ++i) {
      std::printf("%02X ", frame[i]);
    }
    std::printf("\n");
    bytes_.insert(bytes_.end(), frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(len));
    ++events_;
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::size_t events() const { return events_; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t events_ = 0;
};

std::vector<std::uint8_t> build_example() {
  TraceWriter w;
  std::printf("Encoded frames (COBS, each ends with 00):\n");
  w.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 40); });
  w.add([](std::uint8_t* b) { return enc::encode_isr_name(b, tband::bench::kMixIsrId, "timer"); });
  w.add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, tband::bench::kMixEvtmarkerId, "sampling"); });
  w.add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, tband::bench::kMixValmarkerId, "fifo level"); });
  tband::bench::BenchmarkMix mix;
  for (int i = 0; i < 2 * tband::bench::kMixEventsPerCycle; ++i) {
    const tband::bench::MixStep s = mix.next();
    w.add([&](std::uint8_t* b) { return tband::bench::encode_mix_step(s, b); });
  }
  w.add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 3, enc::FrQueueKind::FRQK_MUTEX); });
  std::printf("%zu events, %zu bytes\n\n", w.events(), w.bytes().size());
  return w.bytes();
}

// Decodes `bytes` in chunks of `chunk` bytes and prints each event; returns the number of errors.
int decode_and_print(const std::vector<std::uint8_t>& bytes, std::size_t chunk) {
  int errors = 0;
  tband::StreamDecoder decoder;
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation& at) {
    if (result.ok()) {
      std::printf("  @%-5llu %s\n", static_cast<unsigned long long>(at.offset),
                  tband::format_event(result.value()).c_str());
    } else {
      ++errors;
      std::printf("  @%-5llu ERROR %s\n", static_cast<unsigned long long>(at.offset),
                  tband::describe(result.error()).c_str());
    }
  };
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    decoder.feed({bytes.data() + at, std::min(chunk, bytes.size() - at)}, sink);
  }
  decoder.finish(sink);
  return errors;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::uint8_t> example = build_example();
  std::printf("Decoded (fed 5 bytes at a time; @ = byte offset of the frame):\n");
  int errors = decode_and_print(example, 5);
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "tband_demo: cannot open %s\n", argv[i]);
      return 1;
    }
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::printf("\n%s (%zu bytes):\n", argv[i], bytes.size());
    errors += decode_and_print(bytes, 4096);
  }
  return errors == 0 ? 0 : 1;
}
