#include "stats/stats_collector.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tband {

// ---- things -----------------------------------------------------------------------

StatsCollector::Index StatsCollector::add_isr(std::uint32_t core_id) {
  isrs_.emplace_back().core = core_id;
  return static_cast<Index>(isrs_.size() - 1);
}

StatsCollector::Index StatsCollector::add_marker(Index task) {
  markers_.emplace_back().task = task;
  return static_cast<Index>(markers_.size() - 1);
}

StatsCollector::Index StatsCollector::add_value(Index task) {
  values_.emplace_back().task = task;
  return static_cast<Index>(values_.size() - 1);
}

StatsCollector::Index StatsCollector::add_schema_span(std::string name) {
  schema_spans_.emplace_back().name = std::move(name);
  return static_cast<Index>(schema_spans_.size() - 1);
}

StatsCollector::Index StatsCollector::add_schema_event(std::string name) {
  schema_events_.emplace_back().name = std::move(name);
  return static_cast<Index>(schema_events_.size() - 1);
}

StatsCollector::Index StatsCollector::add_counter(std::string name) {
  counters_.emplace_back().name = std::move(name);
  return static_cast<Index>(counters_.size() - 1);
}

StatsCollector::Index StatsCollector::add_task() {
  tasks_.emplace_back();
  return static_cast<Index>(tasks_.size() - 1);
}

StatsCollector::Index StatsCollector::add_queue() {
  queues_.emplace_back();
  return static_cast<Index>(queues_.size() - 1);
}

// ---- events ------------------------------------------------------------------------

void StatsCollector::isr_enter(Index isr, std::uint32_t core_id, std::uint64_t ts_ns) {
  Core& c = core(core_id);
  Isr& i = isrs_[isr];
  if (i.entries++ != 0) {
    i.periods.add(ts_ns >= i.last_entry ? ts_ns - i.last_entry : 0, i.last_entry);
  }
  i.last_entry = ts_ns;
  if (c.open_isrs.size() >= kMaxOpen || c.untimed_isrs != 0) {
    ++c.untimed_isrs;
    return;
  }
  c.open_isrs.push_back({isr, ts_ns, 0});
  const auto nesting = static_cast<std::uint32_t>(c.open_isrs.size());
  if (nesting > i.max_nesting) {
    i.max_nesting = nesting;
    i.max_nesting_at = ts_ns;
  }
}

void StatsCollector::isr_exit(Index isr, std::uint32_t core_id, std::uint64_t ts_ns) {
  Core& c = core(core_id);
  if (c.untimed_isrs != 0) {
    --c.untimed_isrs;
    return;
  }
  // The innermost open entry of this ISR (normally the top of the stack).
  auto it = std::find_if(c.open_isrs.rbegin(), c.open_isrs.rend(), [&](const OpenIsr& o) { return o.isr == isr; });
  if (it == c.open_isrs.rend()) {
    return;
  }
  const auto pos = std::next(it).base();
  const std::uint64_t duration = ts_ns >= pos->begin ? ts_ns - pos->begin : 0;
  Isr& i = isrs_[isr];
  i.durations.add(duration, pos->begin);
  i.self_ns += duration >= pos->nested_ns ? duration - pos->nested_ns : 0;
  if (pos != c.open_isrs.begin()) {
    std::prev(pos)->nested_ns += duration;
  }
  c.open_isrs.erase(pos);
}

void StatsCollector::value(Index v, std::uint64_t ts_ns, std::int64_t val) {
  Samples<std::int64_t>& m = values_[v].samples;
  m.add(ts_ns, val);
  if (options_.time_series) {
    m.bins.add(grid_, ts_ns, static_cast<double>(val));
  }
}

void StatsCollector::counter(Index c, std::uint64_t ts_ns, double val) {
  Samples<double>& m = counters_[c].samples;
  m.add(ts_ns, val);
  if (options_.time_series) {
    m.bins.add(grid_, ts_ns, val);
  }
}

void StatsCollector::leave_state(Task& t, std::uint64_t ts_ns) {
  const std::uint64_t spent = ts_ns > t.since ? ts_ns - t.since : 0;
  t.time_in[static_cast<std::size_t>(t.state)] += spent;
  if (t.state == TaskStateKind::kRunning) {
    if (t.running_by_core.size() <= t.core) {
      t.running_by_core.resize(t.core + 1u);
    }
    t.running_by_core[t.core] += spent;
    if (options_.time_series) {
      t.load.add(grid_, t.since, ts_ns);
    }
  }
}

void StatsCollector::task_state(Index task, std::uint64_t ts_ns, TaskStateKind state, std::uint32_t core_id) {
  Task& t = tasks_[task];
  if (t.has_state) {
    leave_state(t, ts_ns);
    if (t.state == TaskStateKind::kRunning && state == TaskStateKind::kReady) {
      ++t.preemptions;  // switched out while it could still run
    }
    if (t.state == TaskStateKind::kReady && state == TaskStateKind::kRunning) {
      t.ready_latency.add(ts_ns > t.since ? ts_ns - t.since : 0, t.since);
    }
  }
  if (state == TaskStateKind::kRunning) {
    ++t.switches;
    Core& c = core(core_id);
    if (!c.scheduled) {
      c.scheduled = true;
      c.first_switch = ts_ns;
    }
  }
  t.has_state = true;
  t.state = state;
  t.core = core_id;
  t.since = ts_ns;
}

void StatsCollector::queue_fill(Index queue, std::uint64_t ts_ns, std::uint32_t fill) {
  Queue& q = queues_[queue];
  if (!q.has_fill || fill > q.high_water) {
    q.high_water = fill;
    q.high_water_at = ts_ns;
    q.has_fill = true;
  }
}

void StatsCollector::queue_op(Index queue, QueueOp op) { ++queues_[queue].ops[static_cast<std::size_t>(op)]; }

void StatsCollector::mutex_taken(Index queue, std::uint64_t ts_ns) {
  Queue& q = queues_[queue];
  mutex_released(queue, ts_ns);  // taken by another without a give in between: the hold before ends
  q.held = true;
  q.held_since = ts_ns;
  ++q.takes;
}

void StatsCollector::mutex_released(Index queue, std::uint64_t ts_ns) {
  Queue& q = queues_[queue];
  if (q.held) {
    q.holds.add(ts_ns > q.held_since ? ts_ns - q.held_since : 0, q.held_since);
    q.held = false;
  }
}

void StatsCollector::dropped(std::uint64_t ts_ns) {
  if (!seen_drop_) {
    seen_drop_ = true;
    first_drop_at_ = ts_ns;
  }
}

void StatsCollector::link_fault(std::uint32_t core_id, LinkFault fault, std::uint64_t frames, std::uint64_t ts_ns) {
  LinkFaults& f = link_[static_cast<std::size_t>(fault)];
  if (f.frames == 0) {
    f.first_at = ts_ns;
    f.first_core = core_id;
  }
  f.frames += frames;
}

void StatsCollector::metadata_overflow(std::uint32_t core_id, std::uint64_t lost, std::uint64_t ts_ns) {
  std::uint64_t& newest = metadata_lost_[core_id];
  newest = std::max(newest, lost);
  if (!seen_overflow_) {
    seen_overflow_ = true;
    first_overflow_at_ = ts_ns;
  }
}

// ---- figures --------------------------------------------------------------------------

namespace {

Figure count(std::string key, std::uint64_t n) { return {std::move(key), static_cast<double>(n), Unit::kCount, {}}; }

Figure ns(std::string key, std::uint64_t value) {
  return {std::move(key), static_cast<double>(value), Unit::kNs, {}};
}

Figure at(Figure f, std::uint64_t ts, std::string event, std::optional<std::uint64_t> end = std::nullopt) {
  f.at = Where{ts, end, std::move(event)};
  return f;
}

Figure rate(std::string key, std::uint64_t n, std::uint64_t span_ns) {
  Figure f{std::move(key), std::nullopt, Unit::kPerSecond, {}};
  if (span_ns != 0) {
    f.value = static_cast<double>(n) * 1e9 / static_cast<double>(span_ns);
  }
  return f;
}

Figure share(std::string key, std::uint64_t part, std::uint64_t whole) {
  Figure f{std::move(key), std::nullopt, Unit::kPercent, {}};
  if (whole != 0) {
    f.value = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  }
  return f;
}

/// total, min, mean, p50, p90, p99, max under `prefix` ("duration"); the
/// extremes say where they happened (`what` begins the span).
void add_durations(std::vector<Figure>& out, const std::string& prefix, const DurationSketch& d, bool with_total,
                   const std::string& what, const std::string& end_what) {
  const bool any = d.count() != 0;
  const auto maybe = [&](std::string key, std::uint64_t v) {
    Figure f = ns(prefix + "." + std::move(key), v);
    if (!any) {
      f.value.reset();
    }
    return f;
  };
  if (with_total) {
    out.push_back(ns(prefix + ".total", d.total()));
  }
  Figure min = maybe("min", d.min());
  Figure max = maybe("max", d.max());
  if (any) {
    min.at = Where{d.min_at(), d.min_at() + d.min(), what + " .. " + end_what};
    max.at = Where{d.max_at(), d.max_at() + d.max(), what + " .. " + end_what};
  }
  out.push_back(std::move(min));
  Figure mean{prefix + ".mean", std::nullopt, Unit::kNs, {}};
  if (any) {
    mean.value = d.mean();
  }
  out.push_back(std::move(mean));
  out.push_back(maybe("p50", d.percentile(50)));
  out.push_back(maybe("p90", d.percentile(90)));
  out.push_back(maybe("p99", d.percentile(99)));
  out.push_back(std::move(max));
}

std::vector<SeriesBin> load_series(LoadBins& bins, const TimeGrid& grid, std::uint64_t end_ns) {
  std::vector<SeriesBin> out;
  if (bins.empty()) {
    return out;
  }
  const std::vector<LoadBin>& b = bins.sync(grid);
  // Offsets from the origin: origin + offset could wrap near 2^64 ns.
  const std::uint64_t end = grid.since_origin(end_ns);
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::uint64_t start = grid.offset_of(i);
    if (start >= end && i != 0) {
      break;
    }
    const std::uint64_t width = std::min(grid.width(), std::max<std::uint64_t>(end - start, 1));
    const double share = 100.0 * static_cast<double>(b[i].busy_ns) / static_cast<double>(width);
    out.push_back({false, share, share, share, share});
  }
  return out;
}

std::vector<SeriesBin> value_series(ValueBins& bins, const TimeGrid& grid, std::uint64_t end_ns) {
  std::vector<SeriesBin> out;
  if (bins.empty()) {
    return out;
  }
  const std::vector<ValueBin>& b = bins.sync(grid);
  const std::uint64_t end = grid.since_origin(end_ns);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (grid.offset_of(i) > end && i != 0) {
      break;
    }
    out.push_back({!b[i].seen, b[i].min, b[i].max, b[i].first, b[i].last});
  }
  return out;
}


std::string core_list(const std::set<std::uint32_t>& cores) {
  std::string out = cores.size() == 1 ? "core" : "cores";
  char separator = ' ';
  for (const std::uint32_t c : cores) {
    out += separator;
    out += std::to_string(c);
    separator = ',';
  }
  return out;
}

}  // namespace

namespace {

/// Row names are unique within a section: a second thing of the same name
/// gets its number of occurrence.
class UniqueNames {
 public:
  std::string take(Section section, const std::string& name) {
    const auto key = std::make_pair(section, name);
    const int n = ++seen_[key];
    return n == 1 ? name : name + "#" + std::to_string(n);
  }

 private:
  std::map<std::pair<Section, std::string>, int> seen_;
};

}  // namespace

/// What building the rows shares: the trace's time and the names given out.
struct StatsCollector::Rows {
  explicit Rows(TraceStats& out) : stats(out) {}
  TraceStats& stats;
  std::uint64_t begin = 0, end = 0, span = 0;
  UniqueNames unique;
  std::vector<std::string> task_names;  // by task index, unique
};

TraceStats StatsCollector::finish(const TraceTotals& totals) {
  TraceStats stats;
  Rows rows{stats};
  rows.begin = totals.first_ts_ns;
  rows.end = std::max(totals.last_ts_ns, rows.begin);
  rows.span = rows.end - rows.begin;
  stats.begin_ns = rows.begin;
  stats.end_ns = rows.end;
  if (options_.time_series) {
    grid_.reach(rows.end);
    stats.bin_width_ns = grid_.width();
  }
  add_trace_row(rows, totals);
  add_isr_rows(rows);
  for (const Task& t : tasks_) {
    rows.task_names.push_back(rows.unique.take(Section::kTask, t.name));
  }
  add_marker_rows(rows);
  add_value_rows(rows);
  add_task_rows(rows);
  add_queue_rows(rows);
  add_schema_rows(rows);
  return stats;
}

void StatsCollector::add_trace_row(Rows& r, const TraceTotals& totals) {
  TraceStats& stats = r.stats;
  const std::uint64_t begin = r.begin, end = r.end, span = r.span;
  StatRow& trace = stats.rows.emplace_back();
  trace.section = Section::kTrace;
  trace.name = "trace";
  const Diagnostics* d = totals.diagnostics;
  const auto diag = [&](DiagnosticKind k) { return d != nullptr ? d->count(k) : 0u; };
  trace.figures.push_back(at(ns("duration", span), begin, "first event", end));
  trace.figures.push_back(count("events", totals.events));
  trace.figures.push_back(count("cores", totals.cores));
  Figure dropped_figure = count("dropped", totals.dropped_events);
  if (seen_drop_) {
    dropped_figure.at = Where{first_drop_at_, std::nullopt, "first dropped_evt_cnt reporting a loss"};
  }
  trace.figures.push_back(std::move(dropped_figure));
  trace.figures.push_back(count("decode_errors", diag(DiagnosticKind::kDecodeError)));
  trace.figures.push_back(count("truncated_end", diag(DiagnosticKind::kTruncatedEnd)));
  std::uint64_t metadata_lost = 0;
  for (const auto& [core_id, lost] : metadata_lost_) {
    metadata_lost += lost;
  }
  Figure overflow = count("metadata_overflow", metadata_lost);
  if (seen_overflow_) {
    overflow.at = Where{first_overflow_at_, std::nullopt, "metadata_overflow"};
  }
  trace.figures.push_back(std::move(overflow));
  // Link integrity: frames the link lost, corrupted (discarded) and delivered twice or late.
  const char* const link_keys[] = {"link.lost_frames", "link.corrupt_frames", "link.stale_frames"};
  for (std::size_t k = 0; k < 3; ++k) {
    Figure f = count(link_keys[k], link_[k].frames);
    if (link_[k].frames != 0) {
      f.at = Where{link_[k].first_at, std::nullopt, "first on core " + std::to_string(link_[k].first_core)};
    }
    trace.figures.push_back(std::move(f));
  }
  trace.figures.push_back(count("gaps", gaps_));
  Figure gap = ns("gap.max", max_gap_);
  if (max_gap_ != 0) {
    gap.at = Where{max_gap_at_, max_gap_at_ + max_gap_, "no event"};
  }
  trace.figures.push_back(std::move(gap));
  trace.figures.push_back(count("diagnostics", d != nullptr ? d->total() : 0u));
  for (std::size_t k = 0; k < static_cast<std::size_t>(DiagnosticKind::kCount); ++k) {
    const auto kind = static_cast<DiagnosticKind>(k);
    Figure f = count("diagnostics." + std::string{diagnostic_id(kind)}, diag(kind));
    if (d != nullptr) {
      for (const Diagnostic& kept : d->kept()) {
        if (kept.kind == kind && kept.ts_ns) {
          f.at = Where{*kept.ts_ns, std::nullopt, "first " + std::string{to_string(kind)}};
          break;
        }
      }
    }
    trace.figures.push_back(std::move(f));
  }
}

void StatsCollector::add_isr_rows(Rows& r) {
  TraceStats& stats = r.stats;
  const std::uint64_t span = r.span;
  UniqueNames& unique = r.unique;
  // One row per name: an ISR of the same name on several cores is one row.
  {
    std::map<std::string, std::vector<const Isr*>> by_name;
    std::vector<std::string> order;
    for (const Isr& i : isrs_) {
      if (by_name[i.name].empty()) {
        order.push_back(i.name);
      }
      by_name[i.name].push_back(&i);
    }
    for (const std::string& name : order) {
      DurationSketch durations, periods;
      std::uint64_t self = 0, entries = 0, open = 0;
      std::uint32_t nesting = 0;
      std::uint64_t nesting_at = 0;
      std::set<std::uint32_t> cores;
      for (const Isr* i : by_name[name]) {
        durations.merge(i->durations);
        periods.merge(i->periods);
        self += i->self_ns;
        entries += i->entries;
        if (i->max_nesting > nesting) {
          nesting = i->max_nesting;
          nesting_at = i->max_nesting_at;
        }
        cores.insert(i->core);
      }
      open = entries - durations.count();
      StatRow& row = stats.rows.emplace_back();
      row.section = Section::kIsr;
      row.name = unique.take(Section::kIsr, name);
      row.prefix = "isr." + row.name;
      row.detail = core_list(cores);
      const std::string where = cores.size() == 1 ? " on core " + std::to_string(*cores.begin()) : "";
      row.figures.push_back(count("count", durations.count()));
      row.figures.push_back(rate("rate", durations.count(), span));
      add_durations(row.figures, "duration", durations, true, "isr_enter" + where, "isr_exit");
      // From one entry to the next on the same core: min, mean and max.
      std::vector<Figure> period;
      add_durations(period, "period", periods, false, "isr_enter" + where, "next isr_enter");
      for (Figure& f : period) {
        if (f.key == "period.min" || f.key == "period.mean" || f.key == "period.max") {
          row.figures.push_back(std::move(f));
        }
      }
      Figure nest = count("max_nesting", nesting);
      if (nesting != 0) {
        nest.at = Where{nesting_at, std::nullopt, "isr_enter" + where};
      }
      row.figures.push_back(std::move(nest));
      row.figures.push_back(share("cpu", self, span * cores.size()));
      row.figures.push_back(count("open", open));
      row.histogram = durations.buckets();
    }
  }
}

StatRow& StatsCollector::add_marker_row(Rows& r, Section section, Index task, const std::string& name) {
  StatRow& row = r.stats.rows.emplace_back();
  row.section = section;
  const std::string word{section_word(section)};
  if (task == kNone) {
    row.name = r.unique.take(section, name);
    row.prefix = word + "." + row.name;
  } else {
    const std::string& task_name = r.task_names[task];
    row.name = r.unique.take(section, task_name + ": " + name);
    row.prefix = "task." + task_name + "." + word + "." + row.name.substr(task_name.size() + 2);
    row.detail = "task " + task_name;
  }
  return row;
}

void StatsCollector::add_marker_rows(Rows& r) {
  const std::uint64_t span = r.span;
  // Global markers first, then task-local ones.
  for (int local = 0; local < 2; ++local) {
    for (Span& s : markers_) {
      if ((s.task != kNone) != (local == 1)) {
        continue;
      }
      StatRow& row = add_marker_row(r, Section::kMarker, s.task, s.name);
      row.figures.push_back(count("count", s.durations.count()));
      row.figures.push_back(rate("rate", s.durations.count(), span));
      add_durations(row.figures, "duration", s.durations, true, "evtmarker_begin", "evtmarker_end");
      row.figures.push_back(count("open", s.open.size() + s.untimed_depth));
      Figure instants = count("instants", s.instants);
      if (s.instants != 0) {
        instants.at = Where{s.first_instant, std::nullopt, "first evtmarker"};
      }
      row.figures.push_back(std::move(instants));
      row.figures.push_back(rate("instant_rate", s.instants, span));
      row.histogram = s.durations.buckets();
    }
  }
}

void StatsCollector::add_value_rows(Rows& r) {
  const std::uint64_t end = r.end;
  for (int local = 0; local < 2; ++local) {
    for (Value& v : values_) {
      if ((v.task != kNone) != (local == 1)) {
        continue;
      }
      StatRow& row = add_marker_row(r, Section::kValue, v.task, v.name);
      add_sample_figures(row, v.samples, "valmarker", end);
    }
  }
}

template <class T>
void StatsCollector::add_sample_figures(StatRow& row, Samples<T>& m, const char* what, std::uint64_t end) {
  const auto val = [&](std::string key, T x, std::uint64_t ts) {
    Figure f{std::move(key), static_cast<double>(x), Unit::kValue, Where{ts, std::nullopt, what}};
    if (m.count == 0) {
      f.value.reset();
      f.at.reset();
    }
    return f;
  };
  row.figures.push_back(count("count", m.count));
  row.figures.push_back(val("min", m.min, m.min_at));
  row.figures.push_back(val("max", m.max, m.max_at));
  Figure mean{"mean", std::nullopt, Unit::kValue, {}};
  if (m.count != 0) {
    mean.value = m.sum / static_cast<double>(m.count);
  }
  row.figures.push_back(std::move(mean));
  row.figures.push_back(val("first", m.first, m.first_at));
  row.figures.push_back(val("last", m.last, m.last_at));
  if (options_.time_series) {
    row.series = value_series(m.bins, grid_, end);
  }
}

void StatsCollector::add_schema_rows(Rows& r) {
  const std::uint64_t span = r.span;
  for (SchemaSpan& sp : schema_spans_) {
    StatRow& row = r.stats.rows.emplace_back();
    row.section = Section::kSpan;
    row.name = r.unique.take(Section::kSpan, sp.name);
    row.prefix = "span." + row.name;
    row.figures.push_back(count("count", sp.durations.count()));
    row.figures.push_back(rate("rate", sp.durations.count(), span));
    add_durations(row.figures, "duration", sp.durations, true, "begin", "end");
    row.figures.push_back(count("open", sp.open));
    row.histogram = sp.durations.buckets();
  }
  for (SchemaEvent& e : schema_events_) {
    StatRow& row = r.stats.rows.emplace_back();
    row.section = Section::kEvent;
    row.name = r.unique.take(Section::kEvent, e.name);
    row.prefix = "event." + row.name;
    Figure n = count("count", e.count);
    if (e.count != 0) {
      n.at = Where{e.first_at, std::nullopt, "first " + e.name};
    }
    row.figures.push_back(std::move(n));
    row.figures.push_back(rate("rate", e.count, span));
  }
  for (Counter& c : counters_) {
    StatRow& row = r.stats.rows.emplace_back();
    row.section = Section::kCounter;
    row.name = r.unique.take(Section::kCounter, c.name);
    row.prefix = "counter." + row.name;
    add_sample_figures(row, c.samples, "sample", r.end);
  }
}

void StatsCollector::add_task_rows(Rows& r) {
  TraceStats& stats = r.stats;
  const std::uint64_t end = r.end;
  // Each core's time from its first task switch to the end.
  std::vector<std::uint64_t> window(cores_.size(), 0);  // from the first task switch to the end
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    if (cores_[c].scheduled) {
      window[c] = end > cores_[c].first_switch ? end - cores_[c].first_switch : 0;
    }
  }
  for (Task& t : tasks_) {  // close the states still open
    if (t.has_state) {
      leave_state(t, end);
      t.since = end;
    }
  }

  // The tasks, then the cores with their load.
  std::uint64_t all_windows = 0;
  for (const std::uint64_t w : window) {
    all_windows += w;
  }
  std::vector<std::uint64_t> idle_by_core(cores_.size(), 0);
  for (Task& t : tasks_) {
    StatRow& row = stats.rows.emplace_back();
    row.section = Section::kTask;
    row.name = r.task_names[static_cast<std::size_t>(&t - tasks_.data())];
    row.prefix = "task." + row.name;
    row.detail = t.idle ? "idle task" : "";
    const auto in = [&](TaskStateKind k) { return t.time_in[static_cast<std::size_t>(k)]; };
    std::uint64_t running = 0;
    for (std::size_t c = 0; c < t.running_by_core.size(); ++c) {
      running += t.running_by_core[c];
      if (t.idle) {
        idle_by_core[c] += t.running_by_core[c];
      }
    }
    row.figures.push_back(share("cpu", running, all_windows));
    for (std::size_t c = 0; c < cores_.size(); ++c) {
      if (cores_[c].scheduled) {
        row.figures.push_back(
            share("core" + std::to_string(c) + ".cpu", c < t.running_by_core.size() ? t.running_by_core[c] : 0, window[c]));
      }
    }
    row.figures.push_back(ns("running", in(TaskStateKind::kRunning)));
    row.figures.push_back(ns("ready", in(TaskStateKind::kReady)));
    row.figures.push_back(ns("blocked", in(TaskStateKind::kBlocked)));
    row.figures.push_back(ns("suspended", in(TaskStateKind::kSuspended)));
    row.figures.push_back(count("switches", t.switches));
    row.figures.push_back(count("preemptions", t.preemptions));
    add_durations(row.figures, "latency", t.ready_latency, false, "ready", "task_switched_in");
    if (options_.time_series) {
      row.series = load_series(t.load, grid_, end);
    }
  }
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    if (!cores_[c].scheduled) {
      continue;
    }
    StatRow& row = stats.rows.emplace_back();
    row.section = Section::kCore;
    row.name = std::to_string(c);
    row.prefix = "core." + row.name;
    row.figures.push_back(share("load", window[c] - std::min(window[c], idle_by_core[c]), window[c]));
    row.figures.push_back(share("idle", std::min(window[c], idle_by_core[c]), window[c]));
    row.figures.push_back(at(ns("scheduled", window[c]), cores_[c].first_switch, "first task_switched_in", end));
  }
}

void StatsCollector::add_queue_rows(Rows& r) {
  TraceStats& stats = r.stats;
  UniqueNames& unique = r.unique;
  for (Queue& q : queues_) {
    const auto op = [&](QueueOp o) { return q.ops[static_cast<std::size_t>(o)]; };
    const std::uint64_t blocked =
        op(QueueOp::kBlockedSend) + op(QueueOp::kBlockedReceive) + op(QueueOp::kBlockedPeek);
    StatRow& row = stats.rows.emplace_back();
    if (q.mutex) {
      const bool held = q.held;  // a hold still open at the end is not timed: see held_at_end
      row.section = Section::kMutex;
      row.name = unique.take(Section::kMutex, q.name);
      row.prefix = "mutex." + row.name;
      row.figures.push_back(count("takes", q.takes));
      row.figures.push_back(count("blocked", blocked));
      row.figures.push_back(count("held_at_end", held ? 1u : 0u));
      add_durations(row.figures, "hold", q.holds, true, "taken", "given");
      row.histogram = q.holds.buckets();
      continue;
    }
    row.section = Section::kQueue;
    row.name = unique.take(Section::kQueue, q.name);
    row.prefix = "queue." + row.name;
    Figure high = count("high_water", q.high_water);
    if (q.has_fill) {
      high.at = Where{q.high_water_at, std::nullopt, "fill reached " + std::to_string(q.high_water)};
    }
    row.figures.push_back(std::move(high));
    row.figures.push_back(count("sends", op(QueueOp::kSend)));
    row.figures.push_back(count("receives", op(QueueOp::kReceive)));
    row.figures.push_back(count("resets", op(QueueOp::kReset)));
    row.figures.push_back(count("blocked_sends", op(QueueOp::kBlockedSend)));
    row.figures.push_back(count("blocked_receives", op(QueueOp::kBlockedReceive)));
    row.figures.push_back(count("blocked", blocked));
  }
}

}  // namespace tband
