#include "perfetto_view.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "perfetto_trace.pb.h"

namespace tband::test {

namespace pb = perfetto::protos;

const ViewTrack& PerfettoView::track(const std::string& name, const std::string& process) const {
  const ViewTrack* found = nullptr;
  for (const auto& [uuid, t] : tracks) {
    if (t.name == name && (process == "*" || t.process == process)) {
      if (found != nullptr) {
        throw std::runtime_error("two tracks named '" + name + "'");
      }
      found = &t;
    }
  }
  if (found == nullptr) {
    throw std::runtime_error("no track named '" + name + "' in process '" + process + "'");
  }
  return *found;
}

bool PerfettoView::has_track(const std::string& name, const std::string& process) const {
  for (const auto& [uuid, t] : tracks) {
    if (t.name == name && (process == "*" || t.process == process)) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> PerfettoView::process_names() const {
  std::vector<std::string> names;
  for (const auto& [uuid, t] : tracks) {
    if (t.is_process) {
      names.push_back(t.name);
    }
  }
  return names;
}

PerfettoView read_perfetto(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  pb::Trace trace;
  PerfettoView view;
  if (!trace.ParseFromString(bytes)) {
    view.errors.push_back("not a valid Trace message");
    return view;
  }
  std::map<std::uint64_t, std::string> event_names;
  std::map<std::uint64_t, std::string> arg_names;
  std::uint32_t default_clock = pb::BUILTIN_CLOCK_BOOTTIME;
  bool incremental_clock = false;
  std::uint64_t clock_value = 0;
  std::map<std::uint64_t, std::vector<std::size_t>> open;  // per track: indexes of open slices
  bool state_cleared = false;

  for (const pb::TracePacket& packet : trace.packet()) {
    if (packet.has_trace_packet_defaults()) {
      default_clock = packet.trace_packet_defaults().timestamp_clock_id();
    }
    if ((packet.sequence_flags() & pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED) != 0) {
      state_cleared = true;
      event_names.clear();
      arg_names.clear();
    }
    if (packet.has_clock_snapshot()) {
      for (const auto& clock : packet.clock_snapshot().clocks()) {
        if (clock.clock_id() >= 64 && clock.is_incremental()) {
          incremental_clock = true;
          clock_value = clock.timestamp();
          if (clock.unit_multiplier_ns() > 1) {
            view.errors.push_back("unexpected unit multiplier");
          }
        }
      }
    }
    for (const auto& name : packet.interned_data().event_names()) {
      event_names[name.iid()] = name.name();
    }
    for (const auto& name : packet.interned_data().debug_annotation_names()) {
      arg_names[name.iid()] = name.name();
    }
    if (packet.has_track_descriptor()) {
      const auto& d = packet.track_descriptor();
      ViewTrack& t = view.tracks[d.uuid()];
      t.uuid = d.uuid();
      t.is_process = d.has_process();
      t.is_counter = d.has_counter();
      // As Perfetto's trace processor names a track described more than once:
      // a process takes its newest name, a track the newest only if it never
      // merges with siblings (else the name it was first given).
      const bool renamable = d.has_process() || t.name.empty() ||
                             d.sibling_merge_behavior() == pb::TrackDescriptor::SIBLING_MERGE_BEHAVIOR_NONE;
      if (renamable) {
        t.name = d.has_process() ? d.process().process_name() : d.name();
      }
      t.parent = d.parent_uuid();
      continue;
    }
    if (!packet.has_track_event()) {
      continue;
    }
    if ((packet.sequence_flags() & pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE) != 0 && !state_cleared) {
      view.errors.push_back("packet needs incremental state before it was set");
    }
    std::uint64_t ts = 0;
    const std::uint32_t clock = packet.has_timestamp_clock_id() ? packet.timestamp_clock_id() : default_clock;
    if (clock >= 64) {
      if (!incremental_clock) {
        view.errors.push_back("incremental timestamp without a clock snapshot");
      }
      clock_value += packet.timestamp();
      ts = clock_value;
    } else {
      ts = packet.timestamp();
    }
    const pb::TrackEvent& e = packet.track_event();
    const auto it = view.tracks.find(e.track_uuid());
    if (it == view.tracks.end()) {
      view.errors.push_back("event on undescribed track " + std::to_string(e.track_uuid()));
      continue;
    }
    ViewTrack& t = it->second;
    std::string name;
    if (e.has_name_iid()) {
      const auto n = event_names.find(e.name_iid());
      if (n == event_names.end()) {
        view.errors.push_back("name iid " + std::to_string(e.name_iid()) + " not interned");
      } else {
        name = n->second;
      }
    } else if (e.has_name()) {
      name = e.name();
    }
    switch (e.type()) {
      case pb::TrackEvent::TYPE_SLICE_BEGIN:
        open[t.uuid].push_back(t.slices.size());
        t.slices.push_back({ts, std::nullopt, name, static_cast<int>(open[t.uuid].size()) - 1});
        break;
      case pb::TrackEvent::TYPE_SLICE_END:
        if (open[t.uuid].empty()) {
          view.errors.push_back("slice end without begin on '" + t.name + "'");
        } else {
          t.slices[open[t.uuid].back()].end_ns = ts;
          open[t.uuid].pop_back();
        }
        break;
      case pb::TrackEvent::TYPE_INSTANT: {
        ViewInstant instant{ts, name, {}};
        for (const auto& a : e.debug_annotations()) {
          const std::string key = a.has_name_iid() ? arg_names[a.name_iid()] : a.name();
          std::string value;
          if (a.has_string_value()) value = a.string_value();
          if (a.has_uint_value()) value = std::to_string(a.uint_value());
          if (a.has_int_value()) value = std::to_string(a.int_value());
          instant.args[key] = value;
        }
        t.instants.push_back(std::move(instant));
        break;
      }
      case pb::TrackEvent::TYPE_COUNTER:
        if (!t.is_counter) {
          view.errors.push_back("counter value on non-counter track '" + t.name + "'");
        }
        t.counter.emplace_back(ts, e.counter_value());
        break;
      default:
        view.errors.push_back("event without type");
    }
  }
  for (auto& [uuid, t] : view.tracks) {
    if (t.parent != 0) {
      t.process = view.tracks[t.parent].name;
    }
  }
  return view;
}

}  // namespace tband::test
