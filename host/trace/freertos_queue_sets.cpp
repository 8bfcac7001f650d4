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

TrackId TraceInterpreter::queue_set_track(std::uint32_t set_id) {
  Queue& set = queue(set_id);
  set.kind = kQueueSetKind;  // V10 traces a set's creation as a plain queue's
  if (set.set_track == 0) {
    set.set_track = timeline_.add_track(0, TrackKind::kSlices, queue_label(set_id) + " (queue set)");
  }
  return set.set_track;
}

void TraceInterpreter::queue_set_instant(std::uint32_t set_id, std::uint64_t ts_ns, const std::string& label) {
  timeline_.instant(ts_ns, queue_set_track(set_id), names_.intern(label));
}

void TraceInterpreter::leave_queue_set(Queue& member, std::uint64_t ts_ns) {
  if (member.in_set != 0) {
    timeline_.slice_end(ts_ns, member.membership_track);
    member.in_set = 0;
  }
}

void TraceInterpreter::join_queue_set(std::uint32_t set_id, std::uint32_t member_id, std::uint64_t ts_ns) {
  Queue& member = queue(member_id);
  if (member.in_set == set_id) {
    return;  // already known (V11: a send may be traced before the add that preceded it)
  }
  leave_queue_set(member, ts_ns);  // V10: removed from its old set untraced
  if (member.membership_track == 0) {
    member.membership_track =
        timeline_.add_track(0, TrackKind::kSlices, queue_label(member_id) + " set membership");
  }
  timeline_.slice_begin(ts_ns, member.membership_track, names_.intern("in set " + queue_label(set_id)));
  member.in_set = set_id;
}

void TraceInterpreter::handle(const QueueSetSend& e, Context& c) {
  count_queue_op(e.set_id, QueueOp::kSend);
  queue_fill(e.set_id, c.ts_ns, e.len_after, tasks_.running(c.core.id));
  join_queue_set(e.set_id, e.member_id, c.ts_ns);
  queue_set_instant(e.set_id, c.ts_ns, queue_label(e.member_id) + " ready");
}

void TraceInterpreter::handle(const QueueSetAdd& e, Context& c) {
  join_queue_set(e.set_id, e.member_id, c.ts_ns);
  queue_set_instant(e.set_id, c.ts_ns, "added " + queue_label(e.member_id));
}

void TraceInterpreter::handle(const QueueSetRemove& e, Context& c) {
  Queue& member = queue(e.member_id);
  if (member.in_set == e.set_id) {
    leave_queue_set(member, c.ts_ns);
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
