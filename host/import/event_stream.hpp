// One input's decoded events with the core each belongs to: the input's
// "@core", switched by core_id events inside the stream (as a tracer writes
// them when several cores share one output).
//
// Frames are collected a chunk at a time as small records (where the bytes
// are, the timestamp read straight from the frame); the full decode happens
// only for the item at the head, so the batch stays small and in cache.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "decode/cobs_deframer.hpp"
#include "decode/event_fields.hpp"
#include "decode/compact_ts.hpp"
#include "decode/link_check.hpp"
#include "input/input_reader.hpp"
#include "schema/runtime_decoder.hpp"
#include "schema/schema_set.hpp"
#include "tband_events.hpp"

namespace tband {

struct StreamItem {
  DecodeResult result{DecodeError{DecodeErrorKind::kEmptyFrame}};  // stale when `dynamic`: check that first
  bool dynamic = false;  // decoded from a run-time schema: the event is `dynamic_event`
  DynamicEvent dynamic_event;
  const FrameLocation* at = nullptr;  // valid while the item is (copying it stalls the CPU)
  std::uint32_t core = 0;
  // Plain fields, not std::optional: copying an optional right after writing
  // it stalls on store forwarding, measurably so at 10 M events.
  bool has_ts = false;  // false for metadata and errors
  std::uint64_t ts = 0;
  std::uint64_t order_ts = 0;       // ts, or the last one before it (metadata, errors)
};

/// The reflection entry of a decoded item (a compiled or a run-time event).
[[nodiscard]] inline const EventInfo& item_info(const StreamItem& item) noexcept {
  return item.dynamic ? item.dynamic_event.info() : event_info(item.result.value());
}

/// Calls f(const FieldValue&) for every field of a decoded item, in wire order.
template <class F>
void visit_item_fields(const StreamItem& item, F&& f) {
  if (item.dynamic) {
    for (const FieldValue& field : item.dynamic_event.fields) {
      f(field);
    }
  } else {
    visit_fields(item.result.value(), f);
  }
}

/// describe() that also names the events of the run-time schemas.
[[nodiscard]] inline std::string describe_error(const DecodeError& error, const SchemaSet* schemas) {
  const EventInfo* info = error.has_event_id ? find_event_info(error.event_id) : nullptr;
  if (info == nullptr && error.has_event_id && schemas != nullptr) {
    if (const RuntimeEvent* e = schemas->find(error.event_id)) {
      info = &e->info;
    }
  }
  return describe(error, info);
}

/// What a decoded item is to the interpreter.
enum class ItemKind : std::uint8_t {
  kEvent,      // a compiled event
  kDynamic,    // a run-time schema's event
  kError,      // a frame that did not decode
  kUnknownId,  // an id no schema knows: counted in the SchemaSet, reported at the end
};

/// The SchemaSet's part of an item, done in item order by whichever thread
/// decodes (here or import/decode_pipeline.hpp): its kind, an unknown id
/// counted. The interpreter's part is interpret_classified()
/// (import/interpret_item.hpp). `result` is stale when `dynamic`.
[[nodiscard]] inline ItemKind classify_item(bool dynamic, const DecodeResult& result, SchemaSet* schemas,
                                            const std::string& input, std::uint64_t offset) {
  if (dynamic) {
    return ItemKind::kDynamic;
  }
  if (result.ok()) [[likely]] {
    return ItemKind::kEvent;
  }
  const DecodeError& error = result.error();
  if (error.kind == DecodeErrorKind::kUnknownEventId && schemas != nullptr) {
    schemas->count_unknown(error.event_id, input, offset);
    return ItemKind::kUnknownId;
  }
  return ItemKind::kError;
}

class EventStream {
 public:
  /// `schemas` (may be null) decodes the ids the binary does not know and
  /// learns the trace's schema_id; it must outlive the stream.
  EventStream(std::unique_ptr<InputReader> reader, std::uint32_t index, SchemaSet* schemas = nullptr);
  /// A stream without a reader, fed with push() and finish() as bytes arrive
  /// (a live recording); its events start on `core`. peek(), drain() and
  /// reader() are for streams with a reader only.
  EventStream(std::uint32_t core, std::uint32_t index, SchemaSet* schemas = nullptr);

  /// The next item, or nullptr at the end of the input. Throws InputError.
  const StreamItem* peek() {
    if (!current_valid_) {
      if (pos_ == frames_.size() && !refill()) {
        return nullptr;
      }
      decode_current();
    }
    return &current_;
  }
  void pop() noexcept {
    ++pos_;
    current_valid_ = false;
  }
  /// The merge order of the next item without decoding it; false at the end.
  bool next_order(std::uint64_t& order_ts) {
    if (pos_ == frames_.size() && !refill()) {
      return false;
    }
    order_ts = frames_[pos_].order_ts;
    return true;
  }

  /// Hands every remaining item to f(const StreamItem&) straight from the
  /// deframer, without batching: the fast path for a single input. Calls
  /// after_chunk() once the items of each chunk read are handed out (on a
  /// pipe, a chunk is what had arrived: the moment to show them).
  template <class F, class AfterChunk>
  void drain(F&& f, AfterChunk&& after_chunk) {
    for (;;) {
      const std::span<const std::uint8_t> chunk = reader_->next();
      if (chunk.empty()) {
        finish(f);
        return;
      }
      push(chunk, f);
      after_chunk();
    }
  }
  template <class F>
  void drain(F&& f) {
    drain(std::forward<F>(f), [] {});
  }

  /// What link integrity found so far (all zero for a trace without it).
  [[nodiscard]] const LinkCheck::Totals& link_totals() const noexcept { return link_.totals(); }
  /// Whether the stream announced link integrity.
  [[nodiscard]] bool link_active() const noexcept { return link_.active(); }
  /// Events whose time compact timestamps could not give (decode/compact_ts.hpp).
  [[nodiscard]] std::uint64_t timestamps_unknown() const noexcept { return compact_.unknown(); }

  /// Decodes the frames completed by `chunk` and hands each item to
  /// f(const StreamItem&); a frame may straddle calls.
  template <class F>
  void push(std::span<const std::uint8_t> chunk, F&& f) {
    deframer_.feed(chunk, checked([&](const RawFrame& frame) {
      fill_item(frame, current_);
      f(static_cast<const StreamItem&>(current_));
    }));
  }
  /// The end of the bytes: a frame still open is handed out as truncated.
  template <class F>
  void finish(F&& f) {
    deframer_.finish(checked([&](const RawFrame& frame) {
      fill_item(frame, current_);
      f(static_cast<const StreamItem&>(current_));
    }));
  }

  // ---- for a pipeline (import/decode_pipeline.hpp): the frames' bytes are
  // copied where they outlive the chunk, then decoded from the copy ----

  /// Hands every remaining frame to f(const RawFrame&) straight from the
  /// deframer (the bytes are valid during the call only); decode each with
  /// decode_frame() in order.
  template <class F>
  void drain_frames(F&& f) {
    for (;;) {
      const std::span<const std::uint8_t> chunk = reader_->next();
      if (chunk.empty()) {
        deframer_.finish(checked(f));
        return;
      }
      deframer_.feed(chunk, checked(f));
    }
  }
  /// What push() makes of a frame, into `item` (result, dynamic, has_ts, ts,
  /// core) and `dynamic` (a run-time event): decodes frame.data, so the event
  /// views those bytes. The stream's core, time and schema identity follow.
  template <class Item>
  [[gnu::always_inline]] void decode_frame(const RawFrame& frame, Item& item, DynamicEvent& dynamic) {
    if (frame.error != nullptr || !compiled_[frame.data[0]]) [[unlikely]] {
      decode_unusual(frame, item, dynamic);
      return;
    }
    // The common case inline: a well-formed event this binary knows.
    const std::uint8_t id = frame.data[0];
    std::uint64_t ts = 0;
    if (!decode_event_fast(frame.data, item.result, ts)) [[unlikely]] {
      decode_unusual(frame, item, dynamic);
      return;
    }
    item.dynamic = false;
    if (has_timestamp_[id]) [[likely]] {
      item.has_ts = true;
      item.ts = ts;
      last_ts_ = ts;
      if (id == CoreId::kId) [[unlikely]] {
        core_ = std::get<CoreId>(item.result.value()).core_id;
      }
    } else {
      item.has_ts = false;
      if (id == SchemaId::kId) [[unlikely]] {
        on_schema_id(std::get<SchemaId>(item.result.value()));
      }
    }
    item.core = core_;
  }

  /// The frame next in merge order (after next_order() returned true): its
  /// bytes (empty for a frame that did not deframe) and where it was.
  [[nodiscard]] std::span<const std::uint8_t> head_bytes() const noexcept {
    return {frames_[pos_].data, frames_[pos_].size};
  }
  [[nodiscard]] const FrameLocation& head_location() const noexcept { return frames_[pos_].at; }
  /// What peek() makes of the head frame, decoded from `bytes` (a copy of
  /// head_bytes()) into `item` and `dynamic`; then pops it.
  template <class Item>
  void take_head(std::span<const std::uint8_t> bytes, Item& item, DynamicEvent& dynamic);

  [[nodiscard]] std::uint32_t index() const noexcept { return index_; }
  [[nodiscard]] const InputReader& reader() const noexcept { return *reader_; }

 private:
  struct Frame {
    const std::uint8_t* data;
    std::uint32_t size;
    std::uint32_t error;  // index into errors_, or kNoError
    FrameLocation at;
    std::uint32_t core;
    bool has_ts;
    std::uint64_t order_ts;
  };
  static constexpr std::uint32_t kNoError = 0xFFFFFFFFu;

  bool refill();
  // The deframer's sink with link integrity checked (decode/link_check.hpp)
  // and compact timestamps decoded (decode/compact_ts.hpp).
  // Until either is announced, one test passes the usual frame straight on
  // (each pass-through tests the same things: ~23 instructions a frame).
  template <class F>
  [[gnu::always_inline]] auto checked(F&& f) {
    static_assert((LinkCheck::kAnnounceId | 1u) == CompactTs::kAnnounceId && LinkCheck::kAnnounceId % 2 == 0,
                  "one test below finds both announcements");
    return [this, &f](const RawFrame& frame) __attribute__((always_inline)) {
      if (neither_announced_ &&
          (frame.error != nullptr || frame.data.empty() || (frame.data[0] | 1u) != CompactTs::kAnnounceId)) [[likely]] {
        f(frame);
        return;
      }
      link_.pass(frame, [this, &f](const RawFrame& checked) {
        compact_.pass(checked, [this](std::uint8_t id) { return has_timestamp(id); }, f);
      });
      neither_announced_ = !link_.active() && !compact_.active();
    };
  }
  void fill_item(const RawFrame& frame, StreamItem& item) {
    item.at = &frame.location;
    decode_frame(frame, item, item.dynamic_event);
    item.order_ts = last_ts_;
  }
  // decode_frame() for the rest: frames that did not deframe or decode, run-time events.
  template <class Item>
  void decode_unusual(const RawFrame& frame, Item& item, DynamicEvent& dynamic);
  void on_schema_id(const SchemaId& id);
  template <class Item>
  void decode_head(const Frame& f, std::span<const std::uint8_t> bytes, Item& item, DynamicEvent& dynamic);
  // Decodes a frame into item.result, or `dynamic` for a run-time event.
  template <class Item>
  void decode_into(std::span<const std::uint8_t> frame, Item& item, DynamicEvent& dynamic);
  template <class Item>
  void decode_runtime(const RuntimeEvent& event, std::span<const std::uint8_t> frame, Item& item,
                      DynamicEvent& dynamic);
  /// The run-time event of an id (never one the binary knows), or nullptr.
  [[nodiscard]] const RuntimeEvent* runtime_event(std::uint8_t id) const noexcept {
    return schemas_ != nullptr ? schemas_->find(id) : nullptr;
  }
  [[nodiscard]] bool has_timestamp(std::uint8_t id) const noexcept {
    if (has_timestamp_[id]) {
      return true;
    }
    const RuntimeEvent* e = runtime_event(id);
    return e != nullptr && !e->info.is_metadata;
  }
  void learn_schema_id(std::span<const std::uint8_t> frame);
  void add(const RawFrame& frame, std::span<const std::uint8_t> chunk);
  void decode_current();

  std::unique_ptr<InputReader> reader_;
  std::uint32_t index_;
  CobsDeframer deframer_;
  LinkCheck link_;
  CompactTs compact_;
  bool neither_announced_ = true;  // neither link_ nor compact_ active
  std::vector<Frame> frames_;
  std::vector<DecodeError> errors_;
  std::size_t pos_ = 0;
  StreamItem current_;
  bool current_valid_ = false;
  // Frames that do not lie in the chunk: the one the deframer completes
  // across chunks, and compact timestamps' frames with the time written back
  // (decode/compact_ts.hpp: at most 11 bytes from a frame of 4 on the wire).
  static constexpr std::size_t kArenaSize = InputReader::kChunkSize * 3 + CobsDeframer::kDefaultMaxFrameLen;
  std::unique_ptr<std::uint8_t[]> arena_;
  std::size_t arena_used_ = 0;
  std::uint32_t core_;
  std::uint64_t last_ts_ = 0;
  bool ended_ = false;
  std::array<bool, 256> has_timestamp_{};  // by event id: not metadata
  std::array<bool, 256> compiled_{};       // by event id: one this binary decodes
  SchemaSet* schemas_;
};

/// The stream whose next item comes first in time (the first such stream on
/// a tie), or nullptr once all are at their end.
inline EventStream* next_in_time(std::vector<std::unique_ptr<EventStream>>& streams) {
  EventStream* best = nullptr;
  std::uint64_t best_ts = 0;
  for (auto& s : streams) {
    std::uint64_t ts = 0;
    if (s->next_order(ts) && (best == nullptr || ts < best_ts)) {
      best = s.get();
      best_ts = ts;
    }
  }
  return best;
}

/// Merges several streams into one sequence ordered by timestamp (the cores
/// share one timer), so cross-core state such as a task moving between cores
/// is seen in order. Calls f(const StreamItem&, const EventStream&) per item.
template <class F>
void merge_streams(std::vector<std::unique_ptr<EventStream>>& streams, F&& f) {
  if (streams.size() == 1) {
    EventStream& s = *streams.front();
    s.drain([&](const StreamItem& item) { f(item, s); });
    return;
  }
  while (EventStream* best = next_in_time(streams)) {
    f(*best->peek(), *best);
    best->pop();
  }
}

}  // namespace tband
