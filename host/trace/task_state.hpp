// The model's vocabulary for threads (FreeRTOS tasks) and the operations on
// sync objects, shared by the trackers and their observers.
#pragma once

#include <cstdint>
#include <string>

namespace tband {

enum class TaskStateKind : std::uint8_t { kReady, kRunning, kBlocked, kSuspended, kDeleted, kCount };

/// A thread's state: its kind and what the display adds to it.
struct TaskState {
  TaskStateKind kind = TaskStateKind::kReady;
  std::uint32_t core = 0;  // kRunning: where (0 otherwise)
  std::string detail;      // kBlocked: on what; kSuspended/kDeleted: by whom ("" for itself)

  /// As the state track shows it: "Ready", "Running on core 0",
  /// "Blocked: delay 5 ticks", "Suspended by <task>", "Deleted".
  [[nodiscard]] std::string text() const {
    switch (kind) {
      case TaskStateKind::kRunning:
        return "Running on core " + std::to_string(core);
      case TaskStateKind::kBlocked:
        return "Blocked: " + detail;
      case TaskStateKind::kSuspended:
        return detail.empty() ? "Suspended" : "Suspended by " + detail;
      case TaskStateKind::kDeleted:
        return detail.empty() ? "Deleted" : "Deleted by " + detail;
      default:
        return "Ready";
    }
  }
  bool operator==(const TaskState&) const = default;
};
enum class QueueOp : std::uint8_t { kSend, kReceive, kReset, kBlockedSend, kBlockedReceive, kBlockedPeek };

}  // namespace tband
