// tband stats on hand-built traces whose every figure is known: durations
// and percentiles, nesting, spans left open, one-event traces, several
// cores, FreeRTOS task states and queues, trace health, and the names rules
// use to find figures.
#include <gtest/gtest.h>

#include <cmath>

#include "app/trace_analysis.hpp"
#include "convert_helper.hpp"
#include "scheduler_trace.hpp"
#include "stats/time_bins.hpp"

namespace tband::test {
namespace {

namespace enc = tband::enc;

Analysis analyze_files(const std::vector<std::string>& inputs, std::uint32_t cores = 1,
                       TraceMode mode = TraceMode::kFreeRtos, StatsOptions stats = {}) {
  ConversionOptions options;
  for (const std::string& in : inputs) {
    options.inputs.push_back(parse_input_spec(in));
  }
  options.interpreter.mode = mode;
  options.interpreter.core_count = cores;
  return analyze(options, stats);
}

Analysis analyze_trace(const TraceBuilder& t, const std::string& name, StatsOptions stats = {}) {
  return analyze_files({t.write(name + ".bin")}, 1, TraceMode::kFreeRtos, stats);
}

/// The figure's value; fails the test if there is none.
double value(const TraceStats& stats, const std::string& name) {
  const TraceStats::Lookup found = stats.find(name);
  if (found.figure == nullptr) {
    ADD_FAILURE() << name << ": " << found.problem;
    return NAN;
  }
  if (!found.figure->value) {
    ADD_FAILURE() << name << " has no value";
    return NAN;
  }
  return *found.figure->value;
}

const Where& where(const TraceStats& stats, const std::string& name) {
  const TraceStats::Lookup found = stats.find(name);
  static const Where none{};
  if (found.figure == nullptr || !found.figure->at) {
    ADD_FAILURE() << name << " says nowhere";
    return none;
  }
  return *found.figure->at;
}

// ---- the percentile sketch ------------------------------------------------------

TEST(DurationSketch, ExactUpToItsSampleLimit) {
  DurationSketch d;
  for (std::uint64_t v = 100; v >= 1; --v) {  // 1..100 ns, in reverse
    d.add(v * 1000, v);
  }
  ASSERT_TRUE(d.exact());
  EXPECT_EQ(d.count(), 100u);
  EXPECT_EQ(d.min(), 1000u);
  EXPECT_EQ(d.max(), 100000u);
  EXPECT_EQ(d.max_at(), 100u);
  EXPECT_EQ(d.percentile(50), 50000u);  // nearest rank: ceil(0.5 * 100) = 50th
  EXPECT_EQ(d.percentile(90), 90000u);
  EXPECT_EQ(d.percentile(99), 99000u);
  EXPECT_EQ(d.percentile(100), 100000u);
  EXPECT_EQ(d.percentile(0), 1000u);
  EXPECT_DOUBLE_EQ(d.mean(), 50500.0);
}

TEST(DurationSketch, OneValue) {
  DurationSketch d;
  d.add(777, 5);
  EXPECT_EQ(d.percentile(50), 777u);
  EXPECT_EQ(d.percentile(99), 777u);
  EXPECT_EQ(d.min_at(), 5u);
}

// Beyond kExactSamples the histogram answers, within the stated bound of the
// exact nearest-rank percentile, for spreads from a few ns to seconds.
TEST(DurationSketch, PercentilesStayWithinTheStatedErrorBound) {
  std::uint64_t x = 12345;
  const auto next = [&] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 11;
  };
  const std::vector<std::pair<const char*, std::function<std::uint64_t()>>> distributions = {
      {"uniform 0..1e9", [&] { return next() % 1000000000u; }},
      {"log-uniform 1..1e10", [&] { return static_cast<std::uint64_t>(std::exp(static_cast<double>(next() % 23000) / 1000.0)); }},
      {"narrow 5000..5100", [&] { return 5000 + next() % 101; }},
      {"small 0..300 (exact)", [&] { return next() % 301; }},
  };
  for (const auto& [name, draw] : distributions) {
    DurationSketch d;
    std::vector<std::uint64_t> all;
    for (int i = 0; i < 50000; ++i) {
      const std::uint64_t v = draw();
      d.add(v, 0);
      all.push_back(v);
    }
    ASSERT_FALSE(d.exact());
    std::sort(all.begin(), all.end());
    for (const double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
      const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(all.size()))));
      const double truth = static_cast<double>(all[rank - 1]);
      const double got = static_cast<double>(d.percentile(p));
      EXPECT_LE(std::fabs(got - truth), truth * DurationSketch::kRelativeError) << name << " p" << p;
      if (truth < 256) {
        EXPECT_EQ(got, truth) << name << " p" << p << ": exact below 256 ns";
      }
    }
    EXPECT_EQ(d.min(), all.front());
    EXPECT_EQ(d.max(), all.back());
  }
}

TEST(DurationSketch, MergeKeepsExactnessWhileItCan) {
  DurationSketch a, b;
  for (std::uint64_t v = 1; v <= 10; ++v) {
    a.add(v, v);
    b.add(v + 10, v + 10);
  }
  a.merge(b);
  EXPECT_TRUE(a.exact());
  EXPECT_EQ(a.count(), 20u);
  EXPECT_EQ(a.percentile(50), 10u);
  EXPECT_EQ(a.max(), 20u);
  EXPECT_EQ(a.max_at(), 20u);
  DurationSketch big;
  for (std::uint64_t v = 0; v < 2000; ++v) {
    big.add(v, 0);
  }
  a.merge(big);
  EXPECT_FALSE(a.exact());
  EXPECT_EQ(a.count(), 2020u);
}

// ---- ISRs, markers, values ------------------------------------------------------

// 10 ns per tick. "outer" (ISR 1) runs at ticks 100-200 and 200-300, with
// "inner" (ISR 2) nested at 120-150 and 220-250; then "inner" alone at
// 350-351. The trace spans ticks 100-400.
TraceBuilder nested_isrs() {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "outer"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 2, "inner"); });
  for (std::uint64_t base : {100u, 200u}) {
    t.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, base, 1); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, base + 20, 2); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, base + 50, 2); })
        .add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, base + 100, 1); });
  }
  t.add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 350, 2); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 351, 2); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 400, 9, "end"); });
  return t;
}

TEST(Stats, NestedIsrsCountTheirOwnTimeAndTheirDepth) {
  const Analysis a = analyze_trace(nested_isrs(), "stats_nested_isrs");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "duration"), 3000.0);
  EXPECT_EQ(value(s, "isr.outer.count"), 2.0);
  EXPECT_EQ(value(s, "isr.outer.duration.total"), 2000.0);
  EXPECT_EQ(value(s, "isr.outer.duration.max"), 1000.0);
  EXPECT_EQ(value(s, "isr.outer.max_nesting"), 1.0);
  EXPECT_EQ(value(s, "isr.inner.max_nesting"), 2.0);
  EXPECT_EQ(where(s, "isr.inner.max_nesting").ts_ns, 1200u);
  // outer's own time: 2 x (1000 - 300); inner's: 300 + 300 + 10
  EXPECT_DOUBLE_EQ(value(s, "isr.outer.cpu"), 100.0 * 1400 / 3000);
  EXPECT_DOUBLE_EQ(value(s, "isr.inner.cpu"), 100.0 * 610 / 3000);
  EXPECT_EQ(value(s, "isr.inner.count"), 3.0);
  EXPECT_EQ(value(s, "isr.inner.duration.min"), 10.0);
  EXPECT_EQ(where(s, "isr.inner.duration.min").ts_ns, 3500u);
  EXPECT_EQ(value(s, "isr.inner.duration.max"), 300.0);
  EXPECT_EQ(where(s, "isr.inner.duration.max").ts_ns, 1200u);  // the first of the longest
  EXPECT_EQ(where(s, "isr.inner.duration.max").end_ns, 1500u);
  EXPECT_EQ(value(s, "isr.inner.duration.p50"), 300.0);
  EXPECT_EQ(value(s, "isr.inner.period.min"), 1000.0);  // entries at 1200, 2200, 3500 ns
  EXPECT_EQ(value(s, "isr.inner.period.max"), 1300.0);
  EXPECT_EQ(where(s, "isr.inner.period.max").ts_ns, 2200u);
  EXPECT_DOUBLE_EQ(value(s, "isr.outer.rate"), 2.0 / 3000e-9);
  EXPECT_EQ(value(s, "isr.outer.open"), 0.0);
  EXPECT_EQ(value(s, "marker.evtmarker 9.instants"), 1.0);
  EXPECT_EQ(value(s, "diagnostics"), 1.0);  // marker 9 was never named
  EXPECT_EQ(value(s, "diagnostics.unnamed_id"), 1.0);
}

// Spans of 1..100 us: every percentile is exact and known. Nested spans of
// one marker each count; an instant on the same marker is counted apart.
TEST(Stats, SpanPercentilesAreExactNearestRanks) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1000); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "acq"); });
  std::uint64_t ts = 10;
  for (std::uint64_t d = 100; d >= 1; --d) {
    t.add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, ts, 1, ""); });
    t.add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, ts + d, 1); });
    ts += d + 5;
  }
  t.add([&](std::uint8_t* b) { return enc::encode_evtmarker(b, ts, 1, "done"); });
  const Analysis a = analyze_trace(t, "stats_percentiles");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "marker.acq.count"), 100.0);
  EXPECT_EQ(value(s, "marker.acq.duration.min"), 1000.0);
  EXPECT_EQ(value(s, "marker.acq.duration.p50"), 50000.0);
  EXPECT_EQ(value(s, "marker.acq.duration.p90"), 90000.0);
  EXPECT_EQ(value(s, "marker.acq.duration.p99"), 99000.0);
  EXPECT_EQ(value(s, "marker.acq.duration.max"), 100000.0);
  EXPECT_EQ(where(s, "marker.acq.duration.max").ts_ns, 10000u);  // the first span
  EXPECT_EQ(value(s, "marker.acq.duration.mean"), 50500.0);
  EXPECT_EQ(value(s, "marker.acq.duration.total"), 5050000.0);
  EXPECT_EQ(value(s, "marker.acq.instants"), 1.0);
  EXPECT_EQ(value(s, "marker.acq.open"), 0.0);
}

TEST(Stats, SpansLeftOpenAtTheEndAreCountedNotTimed) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "job"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 3, "hang"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 10, 1, "outer"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 20, 1, "inner"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 25, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 30, 3); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 40, 1, ""); });
  const Analysis a = analyze_trace(t, "stats_open_spans");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "marker.job.count"), 1.0);
  EXPECT_EQ(value(s, "marker.job.duration.max"), 5.0);  // the inner span, the only one that ended
  EXPECT_EQ(value(s, "marker.job.open"), 2.0);
  EXPECT_EQ(value(s, "isr.hang.count"), 0.0);
  EXPECT_EQ(value(s, "isr.hang.open"), 1.0);
  EXPECT_FALSE(s.find("isr.hang.duration.max").figure->value) << "nothing measured: no value";
}

TEST(Stats, OneEventTraceHasNoRates) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_valmarker(b, 50, 4, -7); });
  const Analysis a = analyze_trace(t, "stats_one_event");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "events"), 1.0);
  EXPECT_EQ(value(s, "duration"), 0.0);
  EXPECT_EQ(value(s, "value.valmarker 4.count"), 1.0);
  EXPECT_EQ(value(s, "value.valmarker 4.min"), -7.0);
  EXPECT_EQ(value(s, "value.valmarker 4.first"), -7.0);
  EXPECT_EQ(value(s, "value.valmarker 4.last"), -7.0);
  EXPECT_EQ(value(s, "gaps"), 0.0);
  EXPECT_EQ(value(s, "gap.max"), 0.0);
}

// Ticks are u64: a trace can span 2^63 ns and more. The report's time grid
// once wrapped there and looped for ever (tband report on a 19-byte trace).
TEST(Stats, TimeSeriesOverTheWholeTickRange) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_valmarker(b, 1, 4, 3); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker(b, (std::uint64_t{1} << 63) + 5, 4, 9); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker(b, ~std::uint64_t{0}, 4, 6); });
  StatsOptions options;
  options.time_series = true;
  const Analysis a = analyze_trace(t, "stats_whole_tick_range", options);
  EXPECT_EQ(value(a.stats, "value.valmarker 4.max"), 9.0);
  const TraceStats::Lookup found = a.stats.find("value.valmarker 4.max");
  ASSERT_NE(found.row, nullptr);
  ASSERT_FALSE(found.row->series.empty());
  EXPECT_LE(found.row->series.size(), TimeGrid::kBins);
  EXPECT_GT(a.stats.bin_width_ns, 0u);
  EXPECT_EQ(found.row->series.front().min, 3.0);
  EXPECT_EQ(found.row->series.back().max, 6.0);

  // A task running until the bin that reaches past 2^64 ns: its CPU load was
  // split with bin ends that wrapped to 0, and the split never ended.
  TraceBuilder tasks;
  const std::uint64_t from = (std::uint64_t{1} << 63) - (std::uint64_t{1} << 60);
  const std::uint64_t until = ~std::uint64_t{0} - (std::uint64_t{1} << 50) + 1;
  tasks.add([](std::uint8_t* b) { return enc::encode_task_name(b, 2, "worker"); })
      .add([&](std::uint8_t* b) { return enc::encode_task_switched_in(b, from, 2); })
      .add([&](std::uint8_t* b) { return enc::encode_task_switched_in(b, until, 1); });
  const Analysis load = analyze_trace(tasks, "stats_load_near_tick_end", options);
  const TraceStats::Lookup cpu = load.stats.find("task.worker.cpu");
  ASSERT_NE(cpu.row, nullptr) << cpu.problem;
  EXPECT_NEAR(value(load.stats, "task.worker.cpu"), 100.0, 1e-6);
  for (const SeriesBin& bin : cpu.row->series) {
    EXPECT_LE(bin.max, 100.0 + 1e-9);
  }
}

TEST(Stats, ValueMarkersKeepExtremesFirstAndLastWithTheirTimes) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 2); })
      .add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, 1, "fifo"); });
  const std::int64_t values[] = {5, -3, 12, 12, 0};
  std::uint64_t ts = 100;
  for (const std::int64_t v : values) {
    t.add([&](std::uint8_t* b) { return enc::encode_valmarker(b, ts, 1, v); });
    ts += 10;
  }
  const Analysis a = analyze_trace(t, "stats_values");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "value.fifo.count"), 5.0);
  EXPECT_EQ(value(s, "value.fifo.min"), -3.0);
  EXPECT_EQ(where(s, "value.fifo.min").ts_ns, 220u);
  EXPECT_EQ(value(s, "value.fifo.max"), 12.0);
  EXPECT_EQ(where(s, "value.fifo.max").ts_ns, 240u);  // where it was first reached
  EXPECT_EQ(value(s, "value.fifo.mean"), 26.0 / 5);
  EXPECT_EQ(value(s, "value.fifo.first"), 5.0);
  EXPECT_EQ(value(s, "value.fifo.last"), 0.0);
  EXPECT_EQ(where(s, "value.fifo.last").ts_ns, 280u);
}

// Two cores in two files: an ISR named alike on both is one row over both
// cores; its CPU share is of both cores' time.
TEST(Stats, SeveralCores) {
  TraceBuilder core0;
  core0.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 100, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 110, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 200, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 210, 1); });
  TraceBuilder core1;
  core1.add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 2, "dma"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 150, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 152, 2); })  // nested on core 1 only
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 182, 2); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 190, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 300, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 300, 1); });
  const Analysis a = analyze_files({core0.write("stats_c0.bin") + "@0", core1.write("stats_c1.bin") + "@1"}, 2);
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "cores"), 2.0);
  EXPECT_EQ(value(s, "duration"), 200.0);  // 100 .. 300
  EXPECT_EQ(value(s, "isr.tick.count"), 4.0);
  EXPECT_EQ(value(s, "isr.tick.duration.max"), 40.0);  // core 1's, with dma nested in it
  EXPECT_EQ(where(s, "isr.tick.duration.max").ts_ns, 150u);
  EXPECT_EQ(value(s, "isr.tick.duration.min"), 0.0);
  EXPECT_EQ(value(s, "isr.tick.max_nesting"), 1.0);
  EXPECT_EQ(value(s, "isr.dma.max_nesting"), 2.0);
  EXPECT_EQ(value(s, "isr.tick.period.min"), 100.0);  // per core: 100 -> 200 and 150 -> 300
  EXPECT_EQ(value(s, "isr.tick.period.max"), 150.0);
  EXPECT_DOUBLE_EQ(value(s, "isr.tick.cpu"), 100.0 * (10 + 10 + 10) / (200.0 * 2));
  const TraceStats::Lookup tick = s.find("isr.tick.count");
  EXPECT_EQ(tick.row->detail, "cores 0,1");
  EXPECT_EQ(s.find("isr.dma.count").row->detail, "core 1");
}

TEST(Stats, TraceHealth) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1000); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 1, 1, "a"); })
      .add([](std::uint8_t* b) { return enc::encode_dropped_evt_cnt(b, 5, 3); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 30000, 1, "b"); })  // 30 ms later: a gap
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 30001, 0, 2, 19); })
      .raw({0x02, 0xEE, 0x00})  // unknown event id
      .add([](std::uint8_t* b) { return enc::encode_evtmarker(b, 30002, 1, "c"); })
      .raw({0x05, 0x12});  // the capture ends inside a frame
  const Analysis a = analyze_trace(t, "stats_health");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "events"), 6.0);  // the two broken frames are no events
  EXPECT_EQ(value(s, "dropped"), 3.0);
  EXPECT_EQ(where(s, "dropped").ts_ns, 5000u);
  EXPECT_EQ(value(s, "decode_errors"), 1.0);
  EXPECT_EQ(value(s, "truncated_end"), 1.0);
  EXPECT_EQ(value(s, "diagnostics.truncated_end"), 1.0);
  EXPECT_EQ(value(s, "metadata_overflow"), 2.0);  // metadata events lost
  EXPECT_EQ(value(s, "gaps"), 1.0);
  EXPECT_EQ(value(s, "gap.max"), 29995000.0);
  EXPECT_EQ(where(s, "gap.max").ts_ns, 5000u);
  EXPECT_EQ(value(s, "diagnostics.dropped_events"), 1.0);
  EXPECT_EQ(value(s, "diagnostics.decode_error"), 1.0);
  EXPECT_EQ(value(s, "diagnostics.metadata_overflow"), 1.0);

  StatsOptions wider;
  wider.gap_threshold_ns = 50'000'000;
  EXPECT_EQ(value(analyze_trace(t, "stats_health_wider", wider).stats, "gaps"), 0.0);
}

// Found by fuzz_stats: the core id a metadata_overflow event names is its
// own word, not the frame's core; 2^32-1 from a corrupt frame once sized a
// vector (2 GB and 8 s for a 46-byte file). The newest total per named core,
// summed, whatever the ids.
TEST(Stats, MetadataOverflowOnAnyCoreIdCostsNoMemory) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 10, 0xFFFFFFFFu, 2, 19); })
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 20, 0xFFFFFFFFu, 5, 40); })  // newer total
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 30, 0x7FFFFFFFu, 1, 9); })
      .add([](std::uint8_t* b) { return enc::encode_metadata_overflow(b, 40, 0, 3, 30); });
  const TraceStats s = analyze_trace(t, "stats_metadata_overflow_core_ids").stats;
  EXPECT_EQ(value(s, "metadata_overflow"), 5.0 + 1.0 + 3.0);
  EXPECT_EQ(where(s, "metadata_overflow").ts_ns, 10u);
  EXPECT_EQ(value(s, "diagnostics.metadata_overflow"), 4.0);
}

// ---- FreeRTOS -----------------------------------------------------------------------------

// The scheduler trace (support/scheduler_trace.hpp), in ns: sender runs
// 1000-1300 and 1800-2000, receiver 1300-1600, IDLE 1600-1800 and from 2000
// to the end (2000). The core is scheduled from 1000: 1000 ns.
TEST(Stats, FreeRtosTasksQueuesAndMutexes) {
  const Analysis a = analyze_trace(scheduler_trace(), "stats_freertos");
  const TraceStats& s = a.stats;
  EXPECT_EQ(value(s, "diagnostics"), 0.0) << a.result.diagnostics.summary();
  EXPECT_EQ(value(s, "task.sender.cpu"), 50.0);
  EXPECT_EQ(value(s, "task.receiver.cpu"), 30.0);
  EXPECT_EQ(value(s, "task.IDLE.cpu"), 20.0);
  EXPECT_EQ(value(s, "task.sender.core0.cpu"), 50.0);
  EXPECT_EQ(value(s, "core.0.load"), 80.0);
  EXPECT_EQ(value(s, "core.0.idle"), 20.0);
  EXPECT_EQ(value(s, "task.sender.running"), 500.0);
  EXPECT_EQ(value(s, "task.sender.blocked"), 480.0);  // delayed 1300 -> 1780
  EXPECT_EQ(value(s, "task.sender.ready"), 920.0);    // created at 100, ran at 1000; ready 1780 -> 1800
  EXPECT_EQ(value(s, "task.sender.switches"), 2.0);
  EXPECT_EQ(value(s, "task.sender.preemptions"), 0.0);
  EXPECT_EQ(value(s, "task.sender.latency.max"), 900.0);
  EXPECT_EQ(value(s, "task.sender.latency.min"), 20.0);
  EXPECT_EQ(where(s, "task.sender.latency.max").ts_ns, 100u);
  EXPECT_EQ(where(s, "task.sender.latency.max").end_ns, 1000u);
  EXPECT_EQ(value(s, "task.receiver.suspended"), 100.0);
  EXPECT_EQ(value(s, "task.IDLE.preemptions"), 1.0);  // switched out at 1800 while ready
  EXPECT_EQ(s.find("task.IDLE.cpu").row->detail, "idle task");
  EXPECT_EQ(value(s, "queue.jobs.high_water"), 2.0);
  EXPECT_EQ(where(s, "queue.jobs.high_water").ts_ns, 1200u);
  EXPECT_EQ(value(s, "queue.jobs.sends"), 2.0);
  EXPECT_EQ(value(s, "queue.jobs.receives"), 2.0);
  EXPECT_EQ(value(s, "queue.jobs.blocked_receives"), 1.0);
  EXPECT_EQ(value(s, "queue.jobs.blocked"), 1.0);
  EXPECT_EQ(value(s, "mutex.bus_lock.takes"), 1.0);
  EXPECT_EQ(value(s, "mutex.bus_lock.hold.max"), 230.0);
  EXPECT_EQ(where(s, "mutex.bus_lock.hold.max").ts_ns, 1020u);
  EXPECT_EQ(value(s, "mutex.bus_lock.held_at_end"), 0.0);
  EXPECT_EQ(value(s, "task.sender.marker.produce.duration.max"), 250.0);
  EXPECT_EQ(s.find("task.sender.marker.produce.count").row->name, "sender: produce");
  EXPECT_EQ(s.find("queue.bus_lock.sends").figure, nullptr) << "a mutex is no queue";
}

// ---- names ----------------------------------------------------------------------------------

TEST(Stats, LookupSaysWhatIsMissing) {
  const Analysis a = analyze_trace(nested_isrs(), "stats_lookup");
  const TraceStats& s = a.stats;
  EXPECT_EQ(s.find("isr.timer.count").problem, "the trace has no isr matching 'isr.timer.count'; it has 'outer', 'inner'");
  EXPECT_NE(s.find("isr.outer.duration.p42").problem.find("'isr.outer' has no figure 'duration.p42'; it has: count, rate"),
            std::string::npos)
      << s.find("isr.outer.duration.p42").problem;
  EXPECT_EQ(s.find("queue.jobs.high_water").problem,
            "the trace has no queue matching 'queue.jobs.high_water' (it has none of that kind)");
  EXPECT_EQ(s.find("droped").problem.rfind("unknown figure 'droped': trace figures are duration, events", 0), 0u)
      << s.find("droped").problem;
}

// A name with dots and spaces still finds its row.
TEST(Stats, NamesWithDotsAndSpaces) {
  TraceBuilder t;
  t.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "tick 1kHz"); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 2, "v1.2 step"); })
      .add([](std::uint8_t* b) { return enc::encode_isr_enter(b, 10, 1); })
      .add([](std::uint8_t* b) { return enc::encode_isr_exit(b, 15, 1); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 20, 2, ""); })
      .add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 27, 2); });
  const Analysis a = analyze_trace(t, "stats_names");
  EXPECT_EQ(value(a.stats, "isr.tick 1kHz.duration.max"), 5.0);
  EXPECT_EQ(value(a.stats, "marker.v1.2 step.duration.max"), 7.0);
}

// The report draws values as steps from each bin's first to its last value:
// both must survive the bins merging as the trace grows.
TEST(StatsBins, ValueBinsKeepFirstAndLastThroughMerges) {
  TimeGrid grid;
  grid.start(0);
  ValueBins bins;
  const double values[] = {5, -1, 7, 2};
  for (std::uint64_t t = 0; t < 4; ++t) {
    grid.reach(t);
    bins.add(grid, t, values[t]);
  }
  EXPECT_EQ(bins.sync(grid)[1].first, -1.0);
  grid.reach(4 * TimeGrid::kBins);  // width 1 -> 8: bins 0..7 become bin 0
  ASSERT_EQ(grid.width(), 8u);
  const ValueBin& merged = bins.sync(grid)[0];
  EXPECT_TRUE(merged.seen);
  EXPECT_EQ(merged.first, 5.0);
  EXPECT_EQ(merged.last, 2.0);
  EXPECT_EQ(merged.min, -1.0);
  EXPECT_EQ(merged.max, 7.0);
  EXPECT_FALSE(bins.sync(grid)[1].seen);
}

}  // namespace
}  // namespace tband::test
