// What the stream buffer scenario shows in Perfetto, the same on the
// stand-in kernel (tests/freertos/stream_buffers_test.cpp) and the real one
// (tests/freertos/real/stream_buffers_test.cpp): reader waits on "uart rx",
// blocks sending to an unnamed message buffer with room for one message.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace_checks.hpp"

namespace tband::test {

// What a message of 4 bytes takes in a message buffer: its bytes and their
// length (configMESSAGE_BUFFER_LENGTH_TYPE, size_t by default).
constexpr std::int64_t kMessageOf4 = 4 + sizeof(std::size_t);

inline void expect_stream_buffer_scenario_view(const Converted& c) {
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  // The one diagnostic: the message buffer the scenario leaves unnamed.
  EXPECT_EQ(c.result.diagnostics.total(), 1u) << c.result.diagnostics.summary();
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kUnnamedId), 1u) << c.result.diagnostics.summary();
  EXPECT_NE(c.result.diagnostics.summary().find("message buffer 2 was never named"), std::string::npos)
      << c.result.diagnostics.summary();
  // The kernel blocks in a notification wait: the state names the buffer.
  EXPECT_EQ(slice_names(c.view.track("State", "reader")),
            (std::vector<std::string>{"Ready", "Running on core 0", "Blocked: receive from uart rx", "Ready",
                                      "Running on core 0", "Blocked: send to message buffer 2", "Ready",
                                      "Running on core 0"}));
  const ViewTrack& rx_fill = c.view.track("uart rx fill", "");
  EXPECT_TRUE(rx_fill.is_counter);
  EXPECT_EQ(counter_values(rx_fill), (std::vector<std::int64_t>{0, 3, 0, 5, 3, 0}));
  EXPECT_EQ(counter_values(c.view.track("message buffer 2 fill", "")),
            (std::vector<std::int64_t>{0, kMessageOf4, 0, kMessageOf4}));
}

}  // namespace tband::test
