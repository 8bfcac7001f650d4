// The model's vocabulary for threads (FreeRTOS tasks) and the operations on
// sync objects, shared by the trackers and their observers.
#pragma once

#include <cstdint>

namespace tband {

enum class TaskStateKind : std::uint8_t { kReady, kRunning, kBlocked, kSuspended, kDeleted, kCount };
enum class QueueOp : std::uint8_t { kSend, kReceive, kReset, kBlockedSend, kBlockedReceive, kBlockedPeek };

}  // namespace tband
