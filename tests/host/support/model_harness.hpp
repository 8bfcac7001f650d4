// Runs the trace model (TraceInterpreter and its timeline) on a trace built
// in the test, in memory: the frames are decoded and handed to the
// interpreter one by one in file order (the traces tests build are in time
// order already), and a RecordingSink keeps the timeline.
#pragma once

#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "decode/stream_decoder.hpp"
#include "recording_sink.hpp"
#include "trace/diagnostics.hpp"
#include "trace/interpreter.hpp"
#include "trace/timeline.hpp"
#include "trace_builder.hpp"

namespace tband::test {

struct Model {
  explicit Model(InterpreterOptions options = {}) : interpreter(timeline, diagnostics, options) {}
  /// The model of the whole trace.
  explicit Model(const TraceBuilder& trace, InterpreterOptions options = {}) : Model(options) { run(trace); }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  /// Interprets every frame of the trace, then ends it.
  void run(const TraceBuilder& trace) {
    StreamDecoder decoder;
    const auto deliver = [&](const DecodeResult& result, const FrameLocation& at) {
      EventOrigin origin;
      origin.core = core_;
      origin.input = &input_;
      origin.at = &at;
      if (!result.ok()) {
        interpreter.on_decode_error(result.error(), origin);
        return;
      }
      std::visit(
          [&](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (!E::kIsMetadata) {
              origin.has_ts = true;
              origin.ts = e.ts;
            }
            if constexpr (std::is_same_v<E, CoreId>) {
              core_ = e.core_id;
              origin.core = core_;
            }
          },
          result.value());
      interpreter.on_event(result.value(), origin);
    };
    decoder.feed(std::span<const std::uint8_t>{trace.bytes()}, deliver);
    decoder.finish(deliver);
    interpreter.finish();
  }

  NameTable names;
  Timeline timeline{names};
  RecordingSink sink{names};

 private:
  // Before the interpreter, which makes its first tracks when it is built.
  [[maybe_unused]] bool attached_ = (timeline.add_sink(sink), true);

 public:
  Diagnostics diagnostics;
  TraceInterpreter interpreter;

 private:
  std::string input_ = "test";
  std::uint32_t core_ = 0;
};

}  // namespace tband::test
