// Encodes one step of the benchmark mix (benchmark_mix.hpp) with the
// generated target encoder: the one place that maps mix steps to events.
#pragma once

#include <cstddef>
#include <cstdint>

#include "benchmark_mix.hpp"
#include "tband_encode.hpp"

namespace tband::bench {

/// Writes the step's framed event to `out` (room for enc::kMaxFramedLen) and returns its length.
inline std::size_t encode_mix_step(const MixStep& step, std::uint8_t* out) {
  namespace enc = tband::enc;
  switch (step.kind) {
    case MixStep::Kind::kIsrEnter: return enc::encode_isr_enter(out, step.ts, kMixIsrId);
    case MixStep::Kind::kEvtmarkerBegin: return enc::encode_evtmarker_begin(out, step.ts, kMixEvtmarkerId, kMixMessage);
    case MixStep::Kind::kValmarker: return enc::encode_valmarker(out, step.ts, kMixValmarkerId, step.value);
    case MixStep::Kind::kEvtmarkerEnd: return enc::encode_evtmarker_end(out, step.ts, kMixEvtmarkerId);
    case MixStep::Kind::kIsrExit: return enc::encode_isr_exit(out, step.ts, kMixIsrId);
  }
  return 0;
}

/// Hands the mix's metadata events (the time resolution and the names of its
/// ISR and markers) to add(encode), in order, where encode(out) writes one
/// framed event to `out` (room for enc::kMaxFramedLen) and returns its length.
template <class Add>
void add_mix_metadata(Add&& add) {
  namespace enc = tband::enc;
  add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  add([](std::uint8_t* b) { return enc::encode_isr_name(b, kMixIsrId, "timer"); });
  add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, kMixEvtmarkerId, "sampling"); });
  add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, kMixValmarkerId, "fifo level"); });
}

}  // namespace tband::bench
