// What the queue set scenario shows in Perfetto, the same on the stand-in
// kernel (tests/freertos/queue_sets_test.cpp) and the real one
// (tests/freertos/real/queue_sets_test.cpp): server waits on the set
// "inputs" holding "commands" and "wakeup"; V11 traces adding, removing and
// selecting, V10 only the members' sends into the set.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "trace_checks.hpp"

namespace tband::test {

inline void expect_queue_set_scenario_view(const Converted& c, bool v10) {
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(counter_values(c.view.track("inputs fill", "")), (std::vector<std::int64_t>{0, 1, 0, 1, 0, 1, 0}));
  const ViewTrack& set = c.view.track("inputs (queue set)", "");
  if (v10) {
    EXPECT_EQ(instant_names(set), (std::vector<std::string>{"wakeup ready", "commands ready", "wakeup ready"}));
  } else {
    EXPECT_EQ(instant_names(set),
              (std::vector<std::string>{"added commands", "added wakeup", "wakeup ready", "selected wakeup",
                                        "commands ready", "selected commands", "selected none (timed out)",
                                        "removed commands", "wakeup ready", "selected wakeup from ISR"}));
  }
  // V11: from the adding to the removal; V10: from the first send, never ended.
  const ViewTrack& commands_in = c.view.track("commands set membership", "");
  ASSERT_EQ(slice_names(commands_in), (std::vector<std::string>{"in set inputs"}));
  EXPECT_EQ(commands_in.slices[0].end_ns.has_value(), !v10) << "V10 does not trace the removal";
  EXPECT_EQ(slice_names(c.view.track("wakeup set membership", "")), (std::vector<std::string>{"in set inputs"}));
  // V11 knows the set from its creation; V10 from its first send, after server blocked.
  const std::vector<std::string> server = slice_names(c.view.track("State", "server"));
  ASSERT_GE(server.size(), 3u);
  EXPECT_EQ(server[2], v10 ? "Blocked: receive from inputs" : "Blocked: select from inputs");
}

}  // namespace tband::test
