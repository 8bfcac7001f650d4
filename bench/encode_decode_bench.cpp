// Google Benchmark of the generated encoder and the host decoder on the
// benchmark mix (benchmark_mix.hpp). Reports events/s; ns per event is the
// reciprocal. Baselines in the same run turn the figures into ratios that do
// not depend on how busy the machine is:
//  - Encode/ByteWiseCobs: the same events through the encoder's streaming COBS
//    writer, which keeps block state per byte as the reference C encoder does,
//    instead of the in-place framing the generated code uses for short events;
//  - Decode/MemcpyBaseline: copying the encoded bytes, the floor for any decoder.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmark_mix.hpp"
#include "mix_encoder.hpp"
#include "decode/stream_decoder.hpp"
#include "tband_encode.hpp"
#include "tband_events.hpp"

namespace {

using tband::bench::BenchmarkMix;
using tband::bench::MixStep;
namespace enc = tband::enc;

constexpr std::size_t kCycles = 100000;  // 500k events per pass
constexpr std::size_t kEvents = kCycles * tband::bench::kMixEventsPerCycle;

std::size_t encode_step(const MixStep& step, std::uint8_t* out) { return tband::bench::encode_mix_step(step, out); }

std::vector<MixStep> mix_steps() {
  std::vector<MixStep> steps(kEvents);
  BenchmarkMix mix;
  for (MixStep& s : steps) {
    s = mix.next();
  }
  return steps;
}

std::vector<std::uint8_t> encoded_mix() {
  std::vector<std::uint8_t> bytes(kEvents * enc::kMaxFramedLen);
  std::size_t len = 0;
  for (const MixStep& s : mix_steps()) {
    len += encode_step(s, bytes.data() + len);
  }
  bytes.resize(len);
  return bytes;
}

void BM_Encode(benchmark::State& state) {
  const std::vector<MixStep> steps = mix_steps();
  std::vector<std::uint8_t> out(kEvents * enc::kMaxFramedLen);
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::size_t len = 0;
    for (const MixStep& s : steps) {
      len += encode_step(s, out.data() + len);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    bytes = len;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["bytes_per_event"] = static_cast<double>(bytes) / kEvents;
}
BENCHMARK(BM_Encode)->Name("Encode/Generated")->Unit(benchmark::kMillisecond);

// The byte-at-a-time path: every byte goes through COBS block bookkeeping as
// it is written (the encoder's path for events longer than one block, and how
// the reference C encoder frames every event).
std::size_t encode_step_bytewise(const MixStep& step, std::uint8_t* out) {
  enc::detail::CobsWriter w{out};
  const auto kind = step.kind;
  const std::uint8_t ids[] = {enc::IsrEnter::kId, enc::EvtmarkerBegin::kId, enc::Valmarker::kId, enc::EvtmarkerEnd::kId,
                              enc::IsrExit::kId};
  w.put(ids[static_cast<int>(kind)]);
  enc::detail::put_u64(w, step.ts);
  switch (kind) {
    case MixStep::Kind::kIsrEnter:
    case MixStep::Kind::kIsrExit: enc::detail::put_u32(w, tband::bench::kMixIsrId); break;
    case MixStep::Kind::kEvtmarkerBegin:
      enc::detail::put_u32(w, tband::bench::kMixEvtmarkerId);
      enc::detail::put_str(w, "acq", 3);
      break;
    case MixStep::Kind::kValmarker:
      enc::detail::put_u32(w, tband::bench::kMixValmarkerId);
      enc::detail::put_s64(w, step.value);
      break;
    case MixStep::Kind::kEvtmarkerEnd: enc::detail::put_u32(w, tband::bench::kMixEvtmarkerId); break;
  }
  return w.finish();
}

void BM_EncodeByteWise(benchmark::State& state) {
  const std::vector<MixStep> steps = mix_steps();
  std::vector<std::uint8_t> out(kEvents * enc::kMaxFramedLen);
  std::vector<std::uint8_t> check(kEvents * enc::kMaxFramedLen);
  // Same bytes as the generated encoder, or the comparison means nothing.
  std::size_t a = 0;
  std::size_t b = 0;
  for (const MixStep& s : steps) {
    a += encode_step(s, out.data() + a);
    b += encode_step_bytewise(s, check.data() + b);
  }
  if (a != b || std::memcmp(out.data(), check.data(), a) != 0) {
    state.SkipWithError("byte-wise encoder disagrees with the generated encoder");
    return;
  }
  for (auto _ : state) {
    std::size_t len = 0;
    for (const MixStep& s : steps) {
      len += encode_step_bytewise(s, out.data() + len);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
}
BENCHMARK(BM_EncodeByteWise)->Name("Encode/ByteWiseCobs")->Unit(benchmark::kMillisecond);

void BM_Decode(benchmark::State& state) {
  const std::vector<std::uint8_t> bytes = encoded_mix();
  const auto chunk = static_cast<std::size_t>(state.range(0));
  std::uint64_t events = 0;
  for (auto _ : state) {
    tband::StreamDecoder decoder;
    std::uint64_t ts_sum = 0;
    const auto sink = [&](const tband::DecodeResult& r, const tband::FrameLocation&) {
      if (r.ok()) {
        ++events;
        ts_sum += tband::event_timestamp(r.value()).value_or(0);
      }
    };
    for (std::size_t at = 0; at < bytes.size(); at += chunk) {
      decoder.feed({bytes.data() + at, std::min(chunk, bytes.size() - at)}, sink);
    }
    decoder.finish(sink);
    benchmark::DoNotOptimize(ts_sum);
  }
  if (events != state.iterations() * kEvents) {
    state.SkipWithError("decoder lost events");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_Decode)->Name("Decode/DeframeAndDecode")->Arg(64 * 1024)->Arg(16)->Unit(benchmark::kMillisecond);

// Deframing alone, to split the decoder's time between framing and fields.
void BM_DeframeOnly(benchmark::State& state) {
  const std::vector<std::uint8_t> bytes = encoded_mix();
  std::uint64_t frames = 0;
  for (auto _ : state) {
    tband::CobsDeframer deframer;
    std::uint64_t content_bytes = 0;
    const auto sink = [&](const tband::RawFrame& frame) {
      ++frames;
      content_bytes += frame.data.size();
    };
    deframer.feed(bytes, sink);
    deframer.finish(sink);
    benchmark::DoNotOptimize(content_bytes);
  }
  if (frames != state.iterations() * kEvents) {
    state.SkipWithError("deframer lost frames");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DeframeOnly)->Name("Decode/DeframeOnly")->Unit(benchmark::kMillisecond);

void BM_DecodeMemcpyBaseline(benchmark::State& state) {
  const std::vector<std::uint8_t> bytes = encoded_mix();
  std::vector<std::uint8_t> copy(bytes.size());
  for (auto _ : state) {
    std::memcpy(copy.data(), bytes.data(), bytes.size());
    benchmark::DoNotOptimize(copy.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DecodeMemcpyBaseline)->Name("Decode/MemcpyBaseline")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
