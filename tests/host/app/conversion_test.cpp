// The Perfetto mapping of base events, diagnostics and multi-core merging,
// on traces written with the generated encoder and read back as a user sees
// them (tests/host/support/perfetto_view.hpp).
#include <gtest/gtest.h>

#include "convert_helper.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

TraceBuilder markers_trace() {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "dsp"); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, 2, "fifo"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 7, "timer"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 100, 1, ""); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 110, 1, "fft"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 115, 7); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 118, 7); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 120, 1); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 125, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 130, 1); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker(b, 140, 2, -5); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker(b, 150, 2, 1234567); });
  return t;
}

TEST(Conversion, MarkersBecomeNestedSlicesInstantsAndCounters) {
  const Converted c = convert_trace(markers_trace(), "markers");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_EQ(c.result.events, 13u);
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();

  const ViewTrack& dsp = c.view.track("dsp", "");
  ASSERT_EQ(dsp.slices.size(), 2u);
  EXPECT_EQ(dsp.slices[0].name, "dsp");  // no message: the marker's name
  EXPECT_EQ(dsp.slices[0].begin_ns, 1000u);
  EXPECT_EQ(dsp.slices[0].end_ns, 1300u);
  EXPECT_EQ(dsp.slices[1].name, "fft");
  EXPECT_EQ(dsp.slices[1].depth, 1);
  EXPECT_EQ(dsp.slices[1].end_ns, 1200u);
  ASSERT_EQ(dsp.instants.size(), 1u);
  EXPECT_EQ(dsp.instants[0].name, "tick");
  EXPECT_EQ(dsp.instants[0].ts_ns, 1250u);

  const ViewTrack& fifo = c.view.track("fifo", "");
  EXPECT_TRUE(fifo.is_counter);
  ASSERT_EQ(fifo.counter.size(), 2u);
  EXPECT_EQ(fifo.counter[0], (std::pair<std::uint64_t, std::int64_t>{1400, -5}));
  EXPECT_EQ(fifo.counter[1].second, 1234567);

  const ViewTrack& timer = c.view.track("timer", "Core 0");
  ASSERT_EQ(timer.slices.size(), 1u);
  EXPECT_EQ(timer.slices[0].name, "timer");
  EXPECT_EQ(timer.slices[0].begin_ns, 1150u);
  EXPECT_EQ(timer.slices[0].end_ns, 1180u);
}

TEST(Conversion, NamesThatArriveLateRenameTheTrack) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 5, 9, "x"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 9, "late"); });
  const Converted c = convert_trace(t, "late_names");
  EXPECT_TRUE(c.view.has_track("late", ""));
  EXPECT_FALSE(c.view.has_track("evtmarker 9", ""));
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kUnnamedId), 0u);
}

TEST(Conversion, DiagnosticsAreCountedAndOnTheDiagnosticsTrack) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 10, 3); })    // end without begin
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 11, 4); })         // exit without enter
      .add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 20, 7); })  // 7 dropped
      .add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 25, 7); })  // same total: nothing new
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 15, 3, ""); })    // time going backwards
      .raw({0x02, 0xEE, 0x00})                                                     // unknown event id 0xEE
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 30, 0, 2, 19); });
  const Converted c = convert_trace(t, "diagnostics");
  const Diagnostics& d = c.result.diagnostics;
  EXPECT_EQ(d.count(DiagnosticKind::kEndWithoutBegin), 2u);
  EXPECT_EQ(d.count(DiagnosticKind::kDroppedEvents), 1u);
  EXPECT_EQ(d.count(DiagnosticKind::kTimestampBackwards), 1u);
  EXPECT_EQ(d.count(DiagnosticKind::kDecodeError), 1u);
  EXPECT_EQ(d.count(DiagnosticKind::kMetadataOverflow), 1u);
  EXPECT_EQ(d.count(DiagnosticKind::kUnnamedId), 2u);  // evtmarker 3, ISR 4
  EXPECT_EQ(c.result.decode_errors, 1u);
  const std::string summary = d.summary();
  EXPECT_NE(summary.find("7 event(s) dropped"), std::string::npos) << summary;
  EXPECT_NE(summary.find("unknown event id 0xEE"), std::string::npos) << summary;
  EXPECT_NE(summary.find("byte "), std::string::npos) << summary;

  const ViewTrack& track = c.view.track("Diagnostics", "");
  ASSERT_EQ(track.instants.size(), d.total());
  bool found_drop = false;
  for (const ViewInstant& i : track.instants) {
    if (i.name == "dropped events") {
      found_drop = true;
      EXPECT_EQ(i.ts_ns, 20u);
      EXPECT_NE(i.args.at("message").find("7 event(s)"), std::string::npos);
    }
  }
  EXPECT_TRUE(found_drop);
}

// The runtime's streaming start sends core_id stamped 0 before the metadata
// (ts_resolution_ns among it): tick 0 is 0 ns whatever the resolution, so
// only later events before the resolution are a problem.
TEST(Conversion, OnlyEventsAfterTickZeroNeedTheResolutionFirst) {
  TraceBuilder start;
  start.add([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); })
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 5, 1); });
  const Converted ok = convert_trace(start, "resolution_after_tick_zero");
  EXPECT_EQ(ok.result.diagnostics.count(DiagnosticKind::kNoTimestampResolution), 0u) << ok.result.diagnostics.summary();
  EXPECT_EQ(ok.view.track("tick", "Core 0").slices.at(0).begin_ns, 50u);

  TraceBuilder late;
  late.add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 5, 1); })
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); });
  const Converted diagnosed = convert_trace(late, "resolution_after_an_event");
  EXPECT_EQ(diagnosed.result.diagnostics.count(DiagnosticKind::kNoTimestampResolution), 1u);
  EXPECT_NE(diagnosed.result.diagnostics.summary().find("ts_resolution_ns (10 ns per tick) arrived after"),
            std::string::npos)
      << diagnosed.result.diagnostics.summary();
}

// Every start sends core_id stamped 0 again: a stop and a second start is no
// clock going back (`tband check` failed such a trace on timestamp_backwards),
// and the events after it keep their order; a real step back still counts.
TEST(Conversion, ASecondStartsCoreIdAtTickZeroIsNoTimeGoingBack) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); })
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 100, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 200, 1); })
      .add([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); })  // the second start
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 300, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 400, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 350, 1); });  // back in time
  const Converted c = convert_trace(t, "second_start");
  const Diagnostics& d = c.result.diagnostics;
  EXPECT_EQ(d.count(DiagnosticKind::kTimestampBackwards), 1u) << d.summary();
  EXPECT_NE(d.summary().find("ts 350 after ts 400"), std::string::npos) << d.summary();
  const auto& slices = c.view.track("tick", "Core 0").slices;
  ASSERT_GE(slices.size(), 2u);
  EXPECT_EQ(slices.at(0).begin_ns, 100u);
  EXPECT_EQ(slices.at(1).begin_ns, 300u);
}

// A late resolution of 1 ns per tick confirms how the events before it were
// read: nothing to report (a core that named its things after the start).
TEST(Conversion, ALateResolutionOfOneNanosecondChangesNothing) {
  TraceBuilder late;
  late.add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 5, 0); })
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 7, 1); });
  const Converted c = convert_trace(late, "late_resolution_of_1ns");
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kNoTimestampResolution), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(c.view.track("tick", "Core 0").slices.at(0).begin_ns, 7u);
}

TEST(Conversion, CorruptFrameInTheMiddleTheRestStillConverts) {
  TraceBuilder t = markers_trace();
  std::vector<std::uint8_t> bytes = t.bytes();
  // Frame boundaries: corrupt a byte in the middle of the stream (not a 0x00).
  std::size_t middle = bytes.size() / 2;
  while (bytes[middle] == 0) ++middle;
  bytes[middle] = 0x00;  // splits a frame: one or two decode errors
  TraceBuilder corrupted;
  corrupted.raw(bytes);
  const Converted c = convert_trace(corrupted, "corrupt_middle");
  EXPECT_GE(c.result.decode_errors, 1u);
  EXPECT_GE(c.result.events, 10u);
  EXPECT_TRUE(c.view.has_track("fifo", ""));
}

TEST(Conversion, TwoCoresInTwoFilesAreMergedByTime) {
  TraceBuilder core0;
  core0.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "uart"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 30, 1); });
  TraceBuilder core1;
  core1.add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "spi"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 5, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 20, 1); });
  const Converted c = convert_files({core0.write("c0.bin") + "@0", core1.write("c1.bin") + "@1"}, "two_cores",
                                    TraceMode::kFreeRtos, 2);
  EXPECT_EQ(c.result.diagnostics.total(), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(c.view.track("uart", "Core 0").slices.at(0).begin_ns, 10u);
  EXPECT_EQ(c.view.track("spi", "Core 1").slices.at(0).end_ns, 20u);
}

// The runtime's streaming start: the resolution (sent by the start when no
// core had gathered it), core_id stamped 0; a core that gathers it late has it
// behind a timed report, and another core's events come before that. The
// start's frames are merged first, so every event is read at 40 ns per tick.
TEST(Conversion, TheResolutionTheStartSendsComesBeforeEveryCoresEvents) {
  TraceBuilder core0;
  core0.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 40); })
      .add([](std::uint8_t* b) { return enc::encode_core_id(b, 0, 0); })
      .add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 9, 0); })
      .add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 40); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "uart"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 11, 1); });
  TraceBuilder core1;
  core1.add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 3, 0); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "spi"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 5, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 6, 1); });
  const Converted c = convert_files({core0.write("start_c0.bin") + "@0", core1.write("start_c1.bin") + "@1"},
                                    "resolution_from_the_start", TraceMode::kBareMetal, 2);
  EXPECT_EQ(c.result.diagnostics.count(DiagnosticKind::kNoTimestampResolution), 0u) << c.result.diagnostics.summary();
  EXPECT_EQ(c.view.track("spi", "Core 1").slices.at(0).begin_ns, 200u);
  EXPECT_EQ(c.view.track("uart", "Core 0").slices.at(0).begin_ns, 400u);
}

TEST(Conversion, CoreIdEventsSwitchTheCoreWithinOneStream) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_core_id(b, 11, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 12, 2); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 13, 2); });
  ConversionOptions options;
  options.inputs.push_back(parse_input_spec(t.write("core_switch.bin")));
  options.interpreter.core_count = 2;
  const std::string out = temp_path("core_switch.pftrace");
  std::FILE* f = std::fopen(out.c_str(), "wb");
  options.perfetto = {f, out};
  const ConversionResult r = convert(options);
  std::fclose(f);
  const PerfettoView view = read_perfetto(out);
  EXPECT_TRUE(view.has_track("ISR 1", "Core 0"));
  EXPECT_TRUE(view.has_track("ISR 2", "Core 1"));
  EXPECT_EQ(r.diagnostics.count(DiagnosticKind::kEndWithoutBegin), 0u);
}

TEST(Conversion, InputsAreCheckedAgainstEachOther) {
  EXPECT_THROW(check_inputs({parse_input_spec("a@0"), parse_input_spec("b@0")}, 2), UsageError);
  EXPECT_THROW(check_inputs({parse_input_spec("a"), parse_input_spec("b")}, 2), UsageError);
  EXPECT_THROW(check_inputs({parse_input_spec("a@2")}, 2), UsageError);
  EXPECT_THROW(check_inputs({}, 1), UsageError);
  EXPECT_NO_THROW(check_inputs({parse_input_spec("a@0"), parse_input_spec("b@1")}, 2));
}

TEST(Conversion, GarbageOnlyIsUnreadableInput) {
  TraceBuilder t;
  t.raw({0x05, 0xFF, 0xFF, 0x00, 0x01, 0x00, 0x03, 0x99, 0x00});
  EXPECT_THROW((void)convert_trace(t, "garbage"), InputError);
}

TEST(Conversion, EverNewMessagesDoNotGrowTheNameTableWithoutBound) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  constexpr int kMessages = 70000;
  for (int i = 0; i < kMessages; ++i) {
    const std::string msg = "sample " + std::to_string(i);
    t.add([&](std::uint8_t* b) { return enc::encode_evtmarker(b, 10u + static_cast<std::uint64_t>(i), 1, msg.c_str()); });
  }
  const Converted c = convert_trace(t, "many_messages");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  // Names from event data stop at the bound; a few fixed ones (diagnostic titles) may follow.
  EXPECT_LE(c.result.interned_names, NameTable::kMaxBoundedNames + 16);
  const ViewTrack& track = c.view.track("evtmarker 1", "");
  ASSERT_EQ(track.instants.size(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(track.instants.front().name, "sample 0");           // interned
  EXPECT_EQ(track.instants.back().name, "sample 69999");        // written as text
}

TEST(Conversion, PerfettoOutputIsCompact) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  std::uint64_t ts = 0;
  for (int i = 0; i < 1000; ++i) {
    ts += 10 + static_cast<std::uint64_t>(i % 991);
    t.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, ts, 7); });
    t.add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, ts + 1, 1, "acq"); });
    t.add([&](std::uint8_t* b) { return enc::encode_valmarker(b, ts + 2, 2, i % 1000 - 500); });
    t.add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, ts + 3, 1); });
    t.add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, ts + 4, 7); });
  }
  const Converted c = convert_trace(t, "compact");
  ASSERT_TRUE(c.view.errors.empty()) << c.view.errors.front();
  EXPECT_LE(static_cast<double>(c.result.perfetto_bytes) / static_cast<double>(c.result.events), 30.0);
  EXPECT_EQ(c.view.track("evtmarker 1", "").slices.size(), 1000u);
  EXPECT_EQ(c.view.track("evtmarker 1", "").slices.back().name, "acq");
}

}  // namespace
}  // namespace tband::test
