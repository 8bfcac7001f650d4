#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/markup.hpp"
#include "stats/stats_format.hpp"

namespace tband {

namespace {

constexpr int kWidth = 760;     // of every chart, in px
constexpr int kLeft = 64;       // room for the y axis labels
constexpr int kRight = 12;
constexpr int kTop = 10;
constexpr int kBottom = 28;     // room for the x axis labels
constexpr int kHistogramBars = 40;
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& text) { return escape_markup(text); }

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

std::string axis_text(double x, double y, const std::string& text, const char* anchor) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\">" + escape(text) +
         "</text>";
}

/// The plot area's frame, and an svg element of the given class and height.
struct Chart {
  int height;
  [[nodiscard]] double plot_w() const { return kWidth - kLeft - kRight; }
  [[nodiscard]] double plot_h() const { return height - kTop - kBottom; }
  [[nodiscard]] double x(double fraction) const { return kLeft + fraction * plot_w(); }
  [[nodiscard]] double y(double fraction) const { return kTop + (1.0 - fraction) * plot_h(); }

  [[nodiscard]] std::string open(const std::string& cls, const std::string& row, const std::string& label) const {
    return "<svg class=\"" + cls + "\" data-row=\"" + escape(row) + "\" role=\"img\" aria-label=\"" +
           escape(label) + "\" width=\"" + std::to_string(kWidth) + "\" height=\"" + std::to_string(height) +
           "\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(height) +
           "\" xmlns=\"http://www.w3.org/2000/svg\">" + "<rect class=\"frame\" x=\"" + num(kLeft) + "\" y=\"" +
           num(kTop) + "\" width=\"" + num(plot_w()) + "\" height=\"" + num(plot_h()) + "\"/>";
  }
  /// Labels at both ends of both axes.
  [[nodiscard]] std::string axes(const std::string& x0, const std::string& x1, const std::string& y0,
                                 const std::string& y1) const {
    return axis_text(kLeft, height - 8.0, x0, "start") + axis_text(kLeft + plot_w(), height - 8.0, x1, "end") +
           axis_text(kLeft - 6.0, y(0) + 4, y0, "end") + axis_text(kLeft - 6.0, y(1) + 8, y1, "end");
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

std::string time_axis_end(const TraceStats& stats) {
  std::string text = "+";
  text += format_value(static_cast<double>(stats.end_ns - stats.begin_ns), Unit::kNs);
  return text;
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
  const Chart chart{240};
  std::string svg = chart.open("cpu-load", "task", "CPU load per task over time");
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
  svg += chart.axes("0", time_axis_end(stats), "0 %", "100 %") + "</svg>";
  return svg + legend + "</ul><p class=\"note\">Share of one core per time bin of " +
         escape(format_value(static_cast<double>(stats.bin_width_ns), Unit::kNs)) +
         "; time in interrupts counts to the task they interrupted.</p>";
}

/// A value marker over time: per time bin a bar from its smallest to its
/// largest value.
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
  const Chart chart{140};
  std::string svg = chart.open("value-series", row.prefix, row.name + " over time");
  const double bin_w = std::max(chart.plot_w() * static_cast<double>(stats.bin_width_ns) / span, 1.0);
  for (std::size_t i = 0; i < row.series.size(); ++i) {
    const SeriesBin& b = row.series[i];
    if (b.empty) {
      continue;
    }
    const double x = chart.x(std::min(static_cast<double>(i) * static_cast<double>(stats.bin_width_ns) / span, 1.0));
    const double top = chart.y((b.max - lo) / (hi - lo));
    const double bottom = chart.y((b.min - lo) / (hi - lo));
    svg += "<rect class=\"value\" x=\"" + num(x) + "\" y=\"" + num(top) + "\" width=\"" +
           num(std::max(std::min(bin_w, kLeft + chart.plot_w() - x), 1.0)) +
           "\" height=\"" + num(std::max(bottom - top, 1.5)) + "\"/>";
  }
  svg += chart.axes("0", time_axis_end(stats), format_value(lo, Unit::kValue), format_value(hi, Unit::kValue));
  return svg + "</svg>";
}

std::string html_table(const StatsTable& table) {
  std::string out = "<table><thead><tr>";
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
  return out + "</tbody></table>";
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; } h3 { font-size: 14px; margin: 14px 0 4px; }
svg { display: block; font-size: 11px; }
svg .frame { fill: #fafafa; stroke: #ccc; }
svg .bar { fill: #4c78a8; } svg .value { fill: #59a14f; }
svg .percentile { stroke: #e45756; stroke-dasharray: 3 3; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 12px; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
table { border-collapse: collapse; margin: 6px 0 14px; font-size: 12px; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 8px; text-align: left; white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #666; font-size: 12px; } pre { background: #f6f6f6; padding: 8px; }
)";

}  // namespace

std::string format_html_report(const TraceStats& stats, const ReportInfo& info) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(info.title) +
                     "</title><style>" + kStyle + "</style></head><body>\n";
  html += "<h1>" + escape(info.title) + "</h1>\n<p class=\"note\">" + escape(info.inputs) + ": " +
          escape(format_value(static_cast<double>(stats.end_ns - stats.begin_ns), Unit::kNs)) + " from " +
          escape(format_time(stats.begin_ns)) + "; times are trace times, as Perfetto shows them.</p>\n";
  if (!info.diagnostics_summary.empty()) {
    html += "<pre class=\"diagnostics\">" + escape(info.diagnostics_summary) + "</pre>\n";
  }

  std::string histograms;
  for (const StatRow& row : stats.rows) {
    const char* prefix = row.section == Section::kMutex ? "hold" : "duration";
    const std::string svg = histogram(row, prefix);
    if (!svg.empty()) {
      const Figure* n = row.figure(row.section == Section::kMutex ? "takes" : "count");
      histograms += "<h3>" + escape(std::string{section_word(row.section)} + " " + row.name) +
                    (n != nullptr ? " <span class=\"note\">(" + format_value(n->value, n->unit) + ")</span>" : "") +
                    "</h3>" + svg + "\n";
    }
  }
  if (!histograms.empty()) {
    html += "<section id=\"durations\"><h2>Durations</h2>\n" + histograms + "</section>\n";
  }
  if (const std::string load = cpu_load(stats); !load.empty()) {
    html += "<section id=\"cpu-load\"><h2>CPU load per task</h2>\n" + load + "</section>\n";
  }
  std::string values;
  for (const StatRow& row : stats.rows) {
    if (row.section == Section::kValue || row.section == Section::kCounter) {
      if (const std::string svg = value_chart(row, stats); !svg.empty()) {
        values += "<h3>" + escape(row.name) + "</h3>" + svg + "\n";
      }
    }
  }
  if (!values.empty()) {
    html += "<section id=\"values\"><h2>Value markers and counters over time</h2>\n" + values + "</section>\n";
  }
  html += "<section id=\"tables\"><h2>Statistics</h2>\n";
  for (const StatsTable& table : stats_tables(stats)) {
    html += "<h3>" + escape(table.title) + "</h3>" + html_table(table) + "\n";
  }
  return html + "</section>\n</body></html>\n";
}

}  // namespace tband
