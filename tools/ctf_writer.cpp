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

template <class T>
void put(std::vector<std::uint8_t>& out, T value) {
  std::uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian host
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

constexpr std::size_t kPacketHeader = 4 + 4 + 8 + 8 + 8 + 8;
constexpr std::size_t kPacketSize = 64 * 1024;

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
  std::vector<std::uint8_t> body;
  std::vector<std::uint8_t> packet;
  std::uint64_t first_ts = 0;
  std::uint64_t last_ts = 0;
  const auto flush_packet = [&] {
    if (body.empty()) return;
    packet.clear();
    put<std::uint32_t>(packet, 0xC1FC1FC1u);
    put<std::uint32_t>(packet, 0);
    const std::uint64_t content_bits = (kPacketHeader + body.size()) * 8;
    put<std::uint64_t>(packet, content_bits);  // packet_size: no padding
    put<std::uint64_t>(packet, content_bits);
    put<std::uint64_t>(packet, first_ts);
    put<std::uint64_t>(packet, last_ts);
    packet.insert(packet.end(), body.begin(), body.end());
    if (std::fwrite(packet.data(), 1, packet.size(), stream) != packet.size()) throw std::runtime_error("write failed");
    body.clear();
  };
  for (std::uint64_t i = 0; i < events; ++i) {
    const bench::MixStep s = mix.next();
    if (body.empty()) first_ts = s.ts;
    last_ts = s.ts;
    using Kind = bench::MixStep::Kind;
    switch (s.kind) {
      case Kind::kIsrEnter: put<std::uint8_t>(body, 4); put(body, s.ts); put(body, bench::kMixIsrId); break;
      case Kind::kEvtmarkerBegin:
        put<std::uint8_t>(body, 8);
        put(body, s.ts);
        put(body, bench::kMixEvtmarkerId);
        body.insert(body.end(), bench::kMixMessage, bench::kMixMessage + std::strlen(bench::kMixMessage) + 1);
        break;
      case Kind::kValmarker:
        put<std::uint8_t>(body, 11);
        put(body, s.ts);
        put(body, bench::kMixValmarkerId);
        put(body, s.value);
        break;
      case Kind::kEvtmarkerEnd: put<std::uint8_t>(body, 9); put(body, s.ts); put(body, bench::kMixEvtmarkerId); break;
      case Kind::kIsrExit: put<std::uint8_t>(body, 5); put(body, s.ts); put(body, bench::kMixIsrId); break;
    }
    if (body.size() + kPacketHeader > kPacketSize - 64) flush_packet();
  }
  flush_packet();
  std::fclose(stream);
}

}  // namespace tband::tools
