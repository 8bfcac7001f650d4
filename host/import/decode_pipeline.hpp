// The conversion on two cores: a thread of its own reads the inputs,
// deframes, decodes and merges them into batches of decoded events, while
// the caller's thread interprets them and writes the outputs. A bounded
// queue of batches lies between the two, so memory stays flat however long
// the trace; the batches go round (full to the caller, back empty to the
// decoding thread) and are reused.
//
// The decoding thread does everything that touches the inputs' state and the
// SchemaSet (schema identity, counting unknown ids, describing decode errors
// with the run-time schemas' names), in the very order the single-threaded
// conversion does it, so the interpreter sees the same calls in the same
// order and the output is byte for byte the same.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "decode/cobs_deframer.hpp"
#include "import/event_stream.hpp"
#include "schema/runtime_decoder.hpp"
#include "schema/schema_set.hpp"
#include "tband_events.hpp"

namespace tband {

/// One decoded frame in a batch: what the interpreter needs of it.
struct BatchEntry {
  DecodeResult result{DecodeError{DecodeErrorKind::kEmptyFrame}};
  FrameLocation at;
  std::uint64_t ts = 0;  // valid when has_ts
  std::uint32_t core = 0;
  std::uint32_t input = 0;  // index of the input (EventStream::index())
  std::uint32_t extra = 0;  // kDynamic: the batch's dynamic(extra); kError: its description(extra)
  bool has_ts = false;
  bool dynamic = false;
  ItemKind kind = ItemKind::kEvent;
};

/// Decoded frames with their bytes: the events' strings view the batch's own
/// copy of the frames, valid until the batch is reused.
class DecodedBatch {
 public:
  static constexpr std::size_t kCapacity = 4096;  // entries
  // Frame bytes: the largest frame always fits into an empty batch.
  static constexpr std::size_t kBytes = 2 * CobsDeframer::kDefaultMaxFrameLen;

  // Nothing is cleared up front: entries are made as they are first used and
  // the bytes are left as they are, so a small trace costs little (a fuzzer
  // or the web page runs many) and a long one only what its frames use.
  DecodedBatch() : bytes_(new std::uint8_t[kBytes]) { entries_.reserve(kCapacity); }

  [[nodiscard]] bool room_for(std::size_t frame_size) const noexcept {
    return count_ < kCapacity && frame_size <= kBytes - used_;
  }
  /// A copy of a frame's bytes in the batch (room_for() first).
  std::span<const std::uint8_t> store(std::span<const std::uint8_t> frame) noexcept {
    std::uint8_t* copy = bytes_.get() + used_;
    const std::uint8_t* from = frame.data();
    const std::size_t n = frame.size();
    if (n >= 8 && n <= 16) [[likely]] {
      // Most frames: two overlapping 8-byte moves instead of a call.
      std::memcpy(copy, from, 8);
      std::memcpy(copy + n - 8, from + n - 8, 8);
    } else if (n != 0) {  // nullptr for a frame that did not deframe, which memcpy must not get
      std::memcpy(copy, from, n);
    }
    used_ += n;
    return {copy, n};
  }
  /// The entry being filled (room_for() first), then add() it.
  BatchEntry& next_entry() {
    if (count_ == entries_.size()) [[unlikely]] {  // first use of this slot; reserved, so no reallocation
      entries_.emplace_back();
    }
    return entries_[count_];
  }
  /// Where the next entry's run-time event goes, if it has one.
  DynamicEvent& next_dynamic() {
    if (dynamic_used_ == dynamic_.size()) {
      dynamic_.emplace_back();
    }
    return dynamic_[dynamic_used_];
  }
  void add_dynamic(BatchEntry& entry) noexcept { entry.extra = static_cast<std::uint32_t>(dynamic_used_++); }
  void add_description(BatchEntry& entry, std::string text) {
    entry.extra = static_cast<std::uint32_t>(descriptions_.size());
    descriptions_.push_back(std::move(text));
  }
  void add() noexcept { ++count_; }

  [[nodiscard]] std::span<const BatchEntry> entries() const noexcept { return {entries_.data(), count_}; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] const DynamicEvent& dynamic(std::uint32_t i) const noexcept { return dynamic_[i]; }
  [[nodiscard]] const std::string& description(std::uint32_t i) const noexcept { return descriptions_[i]; }

  void clear() noexcept {
    count_ = 0;
    used_ = 0;
    dynamic_used_ = 0;
    descriptions_.clear();
  }

 private:
  std::vector<BatchEntry> entries_;
  std::size_t count_ = 0;
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t used_ = 0;
  std::vector<DynamicEvent> dynamic_;  // reused: their field vectors keep their capacity
  std::size_t dynamic_used_ = 0;
  std::vector<std::string> descriptions_;
};

/// The decoding thread and the queue of batches it fills.
class DecodePipeline {
 public:
  // Deep enough that on a busy machine, where a thread that waits may not
  // run again for milliseconds, the waits are few: one per 8 batches a side.
  static constexpr std::size_t kBatches = 16;
  // A side that waits is woken once this many batches are ready for it, not
  // at every batch: fewer wake-ups, and the other side never runs dry.
  static constexpr std::size_t kWakeAt = kBatches / 2;

  /// Starts decoding `streams` (merged by time when several) in a thread.
  /// `input_names` are the streams' display names (for unknown ids), and
  /// `progress` (may be empty) is called from that thread now and then.
  /// Everything given must outlive the pipeline.
  DecodePipeline(std::vector<std::unique_ptr<EventStream>>& streams, const std::vector<std::string>& input_names,
                 SchemaSet* schemas, std::function<void()> progress);
  /// Stops the thread if it still runs (the caller gave up early) and waits for it.
  ~DecodePipeline();
  DecodePipeline(const DecodePipeline&) = delete;
  DecodePipeline& operator=(const DecodePipeline&) = delete;

  /// The next batch in order, valid until the next call; nullptr once every
  /// batch was handed out. Rethrows what stopped the decoding thread (an
  /// unreadable input) after the batches decoded before it.
  const DecodedBatch* next();

 private:
  struct Cancelled {};

  void run() noexcept;
  void produce();
  void decode_single(EventStream& stream);
  void decode_merged();
  // A batch with room for a frame of `frame_size` bytes: the current one, or
  // (handing that over) the next free one. Throws Cancelled.
  DecodedBatch& room(std::size_t frame_size) {
    if (!filling_->room_for(frame_size)) [[unlikely]] {
      hand_over();
      filling_ = acquire();
    }
    return *filling_;
  }
  // The SchemaSet's part of the entry (classify_item()), here in item order;
  // the interpreter's part is left to the caller's thread.
  [[gnu::always_inline]] void finish_entry(DecodedBatch& batch, BatchEntry& entry) {
    if (!entry.dynamic && entry.result.ok()) [[likely]] {  // classify_item()'s answer, without the call's values
      entry.kind = ItemKind::kEvent;
    } else {
      entry.kind = classify_item(entry.dynamic, entry.result, schemas_, input_names_[entry.input], entry.at.offset);
      finish_unusual(batch, entry);
    }
    batch.add();
    if ((++items_ & 0xFFFF) == 0 && progress_) [[unlikely]] {
      progress_();
    }
  }
  void finish_unusual(DecodedBatch& batch, BatchEntry& entry);
  DecodedBatch* acquire();
  void hand_over();

  std::vector<std::unique_ptr<EventStream>>& streams_;
  const std::vector<std::string>& input_names_;
  SchemaSet* schemas_;
  std::function<void()> progress_;
  std::uint64_t items_ = 0;
  DecodedBatch* filling_ = nullptr;  // the decoding thread's

  std::vector<std::unique_ptr<DecodedBatch>> batches_;  // up to kBatches, made as the decoding thread needs them
  std::mutex mutex_;
  std::condition_variable producer_cv_, consumer_cv_;
  std::vector<DecodedBatch*> free_;
  std::vector<DecodedBatch*> full_;  // a ring of kBatches
  std::size_t full_head_ = 0, full_count_ = 0;
  DecodedBatch* consuming_ = nullptr;  // the caller's, handed back at the next call
  bool producer_waiting_ = false, consumer_waiting_ = false;
  bool done_ = false;       // the thread has handed over its last batch
  bool cancelled_ = false;  // the caller stopped early
  std::exception_ptr error_;
  std::thread thread_;  // last: started once everything above is ready
};

}  // namespace tband
