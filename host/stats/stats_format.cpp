#include "stats/stats_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace tband {

namespace {

std::string printf_string(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// A figure's column: its key without "duration." (which every ISR and
/// marker column would start with).
std::string column_title(const std::string& key) {
  constexpr std::string_view kDuration = "duration.";
  return key.rfind(kDuration, 0) == 0 ? key.substr(kDuration.size()) : key;
}

bool is_max_with_place(const Figure& f) {
  return f.at && f.key.size() > 4 && f.key.compare(f.key.size() - 4, 4, ".max") == 0;
}

std::string render(const StatsTable& table, const std::string& indent) {
  const auto& header = table.header;
  const auto& rows = table.rows;
  const auto& right = table.right;
  std::vector<std::size_t> width(header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      width[i] = std::max(width[i], cells[i].size());
    }
  };
  measure(header);
  for (const auto& r : rows) {
    measure(r);
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text = indent;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(width[i] - cells[i].size(), ' ');
      text += i < right.size() && right[i] ? pad + cells[i] : cells[i] + pad;
      text += i + 1 < cells.size() ? "  " : "";
    }
    while (!text.empty() && text.back() == ' ') {
      text.pop_back();
    }
    out += text + "\n";
  };
  line(header);
  for (const auto& r : rows) {
    line(r);
  }
  return out;
}

std::optional<StatsTable> section_table(const TraceStats& stats, Section section) {
  // The columns: every key of the section's rows, in their order, with a
  // "max at" after each maximum that says where it happened.
  std::vector<std::string> keys;
  std::vector<bool> place_after;
  for (const StatRow& row : stats.rows) {
    if (row.section != section) {
      continue;
    }
    for (const Figure& f : row.figures) {
      if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) {
        keys.push_back(f.key);
        place_after.push_back(f.key.size() > 4 && f.key.compare(f.key.size() - 4, 4, ".max") == 0);
      }
    }
  }
  if (keys.empty()) {
    return std::nullopt;
  }
  StatsTable table;
  table.title = std::string{section_title(section)};
  table.header = {"name", "detail"};
  table.right = {false, false};
  for (std::size_t k = 0; k < keys.size(); ++k) {
    table.header.push_back(column_title(keys[k]));
    table.right.push_back(true);
    if (place_after[k]) {
      table.header.push_back(column_title(keys[k]) + " at");
      table.right.push_back(true);
    }
  }
  for (const StatRow& row : stats.rows) {
    if (row.section != section) {
      continue;
    }
    std::vector<std::string> cells{row.name, row.detail};
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const Figure* f = row.figure(keys[k]);
      cells.push_back(f != nullptr ? format_value(f->value, f->unit) : "");
      if (place_after[k]) {
        cells.push_back(f != nullptr && is_max_with_place(*f) && f->value ? format_time(f->at->ts_ns) : "-");
      }
    }
    table.rows.push_back(std::move(cells));
  }
  return table;
}

nlohmann::json figure_json(const Figure& f) {
  nlohmann::json j = {{"unit", unit_name(f.unit)}};
  j["value"] = f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr);
  if (f.at) {
    j["at_ns"] = f.at->ts_ns;
    if (f.at->end_ns) {
      j["end_ns"] = *f.at->end_ns;
    }
    j["event"] = f.at->event;
  }
  return j;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string out = "\"";
  for (const char ch : text) {
    out += ch == '"' ? std::string{"\"\""} : std::string(1, ch);
  }
  return out + "\"";
}

std::string plain_number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9e15) {
    return std::to_string(static_cast<long long>(value));
  }
  return printf_string("%.9g", value);
}

}  // namespace

std::string_view unit_name(Unit unit) noexcept {
  switch (unit) {
    case Unit::kCount: return "count";
    case Unit::kNs: return "ns";
    case Unit::kPercent: return "percent";
    case Unit::kPerSecond: return "per_second";
    case Unit::kValue: return "value";
  }
  return "";
}

std::string full_name(const StatRow& row, const Figure& figure) {
  return row.prefix.empty() ? figure.key : row.prefix + "." + figure.key;
}

std::string format_value(std::optional<double> value, Unit unit) {
  if (!value) {
    return "-";
  }
  const double v = *value;
  switch (unit) {
    case Unit::kCount:
      return plain_number(v);
    case Unit::kValue:  // a mean is rarely whole: six digits are plenty to read
      return std::floor(v) == v ? plain_number(v) : printf_string("%.6g", v);
    case Unit::kNs:
      if (std::fabs(v) < 1e3) {
        return plain_number(std::round(v * 10) / 10) + " ns";
      }
      if (std::fabs(v) < 1e6) {
        return printf_string("%.3f us", v / 1e3);
      }
      if (std::fabs(v) < 1e9) {
        return printf_string("%.3f ms", v / 1e6);
      }
      return printf_string("%.3f s", v / 1e9);
    case Unit::kPercent:
      return printf_string("%.2f %%", v);
    case Unit::kPerSecond:
      return printf_string("%.6g/s", v);
  }
  return plain_number(v);
}

std::string format_time(std::uint64_t ns) {
  char text[48];
  std::snprintf(text, sizeof text, "%llu.%09llu s", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return text;
}

std::string format_where(const Where& where) {
  std::string out = "at " + format_time(where.ts_ns);
  if (!where.event.empty() || where.end_ns) {
    out += " (" + where.event;
    if (where.end_ns) {
      out += std::string{where.event.empty() ? "" : ", "} + "until " + format_time(*where.end_ns);
    }
    out += ")";
  }
  return out;
}

std::vector<StatsTable> stats_tables(const TraceStats& stats) {
  std::vector<StatsTable> tables;
  StatsTable& trace = tables.emplace_back();
  trace.title = "Trace";
  trace.header = {"figure", "value", "where"};
  trace.right = {false, true, false};
  for (const Figure& f : stats.trace_row().figures) {
    // Diagnostic kinds that did not occur would only be noise here.
    if (f.key.rfind("diagnostics.", 0) == 0 && f.value.value_or(0) == 0) {
      continue;
    }
    const bool show_place = f.at && f.value.value_or(0) != 0;
    trace.rows.push_back({f.key, format_value(f.value, f.unit), show_place ? format_where(*f.at) : ""});
  }
  for (const Section s : {Section::kIsr, Section::kMarker, Section::kValue, Section::kTask, Section::kCore,
                          Section::kQueue, Section::kMutex, Section::kSpan, Section::kEvent, Section::kCounter}) {
    if (auto table = section_table(stats, s)) {
      tables.push_back(std::move(*table));
    }
  }
  return tables;
}

std::string format_stats_text(const TraceStats& stats) {
  std::string out;
  for (const StatsTable& table : stats_tables(stats)) {
    out += (out.empty() ? "" : "\n") + table.title + "\n" + render(table, "  ");
  }
  return out;
}

std::string format_stats_json(const TraceStats& stats) {
  nlohmann::json flat = nlohmann::json::object();
  nlohmann::json rows = nlohmann::json::array();
  for (const StatRow& row : stats.rows) {
    nlohmann::json figures = nlohmann::json::object();
    for (const Figure& f : row.figures) {
      figures[f.key] = figure_json(f);
      flat[full_name(row, f)] = f.value ? nlohmann::json(*f.value) : nlohmann::json(nullptr);
    }
    rows.push_back({{"section", row.section == Section::kTrace ? "trace" : std::string{section_word(row.section)}},
                    {"name", row.name},
                    {"prefix", row.prefix},
                    {"detail", row.detail},
                    {"figures", std::move(figures)}});
  }
  const nlohmann::json j = {{"begin_ns", stats.begin_ns}, {"end_ns", stats.end_ns}, {"figures", std::move(flat)},
                            {"rows", std::move(rows)}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string format_stats_csv(const TraceStats& stats) {
  std::string out = "figure,value,unit,at_ns,end_ns,event\n";
  for (const StatRow& row : stats.rows) {
    for (const Figure& f : row.figures) {
      out += csv_field(full_name(row, f)) + "," + (f.value ? plain_number(*f.value) : "") + "," +
             std::string{unit_name(f.unit)} + ",";
      if (f.at) {
        out += std::to_string(f.at->ts_ns) + "," + (f.at->end_ns ? std::to_string(*f.at->end_ns) : "") + "," +
               csv_field(f.at->event);
      } else {
        out += ",,";
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace tband
