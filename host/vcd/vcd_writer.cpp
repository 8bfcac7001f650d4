#include "vcd/vcd_writer.hpp"

#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

#include <unistd.h>

#include "common/removed_on_signal.hpp"

namespace tband {

namespace {

// A VCD reference is one token; viewers read '.', '[' and ':' as hierarchy
// or bit ranges, so anything but letters, digits and '_' becomes '_'.
std::string reference(std::string_view name) {
  std::string out;
  for (const char ch : name) {
    const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    out += plain ? ch : '_';
  }
  return out.empty() ? "_" : out;
}

// A name not used yet in its scope: `name`, else `name_2`, `name_3`...
std::string unique_in(std::set<std::string>& used, const std::string& name) {
  std::string candidate = name;
  for (int n = 2; !used.insert(candidate).second; ++n) {
    candidate = name + "_" + std::to_string(n);
  }
  return candidate;
}

// Identifier codes: base 94 over the printable characters '!'..'~', shortest first.
std::string identifier(std::uint32_t n) {
  std::string id;
  do {
    id += static_cast<char>('!' + n % 94);
    n /= 94;
  } while (n-- != 0);
  return id;
}

void append_binary(std::string& line, std::uint64_t v) {
  line += 'b';
  if (v == 0) {
    line += '0';
    return;
  }
  for (int bit = 63 - std::countl_zero(v); bit >= 0; --bit) {
    line += ((v >> bit) & 1u) != 0 ? '1' : '0';
  }
}

}  // namespace

VcdWriter::VcdWriter(BufferedOutput& out, const NameTable& names, const std::string& spool_dir, bool logic_only)
    : out_(out), names_(names), logic_only_(logic_only) {
  std::string path = (spool_dir.empty() ? std::string{"."} : spool_dir) + "/.tband-vcd-spool-XXXXXX";
  int fd = -1;
  {
    const SignalsHeld held;  // a Ctrl-C between the two would leave the spool file behind
    fd = ::mkstemp(path.data());
    if (fd < 0) {
      throw std::runtime_error(out_.name() + ": cannot create the VCD spool file in " + spool_dir + ": " +
                               std::strerror(errno));
    }
    ::unlink(path.c_str());  // gone with the process, whatever happens to it
  }
  spool_ = ::fdopen(fd, "w+b");
  if (spool_ == nullptr) {
    ::close(fd);
    throw std::runtime_error(out_.name() + ": cannot open the VCD spool file");
  }
  std::setvbuf(spool_, nullptr, _IOFBF, std::size_t{1} << 20);  // records go out in big writes
}

VcdWriter::~VcdWriter() {
  if (spool_ != nullptr) {
    std::fclose(spool_);
  }
}

VcdWriter::Track& VcdWriter::track_of(const TrackInfo& info) {
  if (tracks_.size() < info.id) {
    tracks_.resize(info.id);
  }
  return tracks_[info.id - 1];
}

void VcdWriter::describe_track(const TrackInfo& track) { track_of(track).info = track; }

std::uint32_t VcdWriter::code(NameId name, std::string_view literal) {
  if (name != kLiteralName && name < code_by_name_.size() && code_by_name_[name] != 0) {
    return code_by_name_[name];  // the common case: no hashing
  }
  const std::uint32_t c = new_code(name == kLiteralName ? literal : names_.get(name));
  if (name != kLiteralName) {
    if (code_by_name_.size() <= name) {
      code_by_name_.resize(std::size_t{name} + 1, 0);
    }
    code_by_name_[name] = c;
  }
  return c;
}

std::uint32_t VcdWriter::new_code(std::string_view text) {
  if (const auto it = codes_.find(std::string{text}); it != codes_.end()) {
    return it->second;
  }
  if (code_names_.size() + 1 >= kMaxCodes) {
    if (code_names_.size() + 1 == kMaxCodes) {
      code_names_.emplace_back("(other names)");
    }
    return kMaxCodes;
  }
  code_names_.emplace_back(text);
  const auto c = static_cast<std::uint32_t>(code_names_.size());
  codes_.emplace(std::string{text}, c);
  return c;
}

std::uint64_t VcdWriter::time(std::uint64_t ts_ns) {
  if (ts_ns < last_ts_) {
    ++clamped_;
    return last_ts_;
  }
  last_ts_ = ts_ns;
  return ts_ns;
}

void VcdWriter::spool(std::uint64_t ts, const Track& track, Slot slot, Kind kind, std::uint64_t bits) {
  Record r;
  std::memset(&r, 0, sizeof r);  // the padding too: no uninitialised bytes in the file
  r.ts = ts;
  r.bits = bits;
  r.signal = static_cast<std::uint32_t>((track.info.id - 1) * kSlots + slot);
  r.kind = kind;
  std::fwrite(&r, sizeof r, 1, spool_);
  ++records_;
}

void VcdWriter::slice_begin(std::uint64_t ts_ns, const TrackInfo& info, NameId name, std::span<const Arg> /*args*/,
                            std::string_view literal) {
  const std::uint64_t ts = time(ts_ns);
  Track& t = track_of(info);
  std::uint64_t value = 0;
  if (info.role == TrackRole::kCoreRunning) {
    value = pending_task_;  // the task's own Running slice came just before
    pending_task_ = kNoId;
    t.slice_names = true;
  } else {
    value = code(name, literal);
    t.slice_names |= (name == kLiteralName ? literal : names_.get(name)) != info.name;
  }
  if (info.role == TrackRole::kTaskRunning && info.parent != 0 && info.parent <= tracks_.size()) {
    pending_task_ = tracks_[info.parent - 1].info.ref;
  }
  t.slices = true;
  t.open.push_back(value);
  const auto depth = static_cast<std::uint32_t>(t.open.size());
  t.max_depth = std::max(t.max_depth, depth);
  spool(ts, t, kOn, Kind::kInt, 1);
  spool(ts, t, kDepth, Kind::kInt, depth);
  spool(ts, t, kName, Kind::kInt, value);
  if (info.role == TrackRole::kIsr) {
    isr_change(ts, info, true);
  }
}

void VcdWriter::slice_end(std::uint64_t ts_ns, const TrackInfo& info, std::span<const Arg> /*args*/) {
  const std::uint64_t ts = time(ts_ns);
  Track& t = track_of(info);
  if (t.open.empty()) {
    return;  // the model never ends what it did not begin; nothing to show
  }
  t.open.pop_back();
  const std::uint64_t none = info.role == TrackRole::kCoreRunning ? kNoId : 0;
  spool(ts, t, kOn, Kind::kInt, t.open.empty() ? 0 : 1);
  spool(ts, t, kDepth, Kind::kInt, t.open.size());
  spool(ts, t, kName, Kind::kInt, t.open.empty() ? none : t.open.back());
  if (info.role == TrackRole::kIsr) {
    isr_change(ts, info, false);
  }
}

// The core's active ISR: the innermost of its handlers that runs. An exit
// ends the handler's latest entry, wherever it is in the nesting.
void VcdWriter::isr_change(std::uint64_t ts, const TrackInfo& isr, bool enter) {
  if (isr.parent == 0 || isr.parent > tracks_.size()) {
    return;
  }
  Track& core = tracks_[isr.parent - 1];
  core.has_isrs = true;
  if (enter) {
    core.isrs.push_back(isr.ref);
  } else {
    for (auto it = core.isrs.rbegin(); it != core.isrs.rend(); ++it) {
      if (*it == isr.ref) {
        core.isrs.erase(std::next(it).base());
        break;
      }
    }
  }
  spool(ts, core, kActive, Kind::kInt, core.isrs.empty() ? kNoId : core.isrs.back());
}

void VcdWriter::instant(std::uint64_t ts_ns, const TrackInfo& info, NameId name, std::span<const Arg> /*args*/,
                        std::string_view literal) {
  const std::uint64_t ts = time(ts_ns);
  Track& t = track_of(info);
  t.instants = true;
  t.instant_names |= (name == kLiteralName ? literal : names_.get(name)) != info.name;
  spool(ts, t, kEventName, Kind::kInt, code(name, literal));
  spool(ts, t, kEvent, Kind::kEvent, 1);
}

void VcdWriter::counter(std::uint64_t ts_ns, const TrackInfo& info, std::int64_t value) {
  const std::uint64_t ts = time(ts_ns);
  Track& t = track_of(info);
  t.ints = true;
  spool(ts, t, kValue, Kind::kInt, static_cast<std::uint64_t>(value));
}

void VcdWriter::counter_double(std::uint64_t ts_ns, const TrackInfo& info, double value) {
  const std::uint64_t ts = time(ts_ns);
  Track& t = track_of(info);
  t.reals = true;
  spool(ts, t, kValue, Kind::kReal, std::bit_cast<std::uint64_t>(value));
}

namespace {

// A translate filter line pair: the value as GTKWave shows a 32-bit value in
// hex (8 digits) and in decimal, then the name (on one line).
void add_filter_entry(std::string& text, std::uint64_t value, std::string name) {
  for (char& ch : name) {
    ch = ch == '\n' || ch == '\r' ? ' ' : ch;
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "%08llX", static_cast<unsigned long long>(value));
  text += std::string{hex} + " " + name + "\n" + std::to_string(value) + " " + name + "\n";
}

}  // namespace

std::string VcdWriter::translate_filter() const {
  std::string text = "# tband: names of the *_name signals' codes (hex as GTKWave shows them, and decimal)\n";
  for (std::size_t i = 0; i < code_names_.size(); ++i) {
    add_filter_entry(text, i + 1, code_names_[i]);
  }
  return text;
}

std::string VcdWriter::id_filter(TrackRole role) const {
  std::map<std::uint32_t, std::string> names;
  for (const Track& t : tracks_) {
    if (t.info.id == 0 || t.info.role != role) {
      continue;
    }
    const auto [it, added] = names.emplace(t.info.ref, t.info.name);
    if (!added && (" / " + it->second + " / ").find(" / " + t.info.name + " / ") == std::string::npos) {
      it->second += " / " + t.info.name;  // one id, other names on other cores
    }
  }
  std::string text = role == TrackRole::kTask ? "# tband: task names of the Running_task_id signals' ids\n"
                                              : "# tband: handler names of the isr.active signals' ids\n";
  for (const auto& [id, name] : names) {
    add_filter_entry(text, id, name);
  }
  return text;
}

std::string VcdWriter::save_file(const SaveFilePaths& paths) const {
  // GTKWave's save file: `@<flags in hex>` sets the format of the signals
  // that follow (0x28 binary, 0x24 decimal, 0x2000 translated by the file
  // filter `^<n> <file>` names, 0x40000 real), `-<text>` with 0x800200 and
  // 0x1000200 begins and ends a group.
  std::string text = "[*] tband: GTKWave save file for " + paths.vcd + "\n[dumpfile] \"" + paths.vcd + "\"\n";
  if (!paths.save.empty()) {
    text += "[savefile] \"" + paths.save + "\"\n";
  }
  text += "[timestart] 0\n";
  for (int rank = 0; rank < 3; ++rank) {
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      if (groups_[g].rank != rank) {
        continue;
      }
      text += "@800200\n-" + groups_[g].name + "\n";
      for (const Declared& d : declared_) {
        if (d.group != g) {
          continue;
        }
        const std::string& filter = d.filter == 'n'   ? paths.names_filter
                                    : d.filter == 't' ? paths.task_filter
                                    : d.filter == 'i' ? paths.isr_filter
                                                      : std::string{};
        if (!filter.empty()) {
          const char* number = d.filter == 'n' ? "1" : d.filter == 't' ? "2" : "3";
          text += std::string{"@2024\n^"} + number + " " + filter + "\n";
        } else {
          text += d.kind == Kind::kReal ? "@40020\n" : d.width == 1 ? "@28\n" : "@24\n";
        }
        text += d.path + "\n";
      }
      text += "@1000200\n-" + groups_[g].name + "\n";
    }
  }
  return text;
}

void VcdWriter::write_header(std::vector<std::string>& ids, std::vector<Kind>& kinds) {
  std::string h = "$version tband $end\n";
  if (clamped_ != 0) {
    h += "$comment " + std::to_string(clamped_) + " value change(s) earlier than the one before were written at " +
         "the later time $end\n";
  }
  h += "$timescale 1ns $end\n$scope module tband $end\n";
  std::uint32_t next_id = 0;
  std::string scope = "tband";
  std::size_t group = 0;
  const auto declare = [&](std::set<std::string>& used, const Track& t, Slot slot, std::string_view type, int width,
                           const std::string& name, Kind kind, char filter = 0) {
    if (logic_only_ && (width != 1 || kind == Kind::kEvent)) {
      return;
    }
    const std::size_t s = (t.info.id - 1) * kSlots + slot;
    ids[s] = identifier(next_id++);
    kinds[s] = kind;
    const std::string unique = unique_in(used, name);
    h += "$var " + std::string{type} + " " + std::to_string(width) + " " + ids[s] + " " + unique + " $end\n";
    declared_.push_back({scope + "." + unique, group, kind, static_cast<std::uint8_t>(width), filter});
  };
  const auto declare_track = [&](std::set<std::string>& used, const Track& t) {
    const std::string base = reference(t.info.name);
    if (t.slices) {
      declare(used, t, kOn, "wire", 1, base, Kind::kInt);
      if (t.max_depth > 1) {
        declare(used, t, kDepth, "integer", 32, base + "_depth", Kind::kInt);
      }
      if (t.info.role == TrackRole::kCoreRunning) {
        declare(used, t, kName, "integer", 32, base + "_id", Kind::kId, 't');
      } else if (t.slice_names) {
        declare(used, t, kName, "integer", 32, base + "_name", Kind::kInt, 'n');
      }
    }
    if (t.instants) {
      const std::string name = t.slices ? base + "_instant" : base;
      declare(used, t, kEvent, "event", 1, name, Kind::kEvent);
      if (t.instant_names) {
        declare(used, t, kEventName, "integer", 32, name + "_name", Kind::kInt, 'n');
      }
    }
    if (t.ints || t.reals) {
      declare(used, t, kValue, t.reals ? "real" : "integer", 64, base, t.reals ? Kind::kReal : Kind::kInt);
    }
  };
  // Global tracks in the top scope, then one scope per process with its
  // tracks, a core's interrupt handlers in its scope `isr`.
  std::set<std::string> top;
  bool any_global = false;
  for (const Track& t : tracks_) {
    any_global |= t.info.id != 0 && t.info.kind != TrackKind::kProcess && t.info.parent == 0;
  }
  if (any_global) {
    groups_.push_back({"Global", 1});
    for (const Track& t : tracks_) {
      if (t.info.id != 0 && t.info.kind != TrackKind::kProcess && t.info.parent == 0) {
        declare_track(top, t);
      }
    }
  }
  std::vector<std::vector<const Track*>> children(tracks_.size());
  for (const Track& t : tracks_) {
    if (t.info.id != 0 && t.info.kind != TrackKind::kProcess && t.info.parent != 0 &&
        t.info.parent <= tracks_.size()) {
      children[t.info.parent - 1].push_back(&t);
    }
  }
  for (const Track& p : tracks_) {
    if (p.info.kind != TrackKind::kProcess || p.info.id == 0) {
      continue;
    }
    const std::string name = unique_in(top, reference(p.info.name));
    h += "$scope module " + name + " $end\n";
    scope = "tband." + name;
    group = groups_.size();
    groups_.push_back({p.info.name, p.info.role == TrackRole::kTask ? 2 : 0});
    std::set<std::string> used;
    for (const Track* t : children[p.info.id - 1]) {
      if (t->info.role != TrackRole::kIsr) {
        declare_track(used, *t);
      }
    }
    if (p.has_isrs) {
      const std::string isr_scope = unique_in(used, "isr");
      h += "$scope module " + isr_scope + " $end\n";
      scope += "." + isr_scope;
      std::set<std::string> isr_used;
      declare(isr_used, p, kActive, "integer", 32, "active", Kind::kId, 'i');
      for (const Track* t : children[p.info.id - 1]) {
        if (t->info.role == TrackRole::kIsr) {
          declare_track(isr_used, *t);
        }
      }
      h += "$upscope $end\n";
    }
    h += "$upscope $end\n";
    out_.write(h);
    h.clear();
  }
  h += "$upscope $end\n$enddefinitions $end\n";
  out_.write(h);
}

void VcdWriter::write_body(const std::vector<std::string>& ids, const std::vector<Kind>& kinds) {
  const std::size_t n = ids.size();
  std::vector<std::uint64_t> cur(n, 0);
  for (std::size_t s = 0; s < n; ++s) {
    cur[s] = kinds[s] == Kind::kId ? kNoId : 0;  // no ISR active, no task switched in yet
  }
  std::vector<std::uint64_t> shown(n, 0);
  std::vector<bool> ever_shown(n, false);
  std::vector<bool> touched(n, false);
  std::vector<std::uint32_t> touched_list;
  std::string line;
  const auto value_line = [&](std::size_t s, std::uint64_t bits, Kind record_kind) {
    line.clear();
    if (kinds[s] == Kind::kEvent) {
      line += '1';
    } else if (kinds[s] == Kind::kId && bits == kNoId) {
      line += "bz ";
    } else if (s % kSlots == kOn) {
      line += bits != 0 ? '1' : '0';
    } else if (kinds[s] == Kind::kReal) {
      const double v = record_kind == Kind::kReal ? std::bit_cast<double>(bits)
                                                  : static_cast<double>(static_cast<std::int64_t>(bits));
      char text[40];
      std::snprintf(text, sizeof text, "r%.17g ", v);
      line += text;
    } else {
      append_binary(line, bits);
      line += ' ';
    }
    line += ids[s];
    line += '\n';
    out_.write(line);
  };
  std::vector<Kind> record_kind(n, Kind::kInt);
  bool first = true;
  std::uint64_t group_ts = 0;
  const auto flush_group = [&] {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "#%llu\n", static_cast<unsigned long long>(group_ts));
    bool stamped = false;
    const auto stamp_once = [&] {
      if (!stamped) {
        out_.write(stamp);
        stamped = true;
      }
    };
    if (first) {
      // Every declared signal's value at the first time; counters without a
      // sample yet stay undefined (x).
      stamp_once();
      out_.write("$dumpvars\n");
      for (std::size_t s = 0; s < n; ++s) {
        if (ids[s].empty() || kinds[s] == Kind::kEvent) {
          continue;
        }
        if (s % kSlots == kValue && !touched[s]) {
          if (kinds[s] == Kind::kInt) {
            out_.write("bx ");
            out_.write(ids[s]);
            out_.write("\n");
          }
          continue;
        }
        value_line(s, cur[s], record_kind[s]);
        shown[s] = cur[s];
        ever_shown[s] = true;
      }
      out_.write("$end\n");
      first = false;
    }
    for (const std::uint32_t s : touched_list) {
      touched[s] = false;
      if (kinds[s] == Kind::kEvent) {
        stamp_once();
        value_line(s, 1, Kind::kEvent);
      } else if (!ever_shown[s] || shown[s] != cur[s]) {
        stamp_once();
        value_line(s, cur[s], record_kind[s]);
        shown[s] = cur[s];
        ever_shown[s] = true;
      }
    }
    touched_list.clear();
  };

  std::rewind(spool_);
  std::vector<Record> buffer(4096);
  bool any = false;
  for (;;) {
    const std::size_t got = std::fread(buffer.data(), sizeof(Record), buffer.size(), spool_);
    for (std::size_t i = 0; i < got; ++i) {
      const Record& r = buffer[i];
      if (r.signal >= n || ids[r.signal].empty()) {
        continue;  // a signal not worth declaring (e.g. the depth of slices that never nest)
      }
      if (any && r.ts != group_ts) {
        flush_group();
      }
      any = true;
      group_ts = r.ts;
      cur[r.signal] = r.bits;
      record_kind[r.signal] = r.kind;
      if (!touched[r.signal]) {
        touched[r.signal] = true;
        touched_list.push_back(r.signal);
      }
    }
    if (got < buffer.size()) {
      break;
    }
  }
  if (any) {
    flush_group();
    // The end of the dump, 1 ns after the last change: readers that turn the
    // changes into samples (sigrok) show a change only once time passes it.
    char end[32];
    std::snprintf(end, sizeof end, "#%llu\n", static_cast<unsigned long long>(group_ts + 1));
    out_.write(end);
  }
}

void VcdWriter::finish() {
  if (finished_) {
    return;
  }
  finished_ = true;
  if (std::fflush(spool_) != 0 || std::ferror(spool_) != 0) {
    throw std::runtime_error(out_.name() + ": writing the VCD spool file failed: " + std::strerror(errno));
  }
  std::vector<std::string> ids(tracks_.size() * kSlots);
  std::vector<Kind> kinds(ids.size(), Kind::kInt);
  write_header(ids, kinds);
  write_body(ids, kinds);
  if (std::ferror(spool_) != 0) {
    throw std::runtime_error(out_.name() + ": reading the VCD spool file failed");
  }
}

}  // namespace tband
