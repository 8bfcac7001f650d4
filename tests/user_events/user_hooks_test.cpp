// The generated hooks of a user group (tests/user_events/schema/lab.yaml),
// through each backend, built for speed and for size: every hook writes the
// bytes the encoder writes for the same values (every field type, at its
// boundaries); metadata events land in the metadata buffer; schema_id names
// the schema; and the backend's own behaviour (drops counted exactly, the
// snapshot filling up, the post-mortem ring keeping the newest events) holds
// for user events as for built-in ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "tband_user_events.h"  // first: it brings the configuration the port header reads

#include "decode/stream_decoder.hpp"
#include "roundtrip_support.hpp"
#include "tband_encode.hpp"
#include "tband_events.hpp"
#include "tband_port.h"
#include "trace_capture.hpp"
#if tband_configUSE_BACKEND_POST_MORTEM == 1
#include "postmortem/dump_reader.hpp"
#endif

namespace {

namespace enc = tband::enc;
using tband::test::boundary;
using tband::test::frame_of;
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kRounds = tband::test::kBoundaryRounds;

#if tband_configUSE_BACKEND_EXTERNAL == 1
constexpr unsigned kCores = 1;
#else
constexpr unsigned kCores = 2;
#endif

class UserHooks : public ::testing::Test {
 protected:
  void SetUp() override {
    tband_host_set_core_id(0);
    tband_host_set_clock(TBAND_HOST_CLOCK_MANUAL);
    tband_host_set_time(0);
    tband_host_reset_snapshot_full_calls();
  }
  void TearDown() override {
    stop();
    tband_host_set_core_id(0);
  }

  static void start() {
#if tband_configUSE_BACKEND_STREAMING == 1
    ASSERT_EQ(tband_start_streaming(), 0);
#elif tband_configUSE_BACKEND_SNAPSHOT == 1
    ASSERT_EQ(tband_trigger_snapshot(), 0);
#elif tband_configUSE_BACKEND_POST_MORTEM == 1
    ASSERT_EQ(tband_start_post_mortem(), 0);
#endif
  }
  static void stop() {
#if tband_configUSE_BACKEND_STREAMING == 1
    (void)tband_stop_streaming();
#elif tband_configUSE_BACKEND_SNAPSHOT == 1
    (void)tband_stop_snapshot();
#elif tband_configUSE_BACKEND_POST_MORTEM == 1
    (void)tband_stop_post_mortem();
#endif
  }

  /// Every byte the backend holds or passed on for `core`, in order.
  Bytes recorded(unsigned core) const {
#if tband_configUSE_BACKEND_SNAPSHOT == 1
    const volatile std::uint8_t* buf = tband_get_core_snapshot_buf(core);
    return Bytes(buf, buf + tband_get_core_snapshot_buf_amnt(core));
#elif tband_configUSE_BACKEND_POST_MORTEM == 1
    const volatile std::uint8_t* block = tband_get_post_mortem_buf();
    const Bytes image(block, block + tband_get_post_mortem_buf_size());
    const auto dump = tband::postmortem::read_dump(image);
    EXPECT_TRUE(dump.ok());
    return dump.ok() ? dump.value().cores.at(core).events : Bytes{};
#else
    return capture.bytes(core);
#endif
  }

  tband::test::TraceCapture capture;
};

/// The frames of a byte stream, as framed bytes (delimiter included).
std::vector<Bytes> frames(const Bytes& bytes) {
  std::vector<Bytes> out(1);
  for (const std::uint8_t b : bytes) {
    out.back().push_back(b);
    if (b == 0) {
      out.emplace_back();
    }
  }
  out.pop_back();
  return out;
}

/// The frames that are not the backend's own: dropped_evt_cnt (it comes and
/// goes with the drop protocol), core_id, ts_resolution_ns and schema_id
/// (streaming sends them on start; EveryTraceNamesItsSchema checks the last).
Bytes without_counters(const Bytes& bytes) {
  Bytes out;
  for (const Bytes& frame : frames(bytes)) {
    const auto decoded = tband::test::decode_stream(frame);
    if (decoded.size() == 1 && (decoded[0].dropped_cnt || decoded[0].name == "core_id" ||
                                decoded[0].name == "ts_resolution_ns" || decoded[0].name == "schema_id")) {
      continue;
    }
    out.insert(out.end(), frame.begin(), frame.end());
  }
  return out;
}

void append(Bytes& out, const Bytes& frame) { out.insert(out.end(), frame.begin(), frame.end()); }

/// Calls every hook of the group with round i's boundary values; returns the
/// frames the encoder writes for the same values at time ts.
Bytes call_every_hook(std::size_t i, std::uint64_t ts) {
  tband_host_set_time(ts);
  const auto u8 = boundary<std::uint8_t>(i);
  const auto u16 = boundary<std::uint16_t>(i + 1);
  const auto u32 = boundary<std::uint32_t>(i + 2);
  const auto s8 = boundary<std::int8_t>(i + 3);
  const auto s16 = boundary<std::int16_t>(i + 4);
  const auto s32 = boundary<std::int32_t>(i + 5);
  const bool flag = boundary<bool>(i);
  const auto u64 = boundary<std::uint64_t>(i + 6);
  const auto s64 = boundary<std::int64_t>(i + 7);
  const auto f32 = boundary<float>(i);
  const auto f64 = boundary<double>(i + 1);
  const std::string text = i % 3 == 0 ? "" : std::string(i, static_cast<char>('a' + i));
  const auto mode = static_cast<tband_LabMode>(i % 2 == 0 ? LAB_MAX : LAB_OFF);
  const auto kind = static_cast<tband_FrQueueKind>(i % 6);

  tband_lab_integers(u8, u16, u32, s8, s16, s32, flag);
  tband_lab_wide(u64, s64, f32, f64);
  tband_lab_note(mode, kind, text.c_str());
  tband_lab_optional(u16, f32, s16, flag, mode, f64, u32);
  tband_lab_tick();
  tband_lab_channel_name(u16, text.c_str());
  tband_lab_config(f32, flag);
  tband_lab_job_begin(u16, mode);
  tband_lab_job_end(u16, s32);
  tband_lab_speed(u8, f32);
  tband_lab_level(u16, s32);
  tband_lab_state(u8, mode, text.c_str());

  Bytes expected;
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_integers(b, ts, u8, u16, u32, s8, s16, s32, flag); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_wide(b, ts, u64, s64, f32, f64); }));
  append(expected, frame_of([&](std::uint8_t* b) {
           return enc::encode_lab_note(b, ts, static_cast<enc::LabMode>(mode), static_cast<enc::FrQueueKind>(kind),
                                       text.c_str());
         }));
  append(expected, frame_of([&](std::uint8_t* b) {
           return enc::encode_lab_optional(b, ts, u16, f32, s16, flag, static_cast<enc::LabMode>(mode), f64, u32);
         }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_tick(b, ts); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_channel_name(b, u16, text.c_str()); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_config(b, f32, flag); }));
  const auto lab_mode = static_cast<enc::LabMode>(mode);
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_job_begin(b, ts, u16, lab_mode); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_job_end(b, ts, u16, s32); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_speed(b, ts, u8, f32); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_level(b, ts, u16, s32); }));
  append(expected, frame_of([&](std::uint8_t* b) { return enc::encode_lab_state(b, ts, u8, lab_mode, text.c_str()); }));
  return expected;
}

TEST_F(UserHooks, EveryHookWritesTheEncodersBytesForEveryType) {
  start();
  Bytes expected;
  for (std::size_t i = 0; i < kRounds; ++i) {
    append(expected, call_every_hook(i, 1000 + i));
  }
  stop();
  EXPECT_EQ(without_counters(recorded(0)), expected);
  // And the host decodes each of them (decode_stream fails the test on any error).
  EXPECT_EQ(tband::test::decode_stream(without_counters(recorded(0))).size(), 12 * kRounds);
}

TEST_F(UserHooks, StringsAreCutAtMaxStrLen) {
  start();
  const std::string longer(enc::kMaxStrLen + 5, 'x');
  tband_lab_note(LAB_ON, FRQK_MUTEX, longer.c_str());
  stop();
  const auto events = tband::test::decode_stream(recorded(0));
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().text, "lab_note ts=0 mode=LAB_ON kind=FRQK_MUTEX text=\"" +
                                    std::string(enc::kMaxStrLen, 'x') + "\"");
}

std::string schema_id_text() {
  char trace_id[32];
  std::snprintf(trace_id, sizeof trace_id, "%llu", static_cast<unsigned long long>(enc::kSchemaTraceId));
  return std::string{"schema_id wire_hash="} + trace_id + " user_groups=\"lab\"";
}

// The firmware asks for nothing: its first metadata event puts schema_id
// first in the buffer, and gathering the system metadata adds no second one.
TEST_F(UserHooks, MetadataEventsAreKeptInTheMetadataBufferAndNameTheSchema) {
  tband_lab_channel_name(7, "left");  // before tracing: kept, sent when it starts
  tband_gather_system_metadata();
  tband_lab_config(2.5f, true);
  const auto metadata = tband::test::decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(tband::test::texts(metadata), (std::vector<std::string>{
                                              schema_id_text(),
                                              "lab_channel_name channel=7 name=\"left\"",
                                              "ts_resolution_ns ns_per_ts=1",
                                              "lab_config rate_hz=2.5 enabled=true",
                                          }));
  EXPECT_EQ(enc::kSchemaTraceId, tband::kSchemaTraceId) << "encoder and decoder come from one schema";
}

#if tband_configUSE_BACKEND_STREAMING == 1 || tband_configUSE_BACKEND_SNAPSHOT == 1 || \
    tband_configUSE_BACKEND_POST_MORTEM == 1
// A firmware that names nothing and never gathers its system metadata (as
// README's recipe writes it): the start puts schema_id into the metadata
// buffer, so the trace names its schema (streamed at once; kept for a snapshot
// or a post-mortem dump), once.
TEST_F(UserHooks, EveryTraceNamesItsSchema) {
  start();
  tband_lab_tick();
  stop();
  const auto metadata = tband::test::decode_stream(tband_get_metadata_buf(0), tband_get_metadata_buf_amnt(0));
  EXPECT_EQ(tband::test::texts(metadata), std::vector<std::string>{schema_id_text()});
#if tband_configUSE_BACKEND_STREAMING == 1
  const auto streamed = tband::test::texts(tband::test::decode_stream(recorded(0)));
  ASSERT_EQ(std::count(streamed.begin(), streamed.end(), schema_id_text()), 1) << "sent once, at the start";
  const auto schema = std::find(streamed.begin(), streamed.end(), schema_id_text());
  const auto tick = std::find(streamed.begin(), streamed.end(), "lab_tick ts=0");
  EXPECT_LT(schema, tick) << "before the first user event";
#endif
}
#endif

#if tband_configUSE_BACKEND_STREAMING == 1 || tband_configUSE_BACKEND_EXTERNAL == 1
// Every call is in the trace or counted by dropped_evt_cnt, and after a drop
// the counter goes first (the built-in hooks' protocol, for user events).
TEST_F(UserHooks, DropsAreCountedExactly) {
  start();
  capture.set_drop_policy([](unsigned, std::size_t call) {
    return call % 11 == 4 || (call % 37 >= 20 && call % 37 <= 23) || (call > 500 && call < 530);
  });
  constexpr std::uint32_t kCalls = 1200;
  for (std::uint32_t i = 0; i < kCalls; ++i) {
    tband_host_set_time(i);
    tband_lab_integers(1, 2, i, -3, -4, -5, true);
  }
  capture.set_drop_policy(nullptr);
  tband_lab_integers(1, 2, kCalls, -3, -4, -5, true);  // carries the final count

  std::uint32_t last_count = 0;
  std::int64_t previous = -1;
  std::size_t missing = 0;
  bool counter_just_before = false;
  tband::StreamDecoder decoder;
  const auto on_frame = [&](const tband::DecodeResult& r, const tband::FrameLocation&) {
    ASSERT_TRUE(r.ok());
    if (const auto* cnt = std::get_if<tband::DroppedEvtCnt>(&r.value())) {
      last_count = cnt->cnt;
      counter_just_before = true;
      return;
    }
    const auto* e = std::get_if<tband::LabIntegers>(&r.value());
    if (e == nullptr) {
      counter_just_before = false;
      return;
    }
    ASSERT_GT(static_cast<std::int64_t>(e->a_u32), previous);
    const auto gap = static_cast<std::size_t>(e->a_u32 - previous - 1);
    missing += gap;
    if (gap > 0) {
      EXPECT_TRUE(counter_just_before) << "the counter goes first after a drop (before " << e->a_u32 << ")";
      EXPECT_EQ(last_count, missing);
    }
    previous = e->a_u32;
    counter_just_before = false;
  };
  decoder.feed(capture.bytes(0), on_frame);
  decoder.finish(on_frame);
  EXPECT_EQ(previous, kCalls);
  EXPECT_GT(missing, 50u) << "the policy must really drop events";
  EXPECT_EQ(last_count, missing) << "every call is in the trace or counted";
  EXPECT_EQ(tband_get_dropped_evt_cnt(), missing);
}
#endif

#if tband_configUSE_BACKEND_EXTERNAL == 1
TEST_F(UserHooks, TheExternalHookSeesWhichEventsAreMetadata) {
  tband_lab_channel_name(1, "ch1");
  tband_lab_tick();
  tband_lab_config(1.0f, false);
  EXPECT_EQ(capture.metadata_flags(0), (std::vector<bool>{false, true, false, true}))
      << "the first counter, then the metadata event, the tick and the other metadata event";
  EXPECT_EQ(capture.events(0), (std::vector<std::string>{
                                   "dropped_evt_cnt ts=0 cnt=0",
                                   "lab_channel_name channel=1 name=\"ch1\"",
                                   "lab_tick ts=0",
                                   "lab_config rate_hz=1 enabled=false",
                               }));
}
#endif

#if tband_configUSE_BACKEND_STREAMING == 1 || tband_configUSE_BACKEND_SNAPSHOT == 1 || \
    tband_configUSE_BACKEND_POST_MORTEM == 1
TEST_F(UserHooks, EachCoreRecordsItsOwnUserEvents) {
  start();
  tband_host_set_time(5);
  tband_lab_wide(1, -1, 0.5f, 0.25);
  std::thread core1([] {
    tband_host_set_core_id(1);
    tband_host_set_time(6);
    tband_lab_integers(9, 8, 7, -6, -5, -4, false);
  });
  core1.join();
  stop();
  EXPECT_EQ(tband::test::texts(tband::test::decode_stream(without_counters(recorded(0)))),
            (std::vector<std::string>{"lab_wide ts=5 a_u64=1 a_s64=-1 a_f32=0.5 a_f64=0.25"}));
  EXPECT_EQ(tband::test::texts(tband::test::decode_stream(without_counters(recorded(1)))),
            (std::vector<std::string>{
                "lab_integers ts=6 a_u8=9 a_u16=8 a_u32=7 a_s8=-6 a_s16=-5 a_s32=-4 a_bool=false"}));
}
#endif

#if tband_configUSE_BACKEND_SNAPSHOT == 1
TEST_F(UserHooks, UserEventsFillTheSnapshotAndStopIt) {
  start();
  std::size_t calls = 0;
  while (tband_tracing_enabled() && calls < 10000) {
    tband_host_set_time(calls);
    tband_lab_wide(calls, -static_cast<std::int64_t>(calls), 1.0f, 2.0);
    ++calls;
  }
  EXPECT_FALSE(tband_tracing_enabled()) << "a 2 KiB buffer must fill";
  EXPECT_EQ(tband_host_snapshot_full_calls(), 1u);
  std::size_t recorded_calls = 0;
  for (const auto& event : tband::test::decode_stream(recorded(0))) {
    recorded_calls += event.name == "lab_wide";
  }
  EXPECT_EQ(recorded_calls, calls - 1) << "every call but the one that did not fit";
  EXPECT_LE(tband_get_core_snapshot_buf_amnt(0), static_cast<std::size_t>(tband_configBACKEND_SNAPSHOT_BUF_SIZE));
}
#endif

#if tband_configUSE_BACKEND_POST_MORTEM == 1
TEST_F(UserHooks, ThePostMortemRingKeepsTheNewestUserEvents) {
  start();
  constexpr std::uint32_t kCalls = 3000;
  for (std::uint32_t i = 0; i < kCalls; ++i) {
    tband_host_set_time(i);
    tband_lab_integers(1, 2, i, -3, -4, -5, true);
  }
  std::vector<std::uint32_t> values;
  tband::StreamDecoder decoder;
  const auto on_frame = [&](const tband::DecodeResult& r, const tband::FrameLocation&) {
    ASSERT_TRUE(r.ok());
    if (const auto* e = std::get_if<tband::LabIntegers>(&r.value())) {
      values.push_back(e->a_u32);
    }
  };
  decoder.feed(recorded(0), on_frame);
  decoder.finish(on_frame);
  ASSERT_GT(values.size(), 50u);
  EXPECT_LT(values.size(), static_cast<std::size_t>(kCalls)) << "the ring wrapped";
  EXPECT_EQ(values.back(), kCalls - 1) << "the newest call is there";
  for (std::size_t k = 1; k < values.size(); ++k) {
    EXPECT_EQ(values[k], values[k - 1] + 1) << "no gap among the newest events";
  }
}
#endif

}  // namespace
