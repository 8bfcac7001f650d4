// FreeRTOS queue sets: each set gets a "<set> (queue set)" track with an
// instant for each member that put its handle in the set ("<member> ready"),
// each member added or removed and each selection ("selected <member>",
// "selected none (timed out)"); each member a "<member> set membership"
// track with an "in set <set>" slice while it belongs to one. The set's fill
// counter is the queue's, as before. V10 has no hooks for adding, removing
// or selecting: a member's slice starts at its first send into the set.
#include "trace/interpreter.hpp"

namespace tband {

namespace {
constexpr std::uint8_t kQueueSetKind = static_cast<std::uint8_t>(FrQueueKind::FRQK_QUEUE_SET);
}  // namespace

// V10 traces a set's creation as a plain queue's: its use says it is a set.
void TraceInterpreter::queue_set_instant(std::uint32_t set_id, std::uint64_t ts_ns, const std::string& label) {
  syncs_.object(SyncFamily::kQueue, set_id).queue_kind = kQueueSetKind;
  syncs_.instant(SyncFamily::kQueue, set_id, ts_ns, label);
}

void TraceInterpreter::handle(const QueueSetSend& e, Context& c) {
  count_queue_op(e.set_id, QueueOp::kSend);
  queue_fill(e.set_id, c.ts_ns, e.len_after, tasks_.running(c.core.id));
  syncs_.join_set(SyncFamily::kQueue, e.set_id, e.member_id, c.ts_ns);
  queue_set_instant(e.set_id, c.ts_ns, queue_label(e.member_id) + " ready");
}

void TraceInterpreter::handle(const QueueSetAdd& e, Context& c) {
  syncs_.join_set(SyncFamily::kQueue, e.set_id, e.member_id, c.ts_ns);
  queue_set_instant(e.set_id, c.ts_ns, "added " + queue_label(e.member_id));
}

void TraceInterpreter::handle(const QueueSetRemove& e, Context& c) {
  SyncObjects::Object& member = syncs_.object(SyncFamily::kQueue, e.member_id);
  if (member.in_set == e.set_id) {
    syncs_.leave_set(member, c.ts_ns);
  }
  queue_set_instant(e.set_id, c.ts_ns, "removed " + queue_label(e.member_id));
}

void TraceInterpreter::handle(const QueueSetSelect& e, Context& c) {
  queue_set_instant(e.set_id, c.ts_ns,
                    e.member_id != 0 ? "selected " + queue_label(e.member_id) : "selected none (timed out)");
}

void TraceInterpreter::handle(const QueueSetSelectFromIsr& e, Context& c) {
  queue_set_instant(e.set_id, c.ts_ns,
                    e.member_id != 0 ? "selected " + queue_label(e.member_id) + " from ISR"
                                     : "selected none from ISR (empty)");
}

}  // namespace tband
