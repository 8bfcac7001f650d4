// The live view's side of the model (tband record --view, tband serve --live
// --view): a TraceObserver fed by the recorder's live decoding that keeps
//  - the figures of `tband stats` since the start and over the last complete
//    window (250 ms of trace time) (one StatsCollector each: the same code, so the same numbers),
//  - per core what runs now and the last seconds of the timeline (tasks,
//    ISRs, marker spans) in a ring of bounded size,
//  - value markers and counters as plots of bounded history,
//  - the last events by name,
// and turns them into a JSON snapshot now and then. Memory stays flat however
// long the recording: every series is bounded (StatsCollector grows only
// with the number of things, not with time).
//
// Everything here runs on the recording's thread; only the finished snapshot
// (a string) crosses to the server, through a SnapshotSlot.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/stats_collector.hpp"
#include "trace/trace_observer.hpp"

namespace tband::view {

/// The latest snapshot, handed from the recording's thread to the server's:
/// put() replaces (an unread snapshot is dropped, never queued) and never
/// waits for a reader; readers wait for a newer one than they have.
class SnapshotSlot {
 public:
  using Snapshot = std::shared_ptr<const std::string>;

  void put(std::string snapshot);
  /// The newest snapshot if its version is above `seen` (and `seen` updated),
  /// waiting up to `timeout` for one; nullptr on timeout or close().
  Snapshot wait_newer(std::uint64_t& seen, std::chrono::milliseconds timeout);
  /// The newest one, whatever it is (nullptr before the first).
  Snapshot latest() const;
  /// Wakes every waiting reader for good (the recording ended, the server stops).
  void close();
  [[nodiscard]] std::uint64_t version() const;
  [[nodiscard]] bool closed() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Snapshot snapshot_;
  std::uint64_t version_ = 0;
  bool closed_ = false;
};

/// What the recording (or the followed file) says about itself.
struct RecordingState {
  std::string mode = "record";  // "record" or "follow"
  std::uint64_t bytes = 0;
  double seconds = 0;
  double bytes_per_s = 0;  // since the previous snapshot
  std::uint64_t events = 0;
  std::uint64_t decode_errors = 0;
  std::uint64_t dropped_events = 0;  // the target's own count
  std::uint64_t gaps = 0;            // capture gaps (a lost connection)
  /// Frames lost on the link (link integrity); none where the trace does not say.
  std::optional<std::uint64_t> link_losses;
  std::size_t sources = 0, sources_open = 0;
  std::uint64_t first_ts_ns = 0, last_ts_ns = 0;
  std::uint32_t cores = 1;
  const Diagnostics* diagnostics = nullptr;  // for the figures, as tband stats has them
  std::vector<std::string> files;
  std::uint64_t rotate_bytes = 0;
  bool compress = false;
  bool ended = false;
};

struct LiveViewOptions {
  std::uint64_t window_ns = 250'000'000;      // the window's figures: the last complete 250 ms
  std::uint64_t timeline_ns = 2'000'000'000;  // the timeline shows this much trace time
  std::size_t max_slices = 16384;             // the timeline's ring
  std::size_t max_slices_sent = 4000;         // the newest ones in a snapshot
  std::size_t plot_points = 400;              // per value or counter
  std::size_t recent_events = 100;
};

class LiveView final : public TraceObserver {
 public:
  explicit LiveView(LiveViewOptions options = {});

  // ---- TraceObserver: forwarded to the collectors, and kept for the view ----
  Index add_isr(std::uint32_t core) override;
  Index add_marker(Index task) override;
  Index add_value(Index task) override;
  Index add_task() override;
  Index add_queue() override;
  Index add_schema_span(std::string name) override;
  Index add_schema_event(std::string name) override;
  Index add_counter(std::string name) override;
  void timestamp(std::uint64_t ts_ns) override;
  void isr_enter(Index isr, std::uint32_t core, std::uint64_t ts_ns) override;
  void isr_exit(Index isr, std::uint32_t core, std::uint64_t ts_ns) override;
  void span_begin(Index marker, std::uint64_t ts_ns) override;
  void span_end(Index marker, std::uint64_t ts_ns) override;
  void instant(Index marker, std::uint64_t ts_ns) override;
  void value(Index v, std::uint64_t ts_ns, std::int64_t val) override;
  void schema_span_begin(Index span) override;
  void schema_span_end(Index span, std::uint64_t begin_ns, std::uint64_t end_ns) override;
  void schema_event(Index event, std::uint64_t ts_ns) override;
  void counter(Index c, std::uint64_t ts_ns, double val) override;
  void task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t core) override;
  void queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) override;
  void queue_op(Index queue, QueueOp op) override;
  void mutex_taken(Index queue, std::uint64_t ts_ns) override;
  void mutex_released(Index queue, std::uint64_t ts_ns) override;
  void dropped(std::uint64_t ts_ns) override;
  void metadata_overflow(std::uint32_t core, std::uint64_t lost, std::uint64_t ts_ns) override;
  void name_isr(Index isr, std::string name) override;
  void name_marker(Index marker, std::string name) override;
  void name_value(Index v, std::string name) override;
  void name_task(Index task, std::string name, bool idle) override;
  void name_queue(Index queue, std::string name, bool mutex) override;
  void name_counter(Index c, std::string name) override;

  /// A decoded event by name (the event list).
  void event(std::string_view name, std::uint32_t core);

  /// The snapshot as JSON (see RECORDING.md, "The live view").
  [[nodiscard]] std::string snapshot_json(const RecordingState& state);

 private:
  enum class Kind : std::uint8_t { kIsr, kMarker, kValue, kTask, kQueue, kSchemaSpan, kSchemaEvent, kCounter };
  struct Thing {
    Kind kind;
    std::uint32_t arg = 0;  // core (ISR) or task (marker, value)
    std::string name;       // schema things: their name; the others: once named
    bool flag = false;      // idle task, mutex
  };
  struct Slice {
    std::uint32_t lane = 0;  // core (task, ISR) or marker
    Kind kind = Kind::kTask;
    Index thing = 0;
    std::uint64_t begin = 0, end = 0;
  };
  struct OpenIsr {
    Index isr;
    std::uint64_t begin;
  };
  struct CoreNow {
    Index task = kNone;
    std::uint64_t task_since = 0;
    std::vector<OpenIsr> isrs;
  };
  struct Plot {
    std::deque<std::pair<std::uint64_t, double>> points;
  };
  struct Recent {
    std::string name;
    std::uint32_t core;
    std::uint64_t ts_ns;
  };

  Index remember(Kind kind, std::uint32_t arg, std::string name, Index index);
  void start_window(std::uint64_t begin_ns);
  void close_window();  // the open window becomes the last complete one
  CoreNow& core(std::uint32_t id);
  // Things and names go to the window being collected and to the last
  // complete one, so that both keep the total's indexes.
  template <class F>
  void each_window(F&& f) {
    if (window_) {
      f(*window_);
    }
    if (done_window_) {
      f(*done_window_);
    }
  }
  void add_slice(const Slice& s);
  void add_point(std::vector<Plot>& plots, Index i, std::uint64_t ts_ns, double v);

  LiveViewOptions options_;
  StatsCollector total_{StatsOptions{}};
  std::unique_ptr<StatsCollector> window_;
  std::unique_ptr<StatsCollector> done_window_;  // the last complete window
  TraceTotals done_window_totals_;
  std::uint64_t window_begin_ = 0, window_end_ = 0;
  std::uint64_t window_events_ = 0;
  bool seen_ts_ = false;
  std::uint64_t first_ts_ = 0, last_ts_ = 0;
  std::uint64_t timed_events_ = 0;
  std::uint64_t dropped_seen_ = 0;

  std::vector<Thing> things_[8];  // by Kind
  std::vector<std::pair<TaskStateKind, std::uint32_t>> task_states_;  // by task: the newest
  std::vector<bool> task_has_state_;
  std::vector<CoreNow> cores_;
  std::vector<std::vector<std::uint64_t>> open_spans_;  // by marker: begin times
  std::vector<Slice> ring_;
  std::size_t ring_next_ = 0;
  bool ring_full_ = false;
  std::vector<Plot> value_plots_, counter_plots_;
  std::deque<Recent> recent_;
  std::uint64_t prev_bytes_ = 0;
  double prev_seconds_ = 0;
};

}  // namespace tband::view
