// Reads a .pftrace back with the generated protobuf classes and resolves what
// a user would see in the Perfetto UI: tracks by name (with their process),
// slices with begin/end times and names, instants with arguments, counter
// values. Interned names and the incremental clock are resolved as Perfetto's
// trace processor does, so tests check the meaning, not the bytes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tband::test {

struct ViewSlice {
  std::uint64_t begin_ns = 0;
  std::optional<std::uint64_t> end_ns;  // none while still open at the end
  std::string name;
  int depth = 0;
};

struct ViewInstant {
  std::uint64_t ts_ns = 0;
  std::string name;
  std::map<std::string, std::string> args;  // values as text
};

struct ViewTrack {
  std::uint64_t uuid = 0;
  std::string name;
  std::uint64_t parent = 0;
  std::string process;  // name of the parent process, "" for global tracks
  bool is_process = false;
  bool is_counter = false;
  std::vector<ViewSlice> slices;  // in begin order
  std::vector<ViewInstant> instants;
  std::vector<std::pair<std::uint64_t, std::int64_t>> counter;  // (ts_ns, value)
};

struct PerfettoView {
  std::map<std::uint64_t, ViewTrack> tracks;
  std::vector<std::string> errors;  // structural problems found while reading

  /// The track with this name (and process, if given); throws if not exactly one.
  [[nodiscard]] const ViewTrack& track(const std::string& name, const std::string& process = "*") const;
  [[nodiscard]] bool has_track(const std::string& name, const std::string& process = "*") const;
  [[nodiscard]] std::vector<std::string> process_names() const;
};

/// Parses the file; problems go to PerfettoView::errors.
PerfettoView read_perfetto(const std::string& path);

}  // namespace tband::test
