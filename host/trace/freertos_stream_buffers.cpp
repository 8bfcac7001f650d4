// FreeRTOS stream, message and stream batching buffers: a "<buffer> fill"
// counter each (bytes in the buffer, as the kernel counts them: a message
// buffer's messages with their lengths), and the state of a task that blocks
// on one ("Blocked: send to <buffer>", "Blocked: receive from <buffer>").
// Events without a handler here (failed calls, deletion, a failed creation)
// are instants with their fields.
#include "trace/interpreter.hpp"

namespace tband {

namespace {

const char* kind_label(std::uint8_t kind) {
  switch (static_cast<FrStreamBufferKind>(kind)) {
    case FrStreamBufferKind::FRSBK_MESSAGE_BUFFER:
      return "message buffer ";
    case FrStreamBufferKind::FRSBK_STREAM_BATCHING_BUFFER:
      return "stream batching buffer ";
    default:
      return "stream buffer ";
  }
}

}  // namespace

// Unnamed, a buffer is known by its kind and id ("message buffer 2").
std::string TraceInterpreter::stream_buffer_label(std::uint32_t id) {
  const StreamBuffer* b = stream_buffers_.find(id);
  if (b != nullptr && !b->name.empty()) {
    return b->name;
  }
  return kind_label(b != nullptr ? b->kind : 0) + std::to_string(id);
}

void TraceInterpreter::stream_buffer_fill(std::uint32_t id, std::uint64_t ts_ns, std::uint32_t fill) {
  bool created = false;
  StreamBuffer& b = stream_buffers_.get(id, created);
  if (b.track == 0) {
    b.track = timeline_.add_track(0, TrackKind::kCounter, stream_buffer_label(id) + " fill");
  }
  timeline_.counter(ts_ns, b.track, fill);
}

void TraceInterpreter::block_on_stream_buffer(Context& c, std::string_view event_name, std::string what) {
  block_current(c, event_name, std::move(what));
  if (tasks_.running(c.core.id)) {
    task(*tasks_.running(c.core.id)).blocked_on_stream_buffer = true;
  }
}

// A new buffer is empty.
void TraceInterpreter::handle(const StreamBufferCreated& e, Context& c) {
  bool created = false;
  stream_buffers_.get(e.sb_id, created).kind = static_cast<std::uint8_t>(e.kind);
  stream_buffer_fill(e.sb_id, c.ts_ns, 0);
}

void TraceInterpreter::handle(const StreamBufferName& e, Context&) {
  bool created = false;
  StreamBuffer& b = stream_buffers_.get(e.sb_id, created);
  b.name.assign(e.name);
  if (b.track != 0) {
    timeline_.rename(b.track, b.name + " fill");
  }
}

void TraceInterpreter::handle(const StreamBufferReset& e, Context& c) { stream_buffer_fill(e.sb_id, c.ts_ns, 0); }

void TraceInterpreter::handle(const StreamBufferSend& e, Context& c) {
  stream_buffer_fill(e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferSendFromIsr& e, Context& c) {
  stream_buffer_fill(e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferReceive& e, Context& c) {
  stream_buffer_fill(e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferReceiveFromIsr& e, Context& c) {
  stream_buffer_fill(e.sb_id, c.ts_ns, e.fill_after);
}

void TraceInterpreter::handle(const CurtaskBlockOnStreamBufferSend& e, Context& c) {
  block_on_stream_buffer(c, "curtask_block_on_stream_buffer_send", "send to " + stream_buffer_label(e.sb_id));
}

void TraceInterpreter::handle(const CurtaskBlockOnStreamBufferReceive& e, Context& c) {
  block_on_stream_buffer(c, "curtask_block_on_stream_buffer_receive",
                         "receive from " + stream_buffer_label(e.sb_id));
}

}  // namespace tband
