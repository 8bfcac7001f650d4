// Test helpers for the runtime: capture what the host port's backends emit,
// per core, inject drops, and decode the captured bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tband::test {

/// One decoded event, owning its text (string fields do not outlive decoding).
struct DecodedEvent {
  std::uint8_t id = 0;
  std::string name;
  std::optional<std::uint64_t> ts;
  std::string text;                          // format_event(): "isr_enter ts=10 isr_id=7"
  std::optional<std::uint32_t> dropped_cnt;  // dropped_evt_cnt's count
  std::optional<std::int64_t> value;         // valmarker's value
  std::optional<std::uint64_t> first_id;     // the first integer field after ts (isr_id, evtmarker_id, ...)
};

/// Decodes a whole stream; every frame must decode (a failure is reported).
std::vector<DecodedEvent> decode_stream(std::span<const std::uint8_t> bytes);
std::vector<DecodedEvent> decode_stream(const volatile std::uint8_t* bytes, std::size_t len);

/// The text of every event, optionally without dropped_evt_cnt events.
std::vector<std::string> texts(const std::vector<DecodedEvent>& events, bool with_dropped_cnt = true);

/// Installs itself as the host port's sink for its lifetime and records every
/// frame per core. A drop policy can make the sink report frames as dropped
/// (they are then not recorded). Each core is written only by the thread
/// acting as it, so cores may run in parallel.
class TraceCapture {
 public:
  using DropPolicy = std::function<bool(unsigned core, std::size_t call)>;
  static constexpr unsigned kMaxCores = 16;

  TraceCapture();
  ~TraceCapture();
  TraceCapture(const TraceCapture&) = delete;
  TraceCapture& operator=(const TraceCapture&) = delete;

  /// Set before the cores run; called for every frame with the core's call count so far.
  void set_drop_policy(DropPolicy policy) { policy_ = std::move(policy); }
  /// A link that takes at most this many bytes per call, all or nothing (a
  /// non-blocking RTT up-buffer of that size, drained between calls): longer
  /// calls are dropped. 0 (the default): no limit.
  void set_max_call_len(std::size_t len) { max_call_len_ = len; }

  const std::vector<std::uint8_t>& bytes(unsigned core) const { return cores_.at(core).bytes; }
  std::vector<DecodedEvent> decoded(unsigned core) const { return decode_stream(bytes(core)); }
  std::vector<std::string> events(unsigned core, bool with_dropped_cnt = true) const {
    return texts(decoded(core), with_dropped_cnt);
  }
  std::size_t calls(unsigned core) const { return cores_.at(core).calls; }
  std::size_t dropped(unsigned core) const { return cores_.at(core).dropped; }
  /// is_metadata of every recorded frame (external backend).
  const std::vector<bool>& metadata_flags(unsigned core) const { return cores_.at(core).metadata_flags; }
  void clear();

 private:
  struct Core {
    std::vector<std::uint8_t> bytes;
    std::vector<bool> metadata_flags;
    std::size_t calls = 0;
    std::size_t dropped = 0;
  };
  static bool sink(void* context, unsigned core, const std::uint8_t* buf, std::size_t len, bool is_metadata);

  std::array<Core, kMaxCores> cores_{};
  DropPolicy policy_;
  std::size_t max_call_len_ = 0;
};

/// Encodes with the generated encoder, for expected byte streams.
template <class Encode>
std::vector<std::uint8_t> frame_of(Encode&& encode) {
  std::vector<std::uint8_t> out(1024);
  out.resize(encode(out.data()));
  return out;
}

}  // namespace tband::test
