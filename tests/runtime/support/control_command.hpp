// Runtime tests of the control channel: a command as the host's tband ctl
// frames it, fed to the tracer and carried out on the calling thread's core.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ctl/protocol.hpp"
#include "tband.h"

namespace tband::test {

inline void carry_out_command(std::uint8_t cmd) {
  const std::vector<std::uint8_t> payload{cmd};
  const std::vector<std::uint8_t> frame = tband::ctl::encode_payload(payload);
  tband_rx_feed(frame.data(), frame.size());
  EXPECT_EQ(tband_rx_poll(), 1u) << "command " << unsigned{cmd};
}

}  // namespace tband::test
