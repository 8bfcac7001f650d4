// A schema event without a dedicated mapping (here `motor_sample`, which a
// user added in tests/host/schemas/user_event.yaml) still appears in the
// converted trace: an instant on its core's "Other events" track with every
// field as an argument. Built against the project's schema plus that file.
#include <gtest/gtest.h>

#include "convert_helper.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

TEST(UserEvent, AppearsAsAnInstantWithAllItsFields) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 2); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 10, 1); })
      .add([](std::uint8_t* b) {
        return enc::encode_motor_sample(b, 12, 3000, -42, enc::MotorState::MOTOR_RAMP, "ramp up");
      })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 14, 1); });
  const Converted c = convert_trace(t, "user_event");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.events, 4u);

  const ViewTrack& other = c.view.track("Other events", "Core 0");
  ASSERT_EQ(other.instants.size(), 1u);
  const ViewInstant& i = other.instants[0];
  EXPECT_EQ(i.name, "motor_sample");
  EXPECT_EQ(i.ts_ns, 24u);
  EXPECT_EQ(i.args, (std::map<std::string, std::string>{
                        {"rpm", "3000"}, {"torque", "-42"}, {"state", "MOTOR_RAMP"}, {"note", "ramp up"}}));
  // The mapped events around it are unaffected.
  EXPECT_EQ(c.view.track("ISR 1", "Core 0").slices.size(), 1u);
}

}  // namespace
}  // namespace tband::test
