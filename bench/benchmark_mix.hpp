// The benchmark mix every tband benchmark uses, so that figures compare:
// N cycles of isr_enter(7), evtmarker_begin(1, "acq"), valmarker(2, (i % 1000) - 500),
// evtmarker_end(1), isr_exit(7). Before each event the timestamp advances by
// 10 + x % 991, where x steps the LCG x = (x * 1103515245 + 12345) mod 2^31
// (seed x = 1, stepped before use); the first timestamp is therefore 10 + lcg(1) % 991.
#pragma once

#include <cstdint>

namespace tband::bench {

inline constexpr std::uint32_t kMixIsrId = 7;
inline constexpr std::uint32_t kMixEvtmarkerId = 1;
inline constexpr std::uint32_t kMixValmarkerId = 2;
inline constexpr const char* kMixMessage = "acq";
inline constexpr int kMixEventsPerCycle = 5;

struct MixStep {
  enum class Kind : std::uint8_t { kIsrEnter, kEvtmarkerBegin, kValmarker, kEvtmarkerEnd, kIsrExit };
  Kind kind;
  std::uint64_t ts;
  std::int64_t value;  // valmarker only
};

class BenchmarkMix {
 public:
  /// The next event of the mix.
  constexpr MixStep next() noexcept {
    x_ = (x_ * 1103515245u + 12345u) & 0x7FFFFFFFu;
    ts_ += 10 + x_ % 991;
    const auto kind = static_cast<MixStep::Kind>(step_);
    const std::int64_t value = static_cast<std::int64_t>(cycle_ % 1000) - 500;
    if (++step_ == kMixEventsPerCycle) {
      step_ = 0;
      ++cycle_;
    }
    return {kind, ts_, value};
  }

 private:
  std::uint64_t x_ = 1;
  std::uint64_t ts_ = 0;
  std::uint64_t cycle_ = 0;
  int step_ = 0;
};

}  // namespace tband::bench
