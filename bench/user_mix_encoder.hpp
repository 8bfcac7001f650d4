// The benchmark mix (benchmark_mix.hpp) with user events of the lab group
// (tests/user_events/schema/lab.yaml) in place of the built-in ones, so that
// run-time decoding compares with compiled decoding on the same structure:
// per cycle, job 7 begins, job 1 begins inside it, motor 2's speed is
// sampled (value as rpm), job 1 ends, job 7 ends; same timestamps.
// Needs the encoder generated from tband's schema composed with the lab group.
#pragma once

#include <cstddef>
#include <cstdint>

#include "benchmark_mix.hpp"
#include "tband_encode.hpp"

namespace tband::bench {

inline constexpr std::uint16_t kUserMixOuterJob = 7;
inline constexpr std::uint16_t kUserMixInnerJob = 1;
inline constexpr std::uint8_t kUserMixMotor = 2;

/// Writes the step's framed user event to `out` (room for enc::kMaxFramedLen) and returns its length.
inline std::size_t encode_user_mix_step(const MixStep& step, std::uint8_t* out) {
  namespace enc = tband::enc;
  switch (step.kind) {
    case MixStep::Kind::kIsrEnter:
      return enc::encode_lab_job_begin(out, step.ts, kUserMixOuterJob, enc::LabMode::LAB_ON);
    case MixStep::Kind::kEvtmarkerBegin:
      return enc::encode_lab_job_begin(out, step.ts, kUserMixInnerJob, enc::LabMode::LAB_OFF);
    case MixStep::Kind::kValmarker:
      return enc::encode_lab_speed(out, step.ts, kUserMixMotor, static_cast<float>(step.value));
    case MixStep::Kind::kEvtmarkerEnd:
      return enc::encode_lab_job_end(out, step.ts, kUserMixInnerJob, 0);
    case MixStep::Kind::kIsrExit:
      return enc::encode_lab_job_end(out, step.ts, kUserMixOuterJob, 1);
  }
  return 0;
}

}  // namespace tband::bench
