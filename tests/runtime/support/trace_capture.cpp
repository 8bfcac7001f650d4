#include "trace_capture.hpp"

#include <gtest/gtest.h>

#include <type_traits>
#include <variant>

#include "decode/decode_error.hpp"
#include "decode/event_fields.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"
#include "tband_port.h"

namespace tband::test {

std::vector<DecodedEvent> decode_stream(std::span<const std::uint8_t> bytes) {
  std::vector<DecodedEvent> events;
  StreamDecoder decoder;
  auto on_frame = [&](const DecodeResult& result, const FrameLocation& at) {
    if (!result.ok()) {
      ADD_FAILURE() << "byte " << at.offset << ": " << describe(result.error());
      return;
    }
    const Event& event = result.value();
    DecodedEvent out;
    out.text = format_event(event);
    out.ts = event_timestamp(event);
    visit_fields(event, [&](const FieldValue& field) {
      const bool integer = field.info->type == FieldType::kU8 || field.info->type == FieldType::kU32 ||
                           field.info->type == FieldType::kU64;
      if (!out.first_id && !field.info->implicit && integer) {
        out.first_id = field.u;
      }
    });
    std::visit(
        [&](const auto& e) {
          using T = std::decay_t<decltype(e)>;
          out.id = T::kId;
          out.name = std::string(T::kName);
          if constexpr (std::is_same_v<T, DroppedEvtCnt>) {
            out.dropped_cnt = e.cnt;
          } else if constexpr (std::is_same_v<T, Valmarker>) {
            out.value = e.val;
          }
        },
        event);
    events.push_back(std::move(out));
  };
  decoder.feed(bytes, on_frame);
  decoder.finish(on_frame);
  return events;
}

std::vector<DecodedEvent> decode_stream(const volatile std::uint8_t* bytes, std::size_t len) {
  std::vector<std::uint8_t> copy(len);
  for (std::size_t i = 0; i < len; ++i) {
    copy[i] = bytes[i];
  }
  return decode_stream(copy);
}

std::vector<std::string> texts(const std::vector<DecodedEvent>& events, bool with_dropped_cnt) {
  std::vector<std::string> out;
  for (const DecodedEvent& event : events) {
    if (with_dropped_cnt || !event.dropped_cnt) {
      out.push_back(event.text);
    }
  }
  return out;
}

TraceCapture::TraceCapture() { tband_host_set_sink(&TraceCapture::sink, this); }
TraceCapture::~TraceCapture() { tband_host_set_sink(nullptr, nullptr); }

void TraceCapture::clear() {
  for (Core& core : cores_) {
    core = Core{};
  }
}

bool TraceCapture::sink(void* context, unsigned core_id, const std::uint8_t* buf, std::size_t len, bool is_metadata) {
  auto& self = *static_cast<TraceCapture*>(context);
  Core& core = self.cores_.at(core_id);
  const std::size_t call = core.calls++;
  if ((self.max_call_len_ > 0 && len > self.max_call_len_) || (self.policy_ && self.policy_(core_id, call))) {
    ++core.dropped;
    return true;
  }
  core.bytes.insert(core.bytes.end(), buf, buf + len);
  core.metadata_flags.push_back(is_metadata);
  return false;
}

}  // namespace tband::test
