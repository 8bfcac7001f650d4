#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <set>
#include <vector>

#include "common/markup.hpp"
#include "stats/stats_format.hpp"

namespace tband {

namespace {

constexpr int kWidth = 1200;    // of every chart's viewBox; drawn at the page's full width
constexpr int kLeft = 72;       // room for the y axis labels
constexpr int kRight = 16;
constexpr int kTop = 10;
constexpr int kBottom = 30;     // room for the x axis labels
constexpr int kHistogramBars = 60;
constexpr int kTimeTicks = 8;   // about this many labelled ticks on a time axis
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& text) { return escape_markup(text); }

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

/// A figure's value exactly as `tband stats --json` gives it, for the page's
/// data attributes.
std::string exact(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string axis_text(double x, double y, const std::string& text, const char* anchor) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\">" + escape(text) +
         "</text>";
}

/// Element ids from row names: letters, digits and dashes only, each one
/// unique on the page.
class Ids {
 public:
  std::string make(const std::string& kind, const std::string& name) {
    std::string id = kind;
    bool dash = true;
    for (const char ch : name) {
      const auto c = static_cast<unsigned char>(ch);
      if (std::isalnum(c) != 0) {
        id += static_cast<char>(std::tolower(c));
        dash = false;
      } else if (!dash) {
        id += '-';
        dash = true;
      }
    }
    while (!id.empty() && id.back() == '-') {
      id.pop_back();
    }
    std::string unique = id;
    for (int n = 2; !used_.insert(unique).second; ++n) {
      unique = id + "-" + std::to_string(n);
    }
    return unique;
  }

 private:
  std::set<std::string> used_;
};

/// The labelled ticks of a time axis from begin to end (trace times, ns):
/// at round steps (1, 2 or 5 times a power of ten) in the step's unit.
struct TimeTick {
  double fraction;  // 0..1 along the axis
  std::string label;
};

std::vector<TimeTick> time_ticks(std::uint64_t begin_ns, std::uint64_t end_ns) {
  const double span = static_cast<double>(std::max<std::uint64_t>(end_ns - begin_ns, 1));
  double step = 1;
  for (double decade = 1; step * kTimeTicks < span; decade *= 10) {
    for (const double m : {1.0, 2.0, 5.0}) {
      step = m * decade;
      if (step * kTimeTicks >= span) {
        break;
      }
    }
  }
  const char* unit = "ns";
  double divisor = 1;
  if (step >= 1e9) {
    unit = "s", divisor = 1e9;
  } else if (step >= 1e6) {
    unit = "ms", divisor = 1e6;
  } else if (step >= 1e3) {
    unit = "us", divisor = 1e3;
  }
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step / divisor) - 1e-9)));
  std::vector<TimeTick> ticks;
  const double begin = static_cast<double>(begin_ns);
  for (double t = std::ceil(begin / step) * step; t <= begin + span; t += step) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, t / divisor, unit);
    ticks.push_back({(t - begin) / span, text});
    if (ticks.size() > 4 * kTimeTicks) {
      break;  // rounding at huge times: never loop on
    }
  }
  return ticks;
}

/// The plot area's frame, and an svg element of the given class and height.
struct Chart {
  int height;
  [[nodiscard]] double plot_w() const { return kWidth - kLeft - kRight; }
  [[nodiscard]] double plot_h() const { return height - kTop - kBottom; }
  [[nodiscard]] double x(double fraction) const { return kLeft + fraction * plot_w(); }
  [[nodiscard]] double y(double fraction) const { return kTop + (1.0 - fraction) * plot_h(); }

  [[nodiscard]] std::string open(const std::string& cls, const std::string& row, const std::string& label) const {
    return "<svg class=\"chart " + cls + "\" data-row=\"" + escape(row) + "\" role=\"img\" aria-label=\"" +
           escape(label) + "\" width=\"100%\" viewBox=\"0 0 " + std::to_string(kWidth) + " " +
           std::to_string(height) + "\" xmlns=\"http://www.w3.org/2000/svg\">" + "<rect class=\"frame\" x=\"" +
           num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(plot_w()) + "\" height=\"" + num(plot_h()) +
           "\"/>";
  }
  /// Labels at both ends of both axes.
  [[nodiscard]] std::string axes(const std::string& x0, const std::string& x1, const std::string& y0,
                                 const std::string& y1) const {
    return axis_text(kLeft, height - 8.0, x0, "start") + axis_text(kLeft + plot_w(), height - 8.0, x1, "end") +
           y_axis(y0, y1);
  }
  [[nodiscard]] std::string y_axis(const std::string& y0, const std::string& y1) const {
    return axis_text(kLeft - 6.0, y(0) + 4, y0, "end") + axis_text(kLeft - 6.0, y(1) + 8, y1, "end");
  }
  /// A time x axis: grid lines and labels at round trace times.
  [[nodiscard]] std::string time_axis(const TraceStats& stats) const {
    std::string out = "<g class=\"time-axis\">";
    for (const TimeTick& tick : time_ticks(stats.begin_ns, stats.end_ns)) {
      const double px = x(tick.fraction);
      out += "<line class=\"grid\" x1=\"" + num(px) + "\" x2=\"" + num(px) + "\" y1=\"" + num(y(0)) + "\" y2=\"" +
             num(y(1)) + "\"/>" + "<line class=\"tick\" x1=\"" + num(px) + "\" x2=\"" + num(px) + "\" y1=\"" +
             num(y(0)) + "\" y2=\"" + num(y(0) + 4) + "\"/>";
      const char* anchor = tick.fraction < 0.03 ? "start" : tick.fraction > 0.97 ? "end" : "middle";
      out += axis_text(px, height - 12.0, tick.label, anchor);
    }
    return out + axis_text(kLeft + plot_w(), height - 0.5, "trace time", "end") + "</g>";
  }
};

/// A histogram of a row's durations: kHistogramBars bars between the
/// smallest and largest value, on a log scale when they lie far apart;
/// dashed lines at the median and the 99th percentile.
std::string histogram(const StatRow& row, const std::string& figure_prefix) {
  const std::vector<DurationSketch::Bucket>& buckets = row.histogram;
  if (buckets.empty()) {
    return "";
  }
  const double lo = static_cast<double>(buckets.front().lo);
  const double hi = static_cast<double>(buckets.back().hi) + 1;
  const bool log_scale = lo > 0 && hi / lo > 20;
  const auto position = [&](double v) {  // 0..1 along the x axis
    if (hi <= lo) {
      return 0.0;
    }
    return log_scale ? std::log(v / lo) / std::log(hi / lo) : (v - lo) / (hi - lo);
  };
  std::vector<std::uint64_t> bars(kHistogramBars, 0);
  for (const DurationSketch::Bucket& b : buckets) {
    const double mid = (static_cast<double>(b.lo) + static_cast<double>(b.hi) + 1) / 2;
    const auto i = static_cast<std::size_t>(std::clamp(position(mid) * kHistogramBars, 0.0, kHistogramBars - 1.0));
    bars[i] += b.count;
  }
  const std::uint64_t tallest = *std::max_element(bars.begin(), bars.end());
  const Chart chart{150};
  std::string svg = chart.open("histogram", row.prefix, "durations of " + row.name);
  const double bar_w = chart.plot_w() / kHistogramBars;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    if (bars[i] == 0) {
      continue;
    }
    const double from = log_scale ? lo * std::pow(hi / lo, static_cast<double>(i) / kHistogramBars)
                                  : lo + (hi - lo) * static_cast<double>(i) / kHistogramBars;
    const double to = log_scale ? lo * std::pow(hi / lo, static_cast<double>(i + 1) / kHistogramBars)
                                : lo + (hi - lo) * static_cast<double>(i + 1) / kHistogramBars;
    const double h = chart.plot_h() * static_cast<double>(bars[i]) / static_cast<double>(tallest);
    svg += "<rect class=\"bar\" x=\"" + num(chart.x(static_cast<double>(i) / kHistogramBars) + 0.5) + "\" y=\"" +
           num(chart.y(0) - h) + "\" width=\"" + num(std::max(bar_w - 1, 1.0)) + "\" height=\"" + num(h) +
           "\"><title>" + escape(format_value(from, Unit::kNs) + " - " + format_value(to, Unit::kNs) + ": " +
                                 std::to_string(bars[i])) +
           "</title></rect>";
  }
  double label_y = chart.y(1) + 10;
  for (const char* p : {"p50", "p99"}) {
    const Figure* f = row.figure(figure_prefix + "." + p);
    if (f == nullptr || !f->value) {
      continue;
    }
    const double px = chart.x(std::clamp(position(*f->value + 0.5), 0.0, 1.0));
    svg += "<line class=\"percentile\" x1=\"" + num(px) + "\" x2=\"" + num(px) + "\" y1=\"" + num(chart.y(0)) +
           "\" y2=\"" + num(chart.y(1)) + "\"/>";
    // The label beside its line, on the inner side near the right edge.
    const bool near_right = px > kLeft + chart.plot_w() - 40;
    svg += axis_text(near_right ? px - 3 : px + 3, label_y, p, near_right ? "end" : "start");
    label_y += 12;  // the two may fall on one line
  }
  svg += chart.axes(format_value(lo, Unit::kNs), format_value(hi - 1, Unit::kNs) + (log_scale ? " (log)" : ""), "0",
                    std::to_string(tallest));
  return svg + "</svg>";
}

/// One line per task: its share of a core over time (the idle task dashed).
std::string cpu_load(const TraceStats& stats) {
  std::vector<const StatRow*> tasks;
  for (const StatRow& row : stats.rows) {
    if (row.section == Section::kTask && !row.series.empty()) {
      tasks.push_back(&row);
    }
  }
  if (tasks.empty() || stats.bin_width_ns == 0) {
    return "";
  }
  const double span = static_cast<double>(std::max<std::uint64_t>(stats.end_ns - stats.begin_ns, 1));
  const Chart chart{260};
  std::string svg = chart.open("cpu-load", "task", "CPU load per task over time") + chart.time_axis(stats);
  std::string legend = "<ul class=\"legend\">";
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const char* color = kPalette[t % std::size(kPalette)];
    const bool idle = tasks[t]->detail == "idle task";
    std::string points;  // a step per time bin
    for (std::size_t i = 0; i < tasks[t]->series.size(); ++i) {
      const double from = static_cast<double>(i) * static_cast<double>(stats.bin_width_ns) / span;
      const double to = static_cast<double>(i + 1) * static_cast<double>(stats.bin_width_ns) / span;
      const std::string y = num(chart.y(std::clamp(tasks[t]->series[i].max / 100.0, 0.0, 1.0)));
      points += num(chart.x(std::min(from, 1.0))) + "," + y + " " + num(chart.x(std::min(to, 1.0))) + "," + y + " ";
    }
    svg += "<polyline class=\"load\" data-task=\"" + escape(tasks[t]->name) + "\" fill=\"none\" stroke=\"" + color +
           "\"" + (idle ? " stroke-dasharray=\"4 3\"" : "") + " points=\"" + points + "\"><title>" +
           escape(tasks[t]->name) + "</title></polyline>";
    legend += "<li><span class=\"swatch\" style=\"background:" + std::string{color} + "\"></span>" +
              escape(tasks[t]->name) + (idle ? " (idle)" : "") + "</li>";
  }
  svg += chart.y_axis("0 %", "100 %") + "</svg>";
  return svg + legend + "</ul><p class=\"note\">Share of one core per time bin of " +
         escape(format_value(static_cast<double>(stats.bin_width_ns), Unit::kNs)) +
         "; time in interrupts counts to the task they interrupted.</p>";
}

/// A value marker or counter over time as the step function it is: the
/// value holds until the next one. Per time bin a vertical stroke from its
/// first value over its range to its last, then a level line to the next bin
/// that has a value (and to the end of the trace after the last).
std::string value_chart(const StatRow& row, const TraceStats& stats) {
  double lo = 0, hi = 0;
  bool any = false;
  for (const SeriesBin& b : row.series) {
    if (!b.empty) {
      lo = any ? std::min(lo, b.min) : b.min;
      hi = any ? std::max(hi, b.max) : b.max;
      any = true;
    }
  }
  if (!any || stats.bin_width_ns == 0) {
    return "";
  }
  if (hi == lo) {
    lo -= 1;
    hi += 1;
  }
  const double span = static_cast<double>(std::max<std::uint64_t>(stats.end_ns - stats.begin_ns, 1));
  const Chart chart{160};
  const auto level = [&](double v) { return num(chart.y((v - lo) / (hi - lo))); };
  std::string svg = chart.open("value-series", row.prefix, row.name + " over time") + chart.time_axis(stats);
  std::string d;
  for (std::size_t i = 0; i < row.series.size(); ++i) {
    const SeriesBin& b = row.series[i];
    if (b.empty) {
      continue;
    }
    const std::string x =
        num(chart.x(std::min(static_cast<double>(i) * static_cast<double>(stats.bin_width_ns) / span, 1.0)));
    d += d.empty() ? "M" + x + "," + level(b.first) : "H" + x + "V" + level(b.first);
    if (b.min != b.max) {
      d += "V" + level(b.max) + "V" + level(b.min) + "V" + level(b.last);
    } else if (b.last != b.first) {
      d += "V" + level(b.last);
    }
  }
  d += "H" + num(chart.x(1));
  svg += "<path class=\"step\" fill=\"none\" d=\"" + d + "\"/>";
  svg += chart.y_axis(format_value(lo, Unit::kValue), format_value(hi, Unit::kValue));
  return svg + "</svg>";
}

std::string html_table(const StatsTable& table) {
  std::string out = "<div class=\"scroll\"><table><thead><tr>";
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    out += std::string{i < table.right.size() && table.right[i] ? "<th class=\"num\">" : "<th>"} +
           escape(table.header[i]) + "</th>";
  }
  out += "</tr></thead><tbody>";
  for (const auto& r : table.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < r.size(); ++i) {
      out += std::string{i < table.right.size() && table.right[i] ? "<td class=\"num\">" : "<td>"} + escape(r[i]) +
             "</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

/// A heading with its own anchor link, and a link back to the contents.
std::string heading(const char* tag, const std::string& id, const std::string& inner) {
  return std::string{"<"} + tag + "><a class=\"anchor\" href=\"#" + id + "\">" + inner + "</a>" +
         " <a class=\"up\" href=\"#toc\" title=\"back to the contents\">&#8593;</a></" + tag + ">";
}

struct TocEntry {
  std::string id;
  std::string text;
  std::vector<TocEntry> children;
};

std::string toc(const std::vector<TocEntry>& entries) {
  std::string out = "<nav id=\"toc\"><h2>Contents</h2><ul>";
  for (const TocEntry& e : entries) {
    out += "<li><a href=\"#" + e.id + "\">" + escape(e.text) + "</a>";
    if (!e.children.empty()) {
      out += "<ul>";
      for (const TocEntry& c : e.children) {
        out += "<li><a href=\"#" + c.id + "\">" + escape(c.text) + "</a></li>";
      }
      out += "</ul>";
    }
    out += "</li>";
  }
  return out + "</ul></nav>\n";
}

/// The row of `section` with the largest `key`; idle tasks left out.
const StatRow* worst(const TraceStats& stats, Section section, const char* key, const Figure** figure) {
  const StatRow* best = nullptr;
  for (const StatRow& row : stats.rows) {
    const Figure* f = row.section == section && row.detail != "idle task" ? row.figure(key) : nullptr;
    if (f != nullptr && f->value && (best == nullptr || *f->value > *(*figure)->value)) {
      best = &row;
      *figure = f;
    }
  }
  return best;
}

/// A summary line: what, its value (with the figure's full name and exact
/// value as data attributes, as `tband stats --json` names them), a remark.
std::string summary_line(const std::string& what, const std::string& figure_name, const Figure* f,
                         const std::string& remark) {
  const bool bad = figure_name.find('.') == std::string::npos && f->value && *f->value > 0 &&
                   figure_name != "gap.max";
  return std::string{"<tr"} + (bad ? " class=\"bad\"" : "") + "><th>" + what + "</th><td class=\"num\" data-figure=\"" +
         escape(figure_name) + "\"" + (f->value ? " data-value=\"" + exact(*f->value) + "\"" : "") + ">" +
         escape(format_value(f->value, f->unit)) + "</td><td>" + remark + "</td></tr>";
}

std::string summary(const TraceStats& stats, const std::string& task_link,
                    const std::vector<std::pair<const StatRow*, std::string>>& figure_ids) {
  const StatRow& trace = stats.trace_row();
  const auto link_of = [&](const StatRow* row) {
    for (const auto& [r, id] : figure_ids) {
      if (r == row) {
        return "#" + id;
      }
    }
    return std::string{"#tables"};
  };
  std::string health;
  bool healthy = true;
  for (const auto& [key, what] : {std::pair{"dropped", "dropped events"}, {"decode_errors", "decode errors"},
                                  {"diagnostics", "diagnostics"}, {"gaps", "gaps"}}) {
    const Figure* f = trace.figure(key);
    if (f == nullptr) {
      continue;
    }
    healthy = healthy && (!f->value || *f->value == 0);
    std::string remark;
    if (std::string_view{key} == "gaps") {
      if (const Figure* g = trace.figure("gap.max"); g != nullptr && g->value) {
        remark = "longest time without an event " + escape(format_value(g->value, g->unit));
      }
    } else if (std::string_view{key} == "diagnostics" && f->value && *f->value > 0) {
      remark = "<a href=\"#diagnostics\">listed below</a>";
    }
    health += summary_line(what, key, f, remark);
  }
  std::string worst_rows;
  for (const auto& [section, what] : {std::pair{Section::kIsr, "worst ISR by p99"},
                                      {Section::kMarker, "worst marker by p99"}, {Section::kSpan, "worst span by p99"}}) {
    const Figure* f = nullptr;
    if (const StatRow* row = worst(stats, section, "duration.p99", &f); row != nullptr) {
      worst_rows += summary_line(what, row->prefix + ".duration.p99", f,
                                 "<a href=\"" + link_of(row) + "\">" + escape(row->name) + "</a>");
    }
  }
  const Figure* load = nullptr;
  if (const StatRow* row = worst(stats, Section::kTask, "cpu", &load); row != nullptr) {
    worst_rows += summary_line("busiest task by CPU load", row->prefix + ".cpu", load,
                               "<a href=\"#" + task_link + "\">" + escape(row->name) + "</a>");
  } else {
    worst_rows += "<tr><th>busiest task by CPU load</th><td class=\"num\">-</td><td>no tasks in this trace</td></tr>";
  }
  return "<section id=\"summary\" class=\"" + std::string{healthy ? "healthy" : "unhealthy"} + "\">" +
         heading("h2", "summary", std::string{"Summary: "} + (healthy ? "healthy" : "look at the health figures")) +
         "<div class=\"scroll\"><table class=\"summary\"><tbody>" + health + worst_rows + "</tbody></table></div>" +
         "</section>\n";
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; overflow-wrap: anywhere; } h2 { font-size: 17px; margin-top: 28px; }
h3 { font-size: 14px; margin: 14px 0 4px; }
h2 a.anchor, h3 a.anchor { color: inherit; text-decoration: none; } a.up { font-size: 12px; text-decoration: none; }
figure { margin: 0 0 10px; }
svg.chart { display: block; width: 100%; height: auto; font-size: 12px; }
svg .frame { fill: #fafafa; stroke: #ccc; } svg .grid { stroke: #e8e8e8; } svg .tick { stroke: #999; }
svg .bar { fill: #4c78a8; } svg .step { stroke: #2f7d32; stroke-width: 1.5; }
svg .percentile { stroke: #e45756; stroke-dasharray: 3 3; }
nav#toc { background: #f6f8fa; border: 1px solid #e1e4e8; padding: 4px 14px; }
nav#toc h2 { font-size: 14px; margin: 6px 0; } nav#toc ul { margin: 2px 0; padding-left: 18px; }
nav#toc > ul > li > ul { display: flex; flex-wrap: wrap; gap: 2px 14px; padding-left: 0; list-style: none; }
#summary { border: 1px solid #d0d7de; border-left: 6px solid #2ca02c; padding: 0 14px 6px; margin: 14px 0; }
#summary.unhealthy { border-left-color: #d62728; } #summary h2 { margin-top: 10px; }
#summary tr.bad td { color: #b00020; font-weight: 600; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 12px; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 6px 0 14px; font-size: 12px; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 8px; text-align: left; white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #666; font-size: 12px; } pre { background: #f6f6f6; padding: 8px; overflow-x: auto; }
)";

}  // namespace

std::string format_html_report(const TraceStats& stats, const ReportInfo& info) {
  Ids ids;
  for (const char* fixed : {"toc", "summary", "diagnostics", "durations", "cpu-load", "values", "tables"}) {
    ids.make(fixed, "");
  }
  std::vector<TocEntry> entries{{"summary", "Summary", {}}};
  std::vector<std::pair<const StatRow*, std::string>> figure_ids;  // for the summary's links

  std::string histograms;
  TocEntry durations{"durations", "Durations", {}};
  for (const StatRow& row : stats.rows) {
    const char* prefix = row.section == Section::kMutex ? "hold" : "duration";
    const std::string svg = histogram(row, prefix);
    if (!svg.empty()) {
      const Figure* n = row.figure(row.section == Section::kMutex ? "takes" : "count");
      const std::string title = std::string{section_word(row.section)} + " " + row.name;
      const std::string id = ids.make("fig-", row.prefix);
      figure_ids.emplace_back(&row, id);
      durations.children.push_back({id, title, {}});
      histograms += "<figure id=\"" + id + "\">" +
                    heading("h3", id, escape(title) +
                                          (n != nullptr ? " <span class=\"note\">(" + format_value(n->value, n->unit) +
                                                              ")</span>"
                                                        : "")) +
                    svg + "</figure>\n";
    }
  }
  std::string body;
  if (!histograms.empty()) {
    entries.push_back(std::move(durations));
    body += "<section id=\"durations\">" + heading("h2", "durations", "Durations") + "\n" + histograms +
            "</section>\n";
  }
  if (const std::string load = cpu_load(stats); !load.empty()) {
    entries.push_back({"cpu-load", "CPU load per task", {{"fig-cpu-load", "over time, per task", {}}}});
    body += "<section id=\"cpu-load\">" + heading("h2", "cpu-load", "CPU load per task") + "\n<figure id=\"fig-cpu-load\">" +
            load + "</figure></section>\n";
  }
  std::string values;
  TocEntry value_entry{"values", "Value markers and counters", {}};
  for (const StatRow& row : stats.rows) {
    if (row.section == Section::kValue || row.section == Section::kCounter) {
      if (const std::string svg = value_chart(row, stats); !svg.empty()) {
        const std::string id = ids.make("fig-", row.prefix);
        value_entry.children.push_back({id, row.name, {}});
        values += "<figure id=\"" + id + "\">" + heading("h3", id, escape(row.name)) + svg + "</figure>\n";
      }
    }
  }
  if (!values.empty()) {
    entries.push_back(std::move(value_entry));
    body += "<section id=\"values\">" + heading("h2", "values", "Value markers and counters over time") + "\n" +
            values + "</section>\n";
  }
  TocEntry table_entry{"tables", "Statistics", {}};
  std::string tables;
  for (const StatsTable& table : stats_tables(stats)) {
    const std::string id = ids.make("table-", table.title);
    table_entry.children.push_back({id, table.title, {}});
    tables += "<div id=\"" + id + "\">" + heading("h3", id, escape(table.title)) + html_table(table) + "</div>\n";
  }
  entries.push_back(std::move(table_entry));
  body += "<section id=\"tables\">" + heading("h2", "tables", "Statistics") + "\n" + tables + "</section>\n";

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
                     escape(info.title) + "</title><style>" + kStyle + "</style></head><body>\n";
  html += "<h1>" + escape(info.title) + "</h1>\n<p class=\"note\">" + escape(info.inputs) + ": " +
          escape(format_value(static_cast<double>(stats.end_ns - stats.begin_ns), Unit::kNs)) + " from " +
          escape(format_time(stats.begin_ns)) + "; times are trace times, as Perfetto shows them.</p>\n";
  html += summary(stats, "fig-cpu-load", figure_ids);
  if (!info.diagnostics_summary.empty()) {
    entries.insert(entries.begin() + 1, {"diagnostics", "Diagnostics", {}});
  }
  html += toc(entries);
  if (!info.diagnostics_summary.empty()) {
    html += "<section id=\"diagnostics\">" + heading("h2", "diagnostics", "Diagnostics") +
            "<pre class=\"diagnostics\">" + escape(info.diagnostics_summary) + "</pre></section>\n";
  }
  return html + body + "</body></html>\n";
}

}  // namespace tband
