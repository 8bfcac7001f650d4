// A schema event without a dedicated mapping (here `motor_sample`, which a
// user added in tests/host/schemas/user_event.yaml) still appears in the
// converted trace: an instant on its core's "Other events" track with every
// field as an argument. Built against the project's schema plus that file.
#include <gtest/gtest.h>

#include <type_traits>

#include "convert_helper.hpp"
#include "decode/cobs_deframer.hpp"

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

// An event and an enum with the same natural name (motor_fault, MotorFault):
// the event's type takes the suffix Event, on both sides, and the event
// round-trips through the generated encoder, decoder and conversion.
static_assert(std::is_enum_v<enc::MotorFault> && std::is_enum_v<tband::MotorFault>);
static_assert(std::is_class_v<enc::MotorFaultEvent> && std::is_class_v<tband::MotorFaultEvent>);
static_assert(enc::MotorFaultEvent::kId == 0xC1);

TEST(UserEvent, AnEventMayShareItsNameWithAnEnum) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_motor_fault(b, 30, enc::MotorFault::MOTOR_FAULT_HOT, 2); });
  const Converted c = convert_trace(t, "user_event");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  const ViewTrack& other = c.view.track("Other events", "Core 0");
  ASSERT_EQ(other.instants.size(), 1u);
  EXPECT_EQ(other.instants[0].name, "motor_fault");
  EXPECT_EQ(other.instants[0].args,
            (std::map<std::string, std::string>{{"fault", "MOTOR_FAULT_HOT"}, {"motor_id", "2"}}));

  std::uint8_t frame[enc::MotorFaultEvent::kMaxFramedLen];
  const std::size_t len = enc::encode_motor_fault(frame, 30, enc::MotorFault::MOTOR_FAULT_STALL, 7);
  std::vector<std::uint8_t> raw;
  CobsDeframer deframer;
  deframer.feed(std::span<const std::uint8_t>(frame, len), [&](const RawFrame& f) {
    ASSERT_EQ(f.error, nullptr);
    raw.assign(f.data.begin(), f.data.end());
  });
  const DecodeResult decoded = decode_event(raw);
  ASSERT_TRUE(decoded.ok());
  const auto* found = std::get_if<MotorFaultEvent>(&decoded.value());
  ASSERT_NE(found, nullptr);
  const MotorFaultEvent& e = *found;
  EXPECT_EQ(e.ts, 30u);
  EXPECT_EQ(e.fault, tband::MotorFault::MOTOR_FAULT_STALL);
  EXPECT_EQ(e.motor_id, 7u);
}

}  // namespace
}  // namespace tband::test
