// The live view's observer: the figures it shows are StatsCollector's for the
// same events (since the start and per window), its memory is bounded, the
// slot hands over the newest snapshot only, the server serves page and stream.
#include <gtest/gtest.h>

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "stats/stats_collector.hpp"
#include "stats/stats_format.hpp"
#include "view/live_view.hpp"
#include "view/view_server.hpp"

namespace tband::view {
namespace {

using nlohmann::json;

void name_things(TraceObserver& o) {
  o.name_isr(0, "tick");
  o.name_task(0, "worker", false);
  o.name_marker(0, "work");
  o.name_value(0, "level");
}

// One ISR at 1 kHz (10 us each), a task running between, a marker span and a
// value, for `ms` milliseconds; told to both observers. Named at once unless
// `named` is false (the recorder names things whenever it reports progress,
// which may be after the whole capture has arrived).
template <class... Observers>
void feed(std::uint64_t ms, bool named, Observers&... obs) {
  const auto each = [&](auto f) { (f(obs), ...); };
  each([&](TraceObserver& o) {
    o.add_isr(0);
    o.add_task();
    o.add_marker(TraceObserver::kNone);
    o.add_value(TraceObserver::kNone);
    if (named) {
      name_things(o);
    }
  });
  for (std::uint64_t i = 0; i < ms; ++i) {
    const std::uint64_t t = 1'000'000 + i * 1'000'000;
    each([&](TraceObserver& o) {
      o.timestamp(t);
      o.task_state(0, t, TaskStateKind::kRunning, 0);
      o.timestamp(t + 100'000);
      o.isr_enter(0, 0, t + 100'000);
      o.timestamp(t + 110'000);
      o.isr_exit(0, 0, t + 110'000);
      o.timestamp(t + 500'000);
      o.span_begin(0, t + 500'000);
      o.value(0, t + 500'000, static_cast<std::int64_t>(i % 7));
      o.timestamp(t + 520'000);
      o.span_end(0, t + 520'000);
      o.timestamp(t + 600'000);
      o.task_state(0, t + 600'000, TaskStateKind::kBlocked, 0);
    });
  }
}

json figures_of(const json& stats) {
  json out = json::object();
  for (const json& row : stats["rows"]) {
    for (const auto& [key, value] : row["figures"].items()) {
      out[row["prefix"].get<std::string>().empty() ? key : row["prefix"].get<std::string>() + "." + key] = value;
    }
  }
  return out;
}

RecordingState state_for(std::uint64_t events, std::uint64_t first, std::uint64_t last) {
  RecordingState s;
  s.events = events;
  s.first_ts_ns = first;
  s.last_ts_ns = last;
  return s;
}

TEST(LiveView, FiguresSinceStartAreStatsCollectors) {
  LiveView view;
  StatsCollector stats{StatsOptions{}};
  feed(600, true, view, stats);
  const std::uint64_t last = 1'000'000 + 599 * 1'000'000 + 600'000;
  const json snap = json::parse(view.snapshot_json(state_for(3600, 1'000'000, last)));
  TraceTotals totals;
  totals.events = 3600;
  totals.first_ts_ns = 1'000'000;
  totals.last_ts_ns = last;
  const json expected = json::parse(format_stats_json(stats.finish(totals)))["figures"];
  const json shown = figures_of(snap["total"]);
  ASSERT_FALSE(shown.empty());
  for (const auto& [name, value] : shown.items()) {
    ASSERT_TRUE(expected.contains(name)) << name;
    EXPECT_EQ(value, expected[name]) << name;
  }
  EXPECT_EQ(shown["isr.tick.count"], 600);
  EXPECT_EQ(shown["marker.work.count"], 600);
}

TEST(LiveView, WindowHasTheLastCompleteWindowsFigures) {
  LiveView view;  // 250 ms windows
  feed(600, true, view);
  const json snap = json::parse(view.snapshot_json(state_for(3600, 1'000'000, 601'000'000)));
  ASSERT_FALSE(snap["window"].is_null());
  const json w = figures_of(snap["window"]);
  // 250 ticks in 250 ms; the task runs 600 of every 1000 us.
  EXPECT_EQ(w["isr.tick.count"], 250);
  EXPECT_NEAR(w["isr.tick.rate"].get<double>(), 1000.0, 1e-6);
  EXPECT_NEAR(w["task.worker.cpu"].get<double>(), 60.0, 0.5);
  EXPECT_EQ(snap["window_ns"], 250'000'000);
}

TEST(LiveView, WindowTakesNamesToldAfterItEnded) {
  LiveView view;
  feed(600, false, view);  // two windows complete before any name is known
  name_things(view);
  // A marker first seen after the last complete window, named at once.
  const TraceObserver::Index late = view.add_marker(TraceObserver::kNone);
  view.name_marker(late, "late");
  const json snap = json::parse(view.snapshot_json(state_for(3600, 1'000'000, 601'000'000)));
  ASSERT_FALSE(snap["window"].is_null());
  const json w = figures_of(snap["window"]);
  ASSERT_TRUE(w.contains("isr.tick.rate")) << w.dump();
  EXPECT_NEAR(w["isr.tick.rate"].get<double>(), 1000.0, 1e-6);
  EXPECT_EQ(w["marker.work.count"], 250);
  EXPECT_NEAR(w["task.worker.cpu"].get<double>(), 60.0, 0.5);
  EXPECT_EQ(w["marker.late.count"], 0);
}

TEST(LiveView, AfterAGapTheWindowShownIsTheEmptyOneBeforeNow) {
  LiveView view;
  feed(300, true, view);  // up to 300.6 ms
  view.timestamp(2'000'000'000);  // silent since: windows [501, 1751) ms held nothing
  const json snap = json::parse(view.snapshot_json(state_for(1801, 1'000'000, 2'000'000'000)));
  const json w = figures_of(snap["window"]);
  EXPECT_EQ(w["isr.tick.count"], 0) << w.dump();
  EXPECT_EQ(w["isr.tick.rate"], 0);
  EXPECT_EQ(w["events"], 0);
  EXPECT_EQ(w["duration"], 250'000'000);
  EXPECT_EQ(w["task.worker.blocked"], 250'000'000) << w.dump();  // blocked all along
}

TEST(LiveView, NowTimelineAndPlotsAreBounded) {
  LiveViewOptions options;
  options.max_slices = 64;
  options.max_slices_sent = 50;
  options.plot_points = 10;
  options.recent_events = 5;
  LiveView view{options};
  feed(5000, true, view);
  for (int i = 0; i < 20; ++i) {
    view.event("isr_enter", 0);
  }
  const json snap = json::parse(view.snapshot_json(state_for(30000, 1'000'000, 5'001'000'000)));
  EXPECT_LE(snap["timeline"]["slices"].size(), 50u + 1u);  // the ring's newest, and what is open
  EXPECT_EQ(snap["plots"].size(), 1u);
  EXPECT_EQ(snap["plots"][0]["name"], "level");
  EXPECT_EQ(snap["plots"][0]["points"].size(), 10u);
  EXPECT_EQ(snap["events"].size(), 5u);
  EXPECT_TRUE(snap["now"][0]["task"].is_null());  // blocked at the end
  EXPECT_TRUE(snap["recording"]["link_losses"].is_null());
}

TEST(SnapshotSlot, KeepsOnlyTheNewestAndNeverWaits) {
  SnapshotSlot slot;
  std::uint64_t seen = 0;
  EXPECT_EQ(slot.wait_newer(seen, std::chrono::milliseconds{0}), nullptr);
  for (int i = 0; i < 1000; ++i) {
    slot.put(std::to_string(i));  // nobody reads: nothing piles up
  }
  const auto s = slot.wait_newer(seen, std::chrono::milliseconds{0});
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s, "999");
  EXPECT_EQ(seen, 1000u);
  EXPECT_EQ(slot.wait_newer(seen, std::chrono::milliseconds{0}), nullptr);
  slot.close();
  EXPECT_TRUE(slot.closed());
}

TEST(ViewServer, ServesThePageTheSnapshotAndTheStream) {
  SnapshotSlot slot;
  slot.put(R"({"n":1})");
  {
    ViewServer server{ViewAddress{}, slot};
    const std::string url = server.url();
    const auto colon = url.rfind(':');
    const int port = std::stoi(url.substr(colon + 1));
    httplib::Client client{"127.0.0.1", port};
    const auto page = client.Get("/");
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("tband live view"), std::string::npos);
    EXPECT_EQ(page->body.find("http://"), std::string::npos);   // nothing from elsewhere
    EXPECT_EQ(page->body.find("https://"), std::string::npos);
    const auto snap = client.Get("/snapshot");
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->body, R"({"n":1})");
    std::string stream;
    const auto events = client.Get("/events", [&](const char* data, std::size_t n) {
      stream.append(data, n);
      return stream.find("\n\n") == std::string::npos;  // one snapshot, then go away
    });
    EXPECT_EQ(stream.substr(0, stream.find("\n\n")), R"(data: {"n":1})");
  }
  EXPECT_THROW(parse_view_address("x:99999"), std::invalid_argument);
  EXPECT_THROW(parse_view_address(":80"), std::invalid_argument);
  EXPECT_EQ(parse_view_address("0.0.0.0:8080").host, "0.0.0.0");
  EXPECT_EQ(parse_view_address("8080").port, 8080);
}

}  // namespace
}  // namespace tband::view
