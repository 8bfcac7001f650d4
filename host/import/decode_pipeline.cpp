#include "import/decode_pipeline.hpp"

#include <utility>

#include "import/event_stream.hpp"

namespace tband {

DecodePipeline::DecodePipeline(std::vector<std::unique_ptr<EventStream>>& streams,
                               const std::vector<std::string>& input_names, SchemaSet* schemas,
                               std::function<void()> progress)
    : streams_(streams), input_names_(input_names), schemas_(schemas), progress_(std::move(progress)) {
  batches_.reserve(kBatches);
  full_.resize(kBatches, nullptr);
  thread_ = std::thread([this] { run(); });
}

DecodePipeline::~DecodePipeline() {
  {
    const std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  producer_cv_.notify_one();
  thread_.join();
}

void DecodePipeline::run() noexcept {
  try {
    produce();
  } catch (const Cancelled&) {
    // the caller stopped early: nothing more to hand over
  } catch (...) {
    hand_over();  // what was decoded before the error, as the single thread would have interpreted it
    const std::lock_guard lock(mutex_);
    error_ = std::current_exception();
  }
  {
    const std::lock_guard lock(mutex_);
    done_ = true;
  }
  consumer_cv_.notify_one();
}

void DecodePipeline::produce() {
  filling_ = acquire();
  if (streams_.size() == 1) {
    decode_single(*streams_.front());
  } else {
    decode_merged();
  }
  hand_over();
}

// What merge_streams() does for one input, the frames copied into the batch.
void DecodePipeline::decode_single(EventStream& stream) {
  stream.drain_frames([&](const RawFrame& frame) __attribute__((always_inline)) {
    DecodedBatch& batch = room(frame.data.size());
    BatchEntry& entry = batch.next_entry();
    entry.at = frame.location;
    entry.input = stream.index();
    const RawFrame copy{batch.store(frame.data), frame.location, frame.error};
    stream.decode_frame(copy, entry, batch.next_dynamic());
    finish_entry(batch, entry);
  });
}

// merge_streams() for several inputs, step for step.
void DecodePipeline::decode_merged() {
  while (EventStream* best = next_in_time(streams_)) {
    const std::span<const std::uint8_t> bytes = best->head_bytes();
    DecodedBatch& batch = room(bytes.size());
    BatchEntry& entry = batch.next_entry();
    entry.at = best->head_location();
    entry.input = best->index();
    best->take_head(batch.store(bytes), entry, batch.next_dynamic());
    finish_entry(batch, entry);
  }
}

// What the interpreter's thread needs besides the entry: the run-time
// event, or the error's description (with the run-time schemas' names).
void DecodePipeline::finish_unusual(DecodedBatch& batch, BatchEntry& entry) {
  if (entry.kind == ItemKind::kDynamic) {
    batch.add_dynamic(entry);
  } else if (entry.kind == ItemKind::kError) {
    batch.add_description(entry, describe_error(entry.result.error(), schemas_));
  }
}

DecodedBatch* DecodePipeline::acquire() {
  std::unique_lock lock(mutex_);
  if (free_.empty() && batches_.size() < kBatches && !cancelled_) {
    // A short trace never needs all of them; only this thread adds batches.
    lock.unlock();
    auto batch = std::make_unique<DecodedBatch>();
    lock.lock();
    batches_.push_back(std::move(batch));
    return batches_.back().get();
  }
  if (free_.empty() && !cancelled_) {
    producer_waiting_ = true;
    producer_cv_.wait(lock, [this] { return free_.size() >= kWakeAt || cancelled_; });
    producer_waiting_ = false;
  }
  if (cancelled_) {
    throw Cancelled{};
  }
  DecodedBatch* batch = free_.back();
  free_.pop_back();
  return batch;
}

void DecodePipeline::hand_over() {
  if (filling_ == nullptr || filling_->empty()) {
    return;
  }
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    full_[(full_head_ + full_count_) % kBatches] = filling_;
    ++full_count_;
    wake = consumer_waiting_ && full_count_ >= kWakeAt;
  }
  filling_ = nullptr;
  if (wake) {
    consumer_cv_.notify_one();
  }
}

const DecodedBatch* DecodePipeline::next() {
  std::unique_lock lock(mutex_);
  if (consuming_ != nullptr) {
    consuming_->clear();
    free_.push_back(consuming_);
    consuming_ = nullptr;
    if (producer_waiting_ && free_.size() >= kWakeAt) {
      producer_cv_.notify_one();
    }
  }
  if (full_count_ == 0 && !done_) {
    consumer_waiting_ = true;
    consumer_cv_.wait(lock, [this] { return full_count_ >= kWakeAt || done_; });
    consumer_waiting_ = false;
  }
  if (full_count_ == 0) {
    if (error_) {
      std::rethrow_exception(std::exchange(error_, nullptr));
    }
    return nullptr;
  }
  consuming_ = full_[full_head_];
  full_head_ = (full_head_ + 1) % kBatches;
  --full_count_;
  return consuming_;
}

}  // namespace tband
