// A host tool that writes motor events with the generated encoder alone (no
// tracer): what a test bench or a simulator of the motor controller would
// use to make traces that tband decodes like the firmware's. Built from
// README's tband_generate(... LIBRARY ...) recipe.
//
//   motor_frames OUT.bin    writes the schema's identity, a name, three
//                           positions and an alert
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tband_encode.hpp"

namespace enc = tband::enc;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: motor_frames OUT.bin\n");
    return 2;
  }
  std::vector<std::uint8_t> trace;
  std::uint8_t frame[enc::cobs_max_framed_len(enc::kMaxRawLen)];
  const auto put = [&](std::size_t n) { trace.insert(trace.end(), frame, frame + n); };
  put(enc::encode_ts_resolution_ns(frame, 1000));  // one tick: 1 us
  // The trace names its schema, so tband finds the descriptor by itself.
  put(enc::encode_schema_id(frame, enc::kSchemaTraceId, enc::kUserGroupNames));
  put(enc::encode_motor_name(frame, 1, "x-axis"));
  const std::int32_t positions[] = {10, 20, -5};
  for (std::uint64_t i = 0; i < 3; ++i) {
    put(enc::encode_motor_position(frame, 100 * (i + 1), 1, positions[i]));
  }
  put(enc::encode_motor_alert(frame, 400, enc::MotorAlertKind::MOTOR_ALERT_STALL, -3, "bench"));

  std::FILE* out = std::fopen(argv[1], "wb");
  if (out == nullptr || std::fwrite(trace.data(), 1, trace.size(), out) != trace.size() || std::fclose(out) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
