// The default mode's side of runtime_compact_timestamps: runs the workload
// (compact_workload.hpp) with the reference's timestamps and prints the
// trace's size in bytes, then every event as format_event() writes it, one a
// line; a frame that does not decode prints "error".
#include <cstdio>

#include "compact_workload.hpp"
#include "decode/event_format.hpp"
#include "decode/stream_decoder.hpp"

int main() {
  tband::test::TraceCapture capture;
  tband::test::run_compact_workload(capture);
  const auto& bytes = capture.bytes(0);
  std::printf("bytes %zu\n", bytes.size());
  tband::StreamDecoder decoder;
  const auto sink = [](const tband::DecodeResult& result, const tband::FrameLocation&) {
    std::printf("%s\n", result.ok() ? tband::format_event(result.value()).c_str() : "error");
  };
  decoder.feed(bytes, sink);
  decoder.finish(sink);
  return 0;
}
