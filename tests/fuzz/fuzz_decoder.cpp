// Fuzz target for the host decoder. Invariants checked on every input (a
// violation traps, so the fuzzer records it):
//  - decoding never crashes, reads out of bounds or hits undefined behaviour
//    (the target runs under ASan and UBSan);
//  - the frames' locations tile the input exactly: each byte belongs to one frame;
//  - feeding the input whole or in arbitrary chunks gives the same results;
//  - a decoded event's timestamp is present exactly when it is not metadata,
//    and an error names only fields its event has.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband_events.hpp"

namespace {

void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

struct Item {
  std::string text;
  tband::FrameLocation location;
};

std::vector<Item> decode_all(const std::uint8_t* data, std::size_t size, std::size_t chunk) {
  std::vector<Item> items;
  tband::StreamDecoder decoder{256};  // small limit so the too-long path is reachable
  const auto sink = [&](const tband::DecodeResult& result, const tband::FrameLocation& at) {
    if (result.ok()) {
      const tband::Event& event = result.value();
      const tband::EventInfo& info = tband::event_info(event);
      require(tband::event_timestamp(event).has_value() == !info.is_metadata);
      items.push_back({tband::format_event(event), at});
    } else {
      const tband::DecodeError& error = result.error();
      if (error.has_event_id && error.field_index >= 0) {
        const tband::EventInfo* info = tband::find_event_info(error.event_id);
        require(info != nullptr && static_cast<std::size_t>(error.field_index) < info->fields.size());
      }
      items.push_back({tband::describe(error), at});
    }
  };
  for (std::size_t at = 0; at < size; at += chunk) {
    decoder.feed({data + at, std::min(chunk, size - at)}, sink);
  }
  decoder.finish(sink);
  return items;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<Item> whole = decode_all(data, size, size == 0 ? 1 : size);
  std::uint64_t next = 0;
  for (const Item& item : whole) {
    require(item.location.offset == next);
    next += item.location.length;
  }
  require(next == size);

  // Chunk size taken from the input itself, so the fuzzer explores splits.
  const std::size_t chunk = size == 0 ? 1 : 1 + data[0] % 7;
  const std::vector<Item> chunked = decode_all(data, size, chunk);
  require(chunked.size() == whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    require(chunked[i].text == whole[i].text);
    require(chunked[i].location.offset == whole[i].location.offset);
    require(chunked[i].location.length == whole[i].location.length);
  }

  // The input as one frame's content, straight into the field decoder.
  const tband::DecodeResult direct = tband::decode_event({data, size});
  if (direct.ok()) {
    require(!tband::format_event(direct.value()).empty());
  } else {
    require(!tband::describe(direct.error()).empty());
  }
  return 0;
}
