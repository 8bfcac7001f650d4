#include "ctf_writer.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "benchmark_mix.hpp"

namespace tband::tools {

namespace {

// The same five events as the mix, with the same fields: a u8 id and a u64
// timestamp in the event header, then the event's fields (little endian,
// byte aligned, strings zero-terminated).
constexpr const char* kMetadata = R"(/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;

trace {
  major = 1;
  minor = 8;
  byte_order = le;
  packet.header := struct {
    uint32_t magic;
    uint32_t stream_id;
  };
};

clock {
  name = tick;
  freq = 1000000000;
  offset = 0;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.tick.value; } := tick_t;

stream {
  id = 0;
  event.header := struct {
    uint8_t id;
    tick_t timestamp;
  };
  packet.context := struct {
    uint64_t packet_size;
    uint64_t content_size;
    tick_t timestamp_begin;
    tick_t timestamp_end;
  };
};

event { id = 4; name = "isr_enter"; stream_id = 0; fields := struct { uint32_t isr_id; }; };
event { id = 8; name = "evtmarker_begin"; stream_id = 0; fields := struct { uint32_t evtmarker_id; string msg; }; };
event { id = 11; name = "valmarker"; stream_id = 0; fields := struct { uint32_t valmarker_id; int64_t val; }; };
event { id = 9; name = "evtmarker_end"; stream_id = 0; fields := struct { uint32_t evtmarker_id; }; };
event { id = 5; name = "isr_exit"; stream_id = 0; fields := struct { uint32_t isr_id; }; };
)";

constexpr std::size_t kPacketHeader = 4 + 4 + 8 + 8 + 8 + 8;
constexpr std::size_t kPacketSize = 64 * 1024;
constexpr std::size_t kLongestEvent = 64;  // id, ts and fields of any of the five, message included

// One packet: header and events in a buffer of the packet's size, written
// with memcpy at a position. (Growing a std::vector byte by byte instead makes
// gcc 12 at -O3 see a memcpy past its end that cannot happen:
// -Wstringop-overflow, a false positive in the vector's range insert.)
class Packet {
 public:
  Packet() : bytes_(kPacketSize) {}

  [[nodiscard]] bool empty() const noexcept { return used_ == kPacketHeader; }
  [[nodiscard]] bool full() const noexcept { return used_ + kLongestEvent > kPacketSize; }

  template <class T>
  void put(T value) noexcept {
    put_bytes(&value, sizeof(T));  // little-endian host
  }
  void put_bytes(const void* data, std::size_t size) noexcept {
    std::memcpy(bytes_.data() + used_, data, size);
    used_ += size;
  }

  /// Writes the header (timestamps of the first and last event) and the packet; starts the next one.
  void flush(std::FILE* stream, std::uint64_t first_ts, std::uint64_t last_ts) {
    const std::size_t content = used_;
    used_ = 0;
    put<std::uint32_t>(0xC1FC1FC1u);
    put<std::uint32_t>(0);
    const std::uint64_t content_bits = content * 8;
    put<std::uint64_t>(content_bits);  // packet_size: no padding
    put<std::uint64_t>(content_bits);
    put<std::uint64_t>(first_ts);
    put<std::uint64_t>(last_ts);
    if (std::fwrite(bytes_.data(), 1, content, stream) != content) throw std::runtime_error("write failed");
    used_ = kPacketHeader;
  }

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t used_ = kPacketHeader;
};

}  // namespace

void write_ctf_mix(const std::string& dir, std::uint64_t events) {
  std::filesystem::create_directories(dir);
  {
    std::FILE* meta = std::fopen((dir + "/metadata").c_str(), "wb");
    if (meta == nullptr) throw std::runtime_error(dir + "/metadata: cannot create");
    std::fputs(kMetadata, meta);
    std::fclose(meta);
  }
  std::FILE* stream = std::fopen((dir + "/stream_0").c_str(), "wb");
  if (stream == nullptr) throw std::runtime_error(dir + "/stream_0: cannot create");

  bench::BenchmarkMix mix;
  Packet packet;
  std::uint64_t first_ts = 0;
  std::uint64_t last_ts = 0;
  const std::size_t message_size = std::strlen(bench::kMixMessage) + 1;
  if (1 + 8 + 4 + message_size > kLongestEvent) throw std::runtime_error("the mix's message is too long for CTF");
  for (std::uint64_t i = 0; i < events; ++i) {
    const bench::MixStep s = mix.next();
    if (packet.empty()) first_ts = s.ts;
    last_ts = s.ts;
    using Kind = bench::MixStep::Kind;
    switch (s.kind) {
      case Kind::kIsrEnter: packet.put<std::uint8_t>(4); packet.put(s.ts); packet.put(bench::kMixIsrId); break;
      case Kind::kEvtmarkerBegin:
        packet.put<std::uint8_t>(8);
        packet.put(s.ts);
        packet.put(bench::kMixEvtmarkerId);
        packet.put_bytes(bench::kMixMessage, message_size);
        break;
      case Kind::kValmarker:
        packet.put<std::uint8_t>(11);
        packet.put(s.ts);
        packet.put(bench::kMixValmarkerId);
        packet.put(s.value);
        break;
      case Kind::kEvtmarkerEnd: packet.put<std::uint8_t>(9); packet.put(s.ts); packet.put(bench::kMixEvtmarkerId); break;
      case Kind::kIsrExit: packet.put<std::uint8_t>(5); packet.put(s.ts); packet.put(bench::kMixIsrId); break;
    }
    if (packet.full()) packet.flush(stream, first_ts, last_ts);
  }
  if (!packet.empty()) packet.flush(stream, first_ts, last_ts);
  std::fclose(stream);
}

}  // namespace tband::tools
