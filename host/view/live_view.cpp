#include "view/live_view.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

namespace tband::view {

// ---- SnapshotSlot ---------------------------------------------------------------

void SnapshotSlot::put(std::string snapshot) {
  auto next = std::make_shared<const std::string>(std::move(snapshot));
  {
    const std::lock_guard lock{mutex_};
    snapshot_.swap(next);
    ++version_;
  }
  changed_.notify_all();
  // `next` (the replaced snapshot) is freed here, outside the lock, unless a
  // reader still holds it.
}

SnapshotSlot::Snapshot SnapshotSlot::wait_newer(std::uint64_t& seen, std::chrono::milliseconds timeout) {
  std::unique_lock lock{mutex_};
  changed_.wait_for(lock, timeout, [&] { return closed_ || version_ > seen; });
  if (version_ <= seen || !snapshot_) {
    return nullptr;
  }
  seen = version_;
  return snapshot_;
}

SnapshotSlot::Snapshot SnapshotSlot::latest() const {
  const std::lock_guard lock{mutex_};
  return snapshot_;
}

void SnapshotSlot::close() {
  {
    const std::lock_guard lock{mutex_};
    closed_ = true;
  }
  changed_.notify_all();
}

bool SnapshotSlot::closed() const {
  const std::lock_guard lock{mutex_};
  return closed_;
}

std::uint64_t SnapshotSlot::version() const {
  const std::lock_guard lock{mutex_};
  return version_;
}

// ---- LiveView: things ---------------------------------------------------------------

LiveView::LiveView(LiveViewOptions options) : options_(options) {
  ring_.resize(std::max<std::size_t>(options_.max_slices, 1));
}

LiveView::Index LiveView::remember(Kind kind, std::uint32_t arg, std::string name, Index index) {
  auto& list = things_[static_cast<std::size_t>(kind)];
  if (list.size() <= index) {
    list.resize(index + 1u, Thing{kind, 0, {}, false});
  }
  list[index] = Thing{kind, arg, std::move(name), false};
  return index;
}

LiveView::Index LiveView::add_isr(std::uint32_t c) {
  each_window([&](StatsCollector& w) { w.add_isr(c); });
  return remember(Kind::kIsr, c, {}, total_.add_isr(c));
}
LiveView::Index LiveView::add_marker(Index task) {
  each_window([&](StatsCollector& w) { w.add_marker(task); });
  const Index i = remember(Kind::kMarker, task, {}, total_.add_marker(task));
  open_spans_.resize(std::max<std::size_t>(open_spans_.size(), i + 1u));
  return i;
}
LiveView::Index LiveView::add_value(Index task) {
  each_window([&](StatsCollector& w) { w.add_value(task); });
  const Index i = remember(Kind::kValue, task, {}, total_.add_value(task));
  value_plots_.resize(std::max<std::size_t>(value_plots_.size(), i + 1u));
  return i;
}
LiveView::Index LiveView::add_task() {
  each_window([&](StatsCollector& w) { w.add_task(); });
  const Index i = remember(Kind::kTask, 0, {}, total_.add_task());
  task_states_.resize(std::max<std::size_t>(task_states_.size(), i + 1u));
  task_has_state_.resize(task_states_.size());
  return i;
}
LiveView::Index LiveView::add_queue() {
  each_window([&](StatsCollector& w) { w.add_queue(); });
  return remember(Kind::kQueue, 0, {}, total_.add_queue());
}
LiveView::Index LiveView::add_schema_span(std::string name) {
  each_window([&](StatsCollector& w) { w.add_schema_span(name); });
  return remember(Kind::kSchemaSpan, 0, name, total_.add_schema_span(name));
}
LiveView::Index LiveView::add_schema_event(std::string name) {
  each_window([&](StatsCollector& w) { w.add_schema_event(name); });
  return remember(Kind::kSchemaEvent, 0, name, total_.add_schema_event(name));
}
LiveView::Index LiveView::add_counter(std::string name) {
  each_window([&](StatsCollector& w) { w.add_counter(name); });
  const Index i = remember(Kind::kCounter, 0, name, total_.add_counter(name));
  counter_plots_.resize(std::max<std::size_t>(counter_plots_.size(), i + 1u));
  return i;
}

// A new window's collector gets every thing again, in the same order, so its
// indexes are the total's; tasks start in the state they are in. Things that
// appear later go to the last complete window too (with no events there), so
// that its indexes stay the total's as well and names reach it.
void LiveView::start_window(std::uint64_t begin_ns) {
  window_ = std::make_unique<StatsCollector>(StatsOptions{});
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kIsr)]) {
    window_->add_isr(t.arg);
  }
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kMarker)]) {
    window_->add_marker(t.arg);
  }
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kValue)]) {
    window_->add_value(t.arg);
  }
  for (std::size_t i = 0; i < things_[static_cast<std::size_t>(Kind::kTask)].size(); ++i) {
    window_->add_task();
  }
  for (std::size_t i = 0; i < things_[static_cast<std::size_t>(Kind::kQueue)].size(); ++i) {
    window_->add_queue();
  }
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kSchemaSpan)]) {
    window_->add_schema_span(t.name);
  }
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kSchemaEvent)]) {
    window_->add_schema_event(t.name);
  }
  for (const Thing& t : things_[static_cast<std::size_t>(Kind::kCounter)]) {
    window_->add_counter(t.name);
  }
  // The names known so far (the recorder tells them now and then).
  const auto named = [&](Kind kind, auto&& tell) {
    const auto& list = things_[static_cast<std::size_t>(kind)];
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].name.empty()) {
        tell(static_cast<Index>(i), list[i]);
      }
    }
  };
  named(Kind::kIsr, [&](Index i, const Thing& t) { window_->name_isr(i, t.name); });
  named(Kind::kMarker, [&](Index i, const Thing& t) { window_->name_marker(i, t.name); });
  named(Kind::kValue, [&](Index i, const Thing& t) { window_->name_value(i, t.name); });
  named(Kind::kTask, [&](Index i, const Thing& t) { window_->name_task(i, t.name, t.flag); });
  named(Kind::kQueue, [&](Index i, const Thing& t) { window_->name_queue(i, t.name, t.flag); });
  window_->timestamp(begin_ns);
  for (std::size_t i = 0; i < task_states_.size(); ++i) {
    if (task_has_state_[i]) {
      window_->task_state(static_cast<Index>(i), begin_ns, task_states_[i].first, task_states_[i].second);
    }
  }
  window_begin_ = begin_ns;
  window_end_ = begin_ns + options_.window_ns;
  window_events_ = 0;
}

// Kept as a collector, not as figures: names the recorder tells later (it
// tells them now and then) must reach the window shown too.
void LiveView::close_window() {
  TraceTotals totals;
  totals.events = window_events_;
  totals.first_ts_ns = window_begin_;
  totals.last_ts_ns = window_end_;
  totals.cores = static_cast<std::uint32_t>(std::max<std::size_t>(cores_.size(), 1));
  window_->timestamp(window_end_);
  done_window_ = std::move(window_);
  done_window_totals_ = totals;
}

// ---- LiveView: events -----------------------------------------------------------

void LiveView::timestamp(std::uint64_t ts_ns) {
  total_.timestamp(ts_ns);
  if (!seen_ts_) {
    seen_ts_ = true;
    first_ts_ = ts_ns;
    last_ts_ = ts_ns;
    start_window(ts_ns);
  }
  if (ts_ns >= window_end_) {
    // The window is complete; a new one starts where it ended, or at the
    // window this event is in after a gap. Then the last complete window is
    // the empty one before it: the page shows that nothing came.
    const std::uint64_t end = window_end_;
    const std::uint64_t empty = (ts_ns - end) / options_.window_ns;
    close_window();
    if (empty != 0) {
      start_window(end + (empty - 1) * options_.window_ns);
      close_window();
    }
    start_window(end + empty * options_.window_ns);
  }
  window_->timestamp(ts_ns);
  ++window_events_;
  ++timed_events_;
  last_ts_ = std::max(last_ts_, ts_ns);
}

LiveView::CoreNow& LiveView::core(std::uint32_t id) {
  if (cores_.size() <= id) {
    cores_.resize(id + 1u);
  }
  return cores_[id];
}

void LiveView::add_slice(const Slice& s) {
  ring_[ring_next_] = s;
  if (++ring_next_ == ring_.size()) {
    ring_next_ = 0;
    ring_full_ = true;
  }
}

void LiveView::isr_enter(Index isr, std::uint32_t c, std::uint64_t ts_ns) {
  total_.isr_enter(isr, c, ts_ns);
  if (window_) {
    window_->isr_enter(isr, c, ts_ns);
  }
  CoreNow& now = core(c);
  if (now.isrs.size() < StatsCollector::kMaxOpen) {
    now.isrs.push_back({isr, ts_ns});
  }
}

void LiveView::isr_exit(Index isr, std::uint32_t c, std::uint64_t ts_ns) {
  total_.isr_exit(isr, c, ts_ns);
  if (window_) {
    window_->isr_exit(isr, c, ts_ns);
  }
  CoreNow& now = core(c);
  if (!now.isrs.empty()) {
    const OpenIsr open = now.isrs.back();
    now.isrs.pop_back();
    add_slice({c, Kind::kIsr, open.isr, open.begin, ts_ns});
  }
}

void LiveView::span_begin(Index marker, std::uint64_t ts_ns) {
  total_.span_begin(marker, ts_ns);
  if (window_) {
    window_->span_begin(marker, ts_ns);
  }
  if (marker < open_spans_.size() && open_spans_[marker].size() < StatsCollector::kMaxOpen) {
    open_spans_[marker].push_back(ts_ns);
  }
}

void LiveView::span_end(Index marker, std::uint64_t ts_ns) {
  total_.span_end(marker, ts_ns);
  if (window_) {
    window_->span_end(marker, ts_ns);
  }
  if (marker < open_spans_.size() && !open_spans_[marker].empty()) {
    const std::uint64_t begin = open_spans_[marker].back();
    open_spans_[marker].pop_back();
    add_slice({marker, Kind::kMarker, marker, begin, ts_ns});
  }
}

void LiveView::instant(Index marker, std::uint64_t ts_ns) {
  total_.instant(marker, ts_ns);
  if (window_) {
    window_->instant(marker, ts_ns);
  }
}

void LiveView::add_point(std::vector<Plot>& plots, Index i, std::uint64_t ts_ns, double v) {
  if (i >= plots.size()) {
    return;
  }
  auto& points = plots[i].points;
  points.emplace_back(ts_ns, v);
  while (points.size() > options_.plot_points) {
    points.pop_front();
  }
}

void LiveView::value(Index v, std::uint64_t ts_ns, std::int64_t val) {
  total_.value(v, ts_ns, val);
  if (window_) {
    window_->value(v, ts_ns, val);
  }
  add_point(value_plots_, v, ts_ns, static_cast<double>(val));
}

void LiveView::schema_span_begin(Index span) {
  total_.schema_span_begin(span);
  if (window_) {
    window_->schema_span_begin(span);
  }
}
void LiveView::schema_span_end(Index span, std::uint64_t begin_ns, std::uint64_t end_ns) {
  total_.schema_span_end(span, begin_ns, end_ns);
  if (window_) {
    window_->schema_span_end(span, begin_ns, end_ns);
  }
}
void LiveView::schema_event(Index event, std::uint64_t ts_ns) {
  total_.schema_event(event, ts_ns);
  if (window_) {
    window_->schema_event(event, ts_ns);
  }
}
void LiveView::counter(Index c, std::uint64_t ts_ns, double val) {
  total_.counter(c, ts_ns, val);
  if (window_) {
    window_->counter(c, ts_ns, val);
  }
  add_point(counter_plots_, c, ts_ns, val);
}

void LiveView::task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t c) {
  total_.task_state(task, ts_ns, state, c);
  if (window_) {
    window_->task_state(task, ts_ns, state, c);
  }
  if (task < task_states_.size()) {
    const auto [old_state, old_core] = task_states_[task];
    if (task_has_state_[task] && old_state == TaskStateKind::kRunning) {
      CoreNow& was = core(old_core);
      if (was.task == task) {
        add_slice({old_core, Kind::kTask, task, was.task_since, ts_ns});
        was.task = kNone;
      }
    }
    task_states_[task] = {state, c};
    task_has_state_[task] = true;
  }
  if (state == TaskStateKind::kRunning) {
    CoreNow& now = core(c);
    now.task = task;
    now.task_since = ts_ns;
  }
}

void LiveView::queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) {
  total_.queue_fill(queue, ts_ns, fill);
  if (window_) {
    window_->queue_fill(queue, ts_ns, fill);
  }
}
void LiveView::queue_op(Index queue, QueueOp op) {
  total_.queue_op(queue, op);
  if (window_) {
    window_->queue_op(queue, op);
  }
}
void LiveView::mutex_taken(Index queue, std::uint64_t ts_ns) {
  total_.mutex_taken(queue, ts_ns);
  if (window_) {
    window_->mutex_taken(queue, ts_ns);
  }
}
void LiveView::mutex_released(Index queue, std::uint64_t ts_ns) {
  total_.mutex_released(queue, ts_ns);
  if (window_) {
    window_->mutex_released(queue, ts_ns);
  }
}
void LiveView::dropped(std::uint64_t ts_ns) {
  total_.dropped(ts_ns);
  if (window_) {
    window_->dropped(ts_ns);
  }
  ++dropped_seen_;
}
void LiveView::metadata_overflow(std::uint32_t c, std::uint64_t lost, std::uint64_t ts_ns) {
  total_.metadata_overflow(c, lost, ts_ns);
  if (window_) {
    window_->metadata_overflow(c, lost, ts_ns);
  }
}

// ---- LiveView: names --------------------------------------------------------------

namespace {

template <class List>
void set_name(List& list, std::uint32_t index, const std::string& name) {
  if (index < list.size()) {
    list[index].name = name;
  }
}

}  // namespace

void LiveView::name_isr(Index isr, std::string name) {
  if (isr >= things_[static_cast<std::size_t>(Kind::kIsr)].size()) {
    return;  // an ISR named but never used: finish() adds it to stats only
  }
  set_name(things_[static_cast<std::size_t>(Kind::kIsr)], isr, name);
  each_window([&](StatsCollector& w) { w.name_isr(isr, name); });
  total_.name_isr(isr, std::move(name));
}
void LiveView::name_marker(Index marker, std::string name) {
  set_name(things_[static_cast<std::size_t>(Kind::kMarker)], marker, name);
  if (marker < things_[static_cast<std::size_t>(Kind::kMarker)].size()) {
    each_window([&](StatsCollector& w) { w.name_marker(marker, name); });
  }
  total_.name_marker(marker, std::move(name));
}
void LiveView::name_value(Index v, std::string name) {
  set_name(things_[static_cast<std::size_t>(Kind::kValue)], v, name);
  if (v < things_[static_cast<std::size_t>(Kind::kValue)].size()) {
    each_window([&](StatsCollector& w) { w.name_value(v, name); });
  }
  total_.name_value(v, std::move(name));
}
void LiveView::name_task(Index task, std::string name, bool idle) {
  auto& tasks = things_[static_cast<std::size_t>(Kind::kTask)];
  set_name(tasks, task, name);
  if (task < tasks.size()) {
    tasks[task].flag = idle;
    each_window([&](StatsCollector& w) { w.name_task(task, name, idle); });
  }
  total_.name_task(task, std::move(name), idle);
}
void LiveView::name_queue(Index queue, std::string name, bool mutex) {
  auto& queues = things_[static_cast<std::size_t>(Kind::kQueue)];
  set_name(queues, queue, name);
  if (queue < queues.size()) {
    queues[queue].flag = mutex;
    each_window([&](StatsCollector& w) { w.name_queue(queue, name, mutex); });
  }
  total_.name_queue(queue, std::move(name), mutex);
}
void LiveView::name_counter(Index c, std::string name) {
  set_name(things_[static_cast<std::size_t>(Kind::kCounter)], c, name);
  if (c < things_[static_cast<std::size_t>(Kind::kCounter)].size()) {
    each_window([&](StatsCollector& w) { w.name_counter(c, name); });
  }
  total_.name_counter(c, std::move(name));
}

void LiveView::event(std::string_view name, std::uint32_t c) {
  recent_.push_back({std::string{name}, c, last_ts_});
  while (recent_.size() > options_.recent_events) {
    recent_.pop_front();
  }
}

// ---- the snapshot ---------------------------------------------------------------------

namespace {

nlohmann::json stats_json(const TraceStats& stats) {
  nlohmann::json rows = nlohmann::json::array();
  for (const StatRow& row : stats.rows) {
    nlohmann::json figures = nlohmann::json::object();
    for (const Figure& f : row.figures) {
      figures[f.key] = f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr);
    }
    rows.push_back({{"section", row.section == Section::kTrace ? "trace" : std::string{section_word(row.section)}},
                    {"name", row.name},
                    {"prefix", row.prefix},
                    {"detail", row.detail},
                    {"figures", std::move(figures)}});
  }
  return {{"begin_ns", stats.begin_ns}, {"end_ns", stats.end_ns}, {"rows", std::move(rows)}};
}

}  // namespace

std::string LiveView::snapshot_json(const RecordingState& state) {
  nlohmann::json j;
  const double dt = state.seconds - prev_seconds_;
  nlohmann::json rec = {{"mode", state.mode},
                        {"bytes", state.bytes},
                        {"seconds", state.seconds},
                        {"bytes_per_s", dt > 0 ? static_cast<double>(state.bytes - prev_bytes_) / dt : 0.0},
                        {"events", state.events},
                        {"decode_errors", state.decode_errors},
                        {"dropped_events", state.dropped_events},
                        {"gaps", state.gaps},
                        // link integrity (frames lost on the link): null where the trace does not say
                        {"link_losses", state.link_losses ? nlohmann::json(*state.link_losses) : nlohmann::json(nullptr)},
                        {"sources", state.sources},
                        {"sources_open", state.sources_open},
                        {"files", state.files},
                        {"rotate_bytes", state.rotate_bytes},
                        {"compress", state.compress},
                        {"ended", state.ended}};
  prev_bytes_ = state.bytes;
  prev_seconds_ = state.seconds;
  j["recording"] = std::move(rec);

  TraceTotals totals;
  totals.events = state.events;
  totals.first_ts_ns = state.first_ts_ns;
  totals.last_ts_ns = state.last_ts_ns;
  totals.dropped_events = state.dropped_events;
  totals.cores = state.cores;
  totals.diagnostics = state.diagnostics;
  j["total"] = stats_json(total_.snapshot(totals));
  j["window"] = done_window_ ? stats_json(done_window_->snapshot(done_window_totals_)) : nlohmann::json(nullptr);
  j["window_ns"] = options_.window_ns;

  const auto name_of = [&](Kind kind, Index i) -> std::string {
    const auto& list = things_[static_cast<std::size_t>(kind)];
    if (i < list.size() && !list[i].name.empty()) {
      return list[i].name;
    }
    return std::string{kind == Kind::kIsr ? "isr " : kind == Kind::kTask ? "task " : "marker "} + std::to_string(i);
  };

  // Per core: what runs now (the innermost ISR, else the task).
  nlohmann::json now = nlohmann::json::array();
  for (std::size_t c = 0; c < std::max<std::size_t>(cores_.size(), state.cores); ++c) {
    nlohmann::json entry = {{"core", c}, {"task", nullptr}, {"isr", nullptr}};
    if (c < cores_.size()) {
      if (cores_[c].task != kNone) {
        entry["task"] = name_of(Kind::kTask, cores_[c].task);
      }
      if (!cores_[c].isrs.empty()) {
        entry["isr"] = name_of(Kind::kIsr, cores_[c].isrs.back().isr);
      }
    }
    now.push_back(std::move(entry));
  }
  j["now"] = std::move(now);

  // The timeline: the newest slices that end within timeline_ns of the
  // newest event, as [kind, lane, name index, begin, end] with times in
  // microseconds before the newest event (so small numbers).
  nlohmann::json names = nlohmann::json::array();
  std::unordered_map<std::string, std::size_t> name_ids;
  nlohmann::json slices = nlohmann::json::array();
  const std::uint64_t to = last_ts_;
  const std::uint64_t from = to > options_.timeline_ns ? to - options_.timeline_ns : 0;
  const std::size_t stored = ring_full_ ? ring_.size() : ring_next_;
  const auto rel_us = [&](std::uint64_t t) { return -static_cast<double>(to - std::min(t, to)) / 1000.0; };
  const auto add = [&](Kind kind, std::uint32_t lane, Index thing, std::uint64_t b, std::uint64_t e) {
    const std::string name = name_of(kind, thing);
    const auto [it, added] = name_ids.emplace(name, name_ids.size());
    if (added) {
      names.push_back(name);
    }
    const char* k = kind == Kind::kIsr ? "isr" : kind == Kind::kTask ? "task" : "span";
    slices.push_back({k, lane, it->second, std::round(rel_us(b)), std::round(rel_us(e))});
  };
  for (std::size_t n = 0; n < stored && slices.size() < options_.max_slices_sent; ++n) {
    const std::size_t at = (ring_next_ + ring_.size() - 1 - n) % ring_.size();
    const Slice& s = ring_[at];
    if (s.end < from) {
      break;  // the ring is in end order: older ones end earlier still
    }
    add(s.kind, s.lane, s.thing, s.begin, s.end);
  }
  // What is still open, up to now.
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    if (cores_[c].task != kNone) {
      add(Kind::kTask, static_cast<std::uint32_t>(c), cores_[c].task, std::max(cores_[c].task_since, from), to);
    }
    for (const OpenIsr& o : cores_[c].isrs) {
      add(Kind::kIsr, static_cast<std::uint32_t>(c), o.isr, std::max(o.begin, from), to);
    }
  }
  for (std::size_t m = 0; m < open_spans_.size(); ++m) {
    if (!open_spans_[m].empty()) {
      add(Kind::kMarker, static_cast<std::uint32_t>(m), static_cast<Index>(m), std::max(open_spans_[m].front(), from),
          to);
    }
  }
  j["timeline"] = {{"to_ns", to}, {"span_us", options_.timeline_ns / 1000}, {"names", std::move(names)},
                   {"slices", std::move(slices)}};

  nlohmann::json plots = nlohmann::json::array();
  const auto add_plots = [&](const std::vector<Plot>& list, Kind kind, const char* what) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].points.empty()) {
        continue;
      }
      nlohmann::json points = nlohmann::json::array();
      for (const auto& [t, v] : list[i].points) {
        points.push_back({std::round(rel_us(t)), v});
      }
      const auto& things = things_[static_cast<std::size_t>(kind)];
      const std::string name = i < things.size() && !things[i].name.empty() ? things[i].name
                                                                             : std::string{what} + " " + std::to_string(i);
      plots.push_back({{"kind", what}, {"name", name}, {"points", std::move(points)}});
    }
  };
  add_plots(value_plots_, Kind::kValue, "value");
  add_plots(counter_plots_, Kind::kCounter, "counter");
  j["plots"] = std::move(plots);

  nlohmann::json events = nlohmann::json::array();
  for (auto it = recent_.rbegin(); it != recent_.rend(); ++it) {
    events.push_back({{"name", it->name}, {"core", it->core}, {"ts_ns", it->ts_ns}});
  }
  j["events"] = std::move(events);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tband::view
