// FreeRTOS stream, message and stream batching buffers: a "<buffer> fill"
// counter each (bytes in the buffer, as the kernel counts them: a message
// buffer's messages with their lengths), and the state of a task that blocks
// on one ("Blocked: send to <buffer>", "Blocked: receive from <buffer>").
// Events without a handler here (failed calls, deletion, a failed creation)
// are instants with their fields.
#include "trace/interpreter.hpp"

namespace tband {

namespace {

// Unnamed, a buffer is known by its kind and id ("message buffer 2").
std::string_view kind_name(FrStreamBufferKind kind) {
  switch (kind) {
    case FrStreamBufferKind::FRSBK_MESSAGE_BUFFER:
      return "message buffer";
    case FrStreamBufferKind::FRSBK_STREAM_BATCHING_BUFFER:
      return "stream batching buffer";
    default:
      return "stream buffer";
  }
}

}  // namespace

void TraceInterpreter::block_on_stream_buffer(Context& c, std::string_view event_name, std::string what) {
  block_current(c, event_name, std::move(what));
  if (tasks_.running(c.core.id)) {
    task(*tasks_.running(c.core.id)).blocked_on_stream_buffer = true;
  }
}

// A new buffer is empty.
void TraceInterpreter::handle(const StreamBufferCreated& e, Context& c) {
  syncs_.object(SyncFamily::kBuffer, e.sb_id).kind_name = kind_name(e.kind);
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, 0);
}

void TraceInterpreter::handle(const StreamBufferName& e, Context&) { syncs_.name(SyncFamily::kBuffer, e.sb_id, e.name); }

void TraceInterpreter::handle(const StreamBufferReset& e, Context& c) {
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, 0);
}

void TraceInterpreter::handle(const StreamBufferSend& e, Context& c) {
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferSendFromIsr& e, Context& c) {
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferReceive& e, Context& c) {
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, e.fill_after);
}
void TraceInterpreter::handle(const StreamBufferReceiveFromIsr& e, Context& c) {
  syncs_.level(SyncFamily::kBuffer, e.sb_id, c.ts_ns, e.fill_after);
}

void TraceInterpreter::handle(const CurtaskBlockOnStreamBufferSend& e, Context& c) {
  block_on_stream_buffer(c, "curtask_block_on_stream_buffer_send", "send to " + syncs_.label(SyncFamily::kBuffer, e.sb_id));
}

void TraceInterpreter::handle(const CurtaskBlockOnStreamBufferReceive& e, Context& c) {
  block_on_stream_buffer(c, "curtask_block_on_stream_buffer_receive",
                         "receive from " + syncs_.label(SyncFamily::kBuffer, e.sb_id));
}

}  // namespace tband
