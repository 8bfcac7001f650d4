// Writes the timeline as a Value Change Dump (IEEE 1364 VCD) for waveform
// viewers (GTKWave, Surfer, PulseView): each process track (a core, a task)
// is a scope, each track one or more signals named as the Perfetto track is:
//   - slice tracks: a 1-bit signal, high while a slice is open; where slices
//     nest (ISRs, markers), `<name>_depth`; where slices carry other names than
//     the track's (task states, markers), `<name>_name`, the code of the
//     innermost open slice's name (0: none);
//   - a core's interrupt handlers (tracks of role kIsr) in its `isr` scope, with
//     `active`: the id of the innermost running handler (z: none);
//   - a core's running task (role kCoreRunning): `Running_task_id`, the
//     task's id as the trace gives it (z before the first switch);
//   - instants: a VCD `event` (and `<name>_name`, the last instant's code);
//   - counters: `integer` 64, or `real` when a sample is not an integer.
// The codes' and ids' names go to GTKWave translate filter files
// (translate_filter(), id_filter()), and save_file() writes a GTKWave save
// file that shows every signal, grouped per scope, with its filter.
// Time is the model's: nanoseconds, one time base for every core; a call
// earlier than the one before it is written at the later time (counted in
// clamped()).
//
// VCD needs every `$var` before the first value, but tracks appear as the
// trace is read. So value changes are spooled, as fixed-size records, to an
// unlinked temporary file beside the output, and finish() writes the header
// and then the body from the spool: memory stays flat (a few words per track
// and per name code), whatever the trace's length.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/buffered_output.hpp"
#include "trace/names.hpp"
#include "trace/plain_sink.hpp"
#include "trace/track.hpp"

namespace tband {

class VcdWriter final : public PlainSink {
 public:
  /// `spool_dir`: the folder of the spool file (the output's own, so that a
  /// big trace does not fill /tmp). Throws std::runtime_error when it cannot
  /// be created.
  /// `logic_only`: only the 1-bit signals, for readers that stop at the first
  /// multi-bit value (libsigrok 0.5.2's VCD input, so PulseView).
  VcdWriter(BufferedOutput& out, const NameTable& names, const std::string& spool_dir, bool logic_only = false);
  ~VcdWriter() override;
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  /// Writes the header and the value changes. Throws std::runtime_error when
  /// the spool failed (a full disk).
  void finish();
  /// GTKWave translate filter file: each name code, as GTKWave shows it in
  /// hex (8 digits) and in decimal, and its name.
  [[nodiscard]] std::string translate_filter() const;
  /// GTKWave translate filter file for the `role` tracks' ids (kIsr: the
  /// `active` signals; kTask: `Running_task_id`): each id in hex and decimal
  /// and the name of its track (names of one id on several cores joined by " / ").
  [[nodiscard]] std::string id_filter(TrackRole role) const;
  /// The files a GTKWave save file names (absolute paths, best).
  struct SaveFilePaths {
    std::string vcd, names_filter, task_filter, isr_filter;
    // The save file's own path: GTKWave finds the others relative to it when
    // the folder has moved since (another machine, a renamed directory).
    std::string save;
  };
  /// A GTKWave save file (.gtkw) that opens the VCD with every declared
  /// signal, a group per scope (cores first), the filters attached. After finish().
  [[nodiscard]] std::string save_file(const SaveFilePaths& paths) const;
  /// Calls whose time was earlier than the previous call's.
  [[nodiscard]] std::uint64_t clamped() const noexcept { return clamped_; }
  /// Names beyond kMaxCodes share the last code.
  static constexpr std::uint32_t kMaxCodes = 1 << 16;

  void describe_track(const TrackInfo& track) override;
  void slice_begin(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
                   std::string_view literal) override;
  void slice_end(std::uint64_t ts_ns, const TrackInfo& track, std::span<const Arg> args) override;
  void instant(std::uint64_t ts_ns, const TrackInfo& track, NameId name, std::span<const Arg> args,
               std::string_view literal) override;
  void counter(std::uint64_t ts_ns, const TrackInfo& track, std::int64_t value) override;
  void counter_double(std::uint64_t ts_ns, const TrackInfo& track, double value) override;

 private:
  // The signals of one track; a signal's number is track index * kSlots + slot.
  // kActive: a core's active ISR id, on the core's process track.
  enum Slot : std::uint8_t { kOn, kDepth, kName, kEvent, kEventName, kValue, kActive, kSlots };
  // kId: declared only, an id signal (its records are kInt; kNoId: none, written as z).
  enum class Kind : std::uint8_t { kInt, kReal, kEvent, kId };
  static constexpr std::uint64_t kNoId = ~std::uint64_t{0};
  // A declared signal, as the save file lists it.
  struct Declared {
    std::string path;  // tband.<scope>...<name>
    std::size_t group;  // index in groups_
    Kind kind;
    std::uint8_t width;
    char filter;  // 'n' name codes, 't' task ids, 'i' ISR ids, 0 none
  };

  struct Track {
    TrackInfo info;
    std::vector<std::uint64_t> open;  // name codes (task ids: kCoreRunning) of the open slices, innermost last
    std::vector<std::uint32_t> isrs;  // a process: ids of its running ISRs, innermost last
    bool has_isrs = false;
    std::uint32_t max_depth = 0;
    bool slices = false, slice_names = false;  // any slice; any named other than the track
    bool instants = false, instant_names = false;
    bool ints = false, reals = false;
  };
  struct Record {  // 24 bytes, aligned (the spool is read back into an array of them)
    std::uint64_t ts;
    std::uint64_t bits;  // the int64, or the double's bits
    std::uint32_t signal;
    Kind kind;
  };

  Track& track_of(const TrackInfo& info);
  std::uint32_t code(NameId name, std::string_view literal);
  std::uint32_t new_code(std::string_view text);
  std::uint64_t time(std::uint64_t ts_ns);
  void spool(std::uint64_t ts, const Track& track, Slot slot, Kind kind, std::uint64_t bits);
  void isr_change(std::uint64_t ts, const TrackInfo& isr, bool enter);
  void write_header(std::vector<std::string>& ids, std::vector<Kind>& kinds);
  void write_body(const std::vector<std::string>& ids, const std::vector<Kind>& kinds);

  BufferedOutput& out_;
  const NameTable& names_;
  std::FILE* spool_ = nullptr;
  std::vector<Track> tracks_;  // by TrackId - 1
  std::unordered_map<std::string, std::uint32_t> codes_;
  std::vector<std::string> code_names_;  // by code - 1
  std::vector<std::uint32_t> code_by_name_;  // by NameId: its code, 0 until met
  std::vector<Declared> declared_;
  struct Group {
    std::string name;
    int rank;  // the save file's order: 0 cores, 1 global tracks, 2 tasks
  };
  std::vector<Group> groups_;
  std::uint64_t pending_task_ = kNoId;  // the task whose kTaskRunning slice began last
  std::uint64_t last_ts_ = 0;
  std::uint64_t clamped_ = 0;
  std::uint64_t records_ = 0;
  bool logic_only_ = false;
  bool finished_ = false;
};

}  // namespace tband
