#include "import/event_stream.hpp"

#include <cstring>
#include <memory>
#include <new>

#include "decode/field_reader.hpp"
#include "import/decode_pipeline.hpp"

namespace tband {

EventStream::EventStream(std::unique_ptr<InputReader> reader, std::uint32_t index, SchemaSet* schemas)
    : reader_(std::move(reader)),
      index_(index),
      link_(reader_->spec().core.value_or(0)),
      compact_(reader_->spec().core.value_or(0)),
      core_(reader_->spec().core.value_or(0)),
      schemas_(schemas) {
  for (const EventInfo& info : all_event_infos()) {
    has_timestamp_[info.id] = !info.is_metadata;
    compiled_[info.id] = true;
  }
}

EventStream::EventStream(std::uint32_t core, std::uint32_t index, SchemaSet* schemas)
    : index_(index), link_(core), compact_(core), core_(core), schemas_(schemas) {
  for (const EventInfo& info : all_event_infos()) {
    has_timestamp_[info.id] = !info.is_metadata;
    compiled_[info.id] = true;
  }
}

void EventStream::add(const RawFrame& frame, std::span<const std::uint8_t> chunk) {
  if (frame.error != nullptr) {
    errors_.push_back(*frame.error);
    frames_.push_back({nullptr, 0, static_cast<std::uint32_t>(errors_.size() - 1), frame.location, core_, false,
                       last_ts_});
    return;
  }
  const std::uint8_t* data = frame.data.data();
  const auto size = static_cast<std::uint32_t>(frame.data.size());
  // Frames inside the chunk stay valid until the next read; others live in
  // the deframer's buffer, which the next frame overwrites.
  if (data < chunk.data() || data >= chunk.data() + chunk.size()) {
    if (!arena_) {
      // Made when first needed (most inputs never need it): not zeroed, a
      // frame is copied in before it is read.
      arena_ = std::make_unique_for_overwrite<std::uint8_t[]>(kArenaSize);
    }
    std::uint8_t* copy = arena_.get() + arena_used_;
    std::memcpy(copy, data, size);
    arena_used_ += size;
    data = copy;
  }
  if (data[0] == SchemaId::kId) {
    learn_schema_id({data, size});  // before the frames after it are sorted into timed and untimed
  }
  bool has_ts = false;
  if (has_timestamp(data[0])) {
    // Every non-metadata event starts with its timestamp; if the frame is
    // malformed the full decode reports it later.
    FieldReader reader{{data, size}};
    std::uint64_t ts = 0;
    if (reader.read(ts, 0)) {
      has_ts = true;
      last_ts_ = ts;
    }
    if (data[0] == CoreId::kId) {
      const DecodeResult r = decode_event({data, size});
      if (r.ok()) {
        core_ = std::get<CoreId>(r.value()).core_id;
      }
    }
  }
  frames_.push_back({data, size, kNoError, frame.location, core_, has_ts, last_ts_});
}

namespace {

// The timestamp of a decoded event that is not metadata: its first field,
// which the decoder has already read.
[[gnu::always_inline]] inline std::uint64_t decoded_ts(const Event& event) noexcept {
  return std::visit(
      [](const auto& e) -> std::uint64_t {
        if constexpr (requires { e.ts; }) {
          return e.ts;
        } else {
          return 0;
        }
      },
      event);
}

// decode_event() into `result`: what is wrong with a frame that
// decode_event_fast() did not take.
[[gnu::noinline]] void decode_exactly(std::span<const std::uint8_t> frame, DecodeResult& result) noexcept {
  // Built in place: assigning one variant to another costs a dispatch.
  std::destroy_at(&result);
  ::new (static_cast<void*>(&result)) DecodeResult(decode_event(frame));  // no temporary
}

}  // namespace

void EventStream::decode_current() {
  const Frame& f = frames_[pos_];
  current_.at = &f.at;
  current_.order_ts = f.order_ts;
  decode_head(f, {f.data, f.size}, current_, current_.dynamic_event);
  current_valid_ = true;
}

template <class Item>
void EventStream::take_head(std::span<const std::uint8_t> bytes, Item& item, DynamicEvent& dynamic) {
  decode_head(frames_[pos_], bytes, item, dynamic);
  pop();
}

template <class Item>
void EventStream::decode_head(const Frame& f, std::span<const std::uint8_t> bytes, Item& item,
                              DynamicEvent& dynamic) {
  item.core = f.core;
  if (f.error != kNoError) {
    item.result = errors_[f.error];
    item.dynamic = false;
    item.has_ts = false;
  } else {
    decode_into(bytes, item, dynamic);
    item.has_ts = f.has_ts && (item.result.ok() || item.dynamic);
    item.ts = f.order_ts;
    if (item.dynamic && dynamic.has_ts() && !f.has_ts) {
      // Its schema arrived after the frame was sorted (another input's schema_id).
      item.has_ts = true;
      item.ts = dynamic.ts();
    }
  }
}

template <class Item>
void EventStream::decode_into(std::span<const std::uint8_t> frame, Item& item, DynamicEvent& dynamic) {
  item.dynamic = false;
  std::uint64_t ts = 0;
  if (decode_event_fast(frame, item.result, ts)) [[likely]] {
    return;
  }
  decode_exactly(frame, item.result);
  if (!item.result.ok()) {
    if (const RuntimeEvent* event = runtime_event(frame[0])) {
      decode_runtime(*event, frame, item, dynamic);
    }
  }
}

template <class Item>
void EventStream::decode_runtime(const RuntimeEvent& event, std::span<const std::uint8_t> frame, Item& item,
                                 DynamicEvent& dynamic) {
  DecodeError error{DecodeErrorKind::kUnknownEventId};
  item.dynamic = decode_dynamic(event, frame, dynamic, error);
  if (!item.dynamic) {
    item.result = error;
  }
}

void EventStream::learn_schema_id(std::span<const std::uint8_t> frame) {
  if (schemas_ == nullptr) {
    return;
  }
  const DecodeResult r = decode_event(frame);
  if (r.ok()) {
    const auto& id = std::get<SchemaId>(r.value());
    schemas_->on_schema_id(id.wire_hash, id.user_groups);
  }
}

void EventStream::on_schema_id(const SchemaId& id) {
  if (schemas_ != nullptr) {
    schemas_->on_schema_id(id.wire_hash, id.user_groups);
  }
}

template <class Item>
void EventStream::decode_unusual(const RawFrame& frame, Item& item, DynamicEvent& dynamic) {
  if (frame.error != nullptr) {
    item.result = *frame.error;
    item.dynamic = false;
    item.has_ts = false;
    item.core = core_;
    return;
  }
  const std::uint8_t* data = frame.data.data();
  item.has_ts = false;
  if (!compiled_[data[0]]) {
    // Not an event this binary knows: a run-time schema's, or unknown.
    if (const RuntimeEvent* event = runtime_event(data[0])) {
      decode_runtime(*event, frame.data, item, dynamic);
      if (item.dynamic && dynamic.has_ts()) {
        item.has_ts = true;
        item.ts = dynamic.ts();
        last_ts_ = item.ts;
      }
      item.core = core_;
      return;
    }
  }
  // What is wrong with the frame (decode_event_fast() did not take it).
  decode_exactly(frame.data, item.result);
  item.dynamic = false;
  if (item.result.ok()) {  // never: the two decoders accept the same frames
    if (has_timestamp_[data[0]]) {
      const std::uint64_t ts = decoded_ts(item.result.value());
      item.has_ts = true;
      item.ts = ts;
      last_ts_ = ts;
      if (data[0] == CoreId::kId) {
        core_ = std::get<CoreId>(item.result.value()).core_id;
      }
    } else if (data[0] == SchemaId::kId) {
      on_schema_id(std::get<SchemaId>(item.result.value()));
    }
  }
  item.core = core_;
}

template void EventStream::decode_unusual(const RawFrame&, StreamItem&, DynamicEvent&);
template void EventStream::decode_unusual(const RawFrame&, BatchEntry&, DynamicEvent&);
template void EventStream::take_head(std::span<const std::uint8_t>, BatchEntry&, DynamicEvent&);

bool EventStream::refill() {
  frames_.clear();
  errors_.clear();
  pos_ = 0;
  arena_used_ = 0;
  while (frames_.empty()) {
    if (ended_) {
      return false;
    }
    const std::span<const std::uint8_t> chunk = reader_->next();
    if (chunk.empty()) {
      ended_ = true;
      deframer_.finish(checked([&](const RawFrame& frame) { add(frame, chunk); }));
    } else {
      deframer_.feed(chunk, checked([&](const RawFrame& frame) { add(frame, chunk); }));
    }
  }
  return true;
}

}  // namespace tband
