// The VCD writer (host/vcd) fed a recording of timeline calls, its output
// read back signal by signal: scopes and names, value changes at their exact
// times, nesting, name codes, counters, events, time that goes backwards.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/buffered_output.hpp"
#include "decode/event_fields.hpp"
#include "vcd/vcd_writer.hpp"

namespace tband::test {
namespace {

namespace fs = std::filesystem;

// A VCD as {"scope.name": {declaration, [(time, value)]}}; values as written
// ("1", "b101", "r2.5", "bx"; events "1").
struct Signal {
  std::string type;
  int width = 0;
  std::vector<std::pair<std::uint64_t, std::string>> changes;
};
struct Vcd {
  std::string header;
  std::map<std::string, Signal> signals;
  [[nodiscard]] const Signal& at(const std::string& name) const {
    const auto it = signals.find(name);
    if (it == signals.end()) {
      throw std::runtime_error("no signal " + name);
    }
    return it->second;
  }
  [[nodiscard]] bool has(const std::string& name) const { return signals.count(name) != 0; }
};

Vcd parse(const std::string& text) {
  Vcd vcd;
  std::istringstream in(text);
  std::vector<std::string> scope;
  std::map<std::string, std::string> by_id;
  std::string word;
  std::uint64_t now = 0;
  bool body = false;
  while (in >> word) {
    if (!body) {
      if (word == "$scope") {
        std::string kind, name, end;
        in >> kind >> name >> end;
        scope.push_back(name);
      } else if (word == "$upscope") {
        in >> word;
        scope.pop_back();
      } else if (word == "$var") {
        Signal s;
        std::string id, name, end;
        in >> s.type >> s.width >> id >> name >> end;
        std::string path;
        for (const std::string& part : scope) path += part + ".";
        path += name;
        EXPECT_EQ(vcd.signals.count(path), 0u) << path << " declared twice";
        by_id[id] = path;
        vcd.signals[path] = s;
      } else if (word == "$enddefinitions") {
        in >> word;
        body = true;
      } else {
        vcd.header += word + " ";
      }
      continue;
    }
    if (word == "$dumpvars" || word == "$end") continue;
    if (word[0] == '#') {
      now = std::stoull(word.substr(1));
    } else if (word[0] == 'b' || word[0] == 'r') {
      std::string id;
      in >> id;
      vcd.signals.at(by_id.at(id)).changes.emplace_back(now, word);
    } else {
      vcd.signals.at(by_id.at(word.substr(1))).changes.emplace_back(now, word.substr(0, 1));
    }
  }
  return vcd;
}

using Changes = std::vector<std::pair<std::uint64_t, std::string>>;

class VcdWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tband_vcd_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    writer_.reset();
    out_.reset();  // its destructor flushes: before the file is closed
    if (file_ != nullptr) {
      std::fclose(file_);
    }
    fs::remove_all(dir_);
  }

  TrackInfo process(TrackId id, std::string name, TrackRole role = TrackRole::kOther, std::uint32_t ref = 0) {
    TrackInfo t{id, 0, TrackKind::kProcess, static_cast<std::int32_t>(id), std::move(name), role, ref};
    writer().describe_track(t);
    return t;
  }
  TrackInfo track(TrackId id, TrackId parent, TrackKind kind, std::string name, TrackRole role = TrackRole::kOther,
                  std::uint32_t ref = 0) {
    TrackInfo t{id, parent, kind, 0, std::move(name), role, ref};
    writer().describe_track(t);
    return t;
  }
  VcdWriter& writer(bool logic_only = false) {
    if (!writer_) {
      file_ = std::fopen((dir_ / "out.vcd").c_str(), "wb");
      out_.emplace(file_, "out.vcd");
      writer_.emplace(*out_, names_, dir_.string(), logic_only);
    }
    return *writer_;
  }
  Vcd finish() {
    writer().finish();
    out_->flush();
    EXPECT_FALSE(out_->failed());
    std::fflush(file_);
    std::ifstream in(dir_ / "out.vcd");
    text_.assign(std::istreambuf_iterator<char>(in), {});
    return parse(text_);
  }

  fs::path dir_;
  NameTable names_;
  std::FILE* file_ = nullptr;
  std::optional<BufferedOutput> out_;
  std::optional<VcdWriter> writer_;
  std::string text_;
};

TEST_F(VcdWriterTest, NestedSlicesGiveLevelDepthAndAllEdgesAtTheirTimes) {
  const TrackInfo core = process(1, "Core 0");
  const TrackInfo isr = track(2, 1, TrackKind::kSlices, "uart rx");
  const NameId name = names_.intern("uart rx");
  VcdWriter& w = writer();
  w.simple_slice_begin(100, isr, name);
  w.simple_slice_begin(120, isr, name);  // re-entered
  w.simple_slice_end(130, isr);
  w.simple_slice_end(150, isr);
  w.simple_slice_begin(200, isr, name);
  w.simple_slice_end(201, isr);
  const Vcd vcd = finish();
  EXPECT_NE(vcd.header.find("$timescale 1ns $end"), std::string::npos);
  const Signal& level = vcd.at("tband.Core_0.uart_rx");
  EXPECT_EQ(level.type, "wire");
  EXPECT_EQ(level.width, 1);
  EXPECT_EQ(level.changes, (Changes{{100, "1"}, {150, "0"}, {200, "1"}, {201, "0"}}));
  EXPECT_EQ(vcd.at("tband.Core_0.uart_rx_depth").changes,
            (Changes{{100, "b1"}, {120, "b10"}, {130, "b1"}, {150, "b0"}, {200, "b1"}, {201, "b0"}}));
  // The slices carry the track's own name: no name code signal.
  EXPECT_FALSE(vcd.has("tband.Core_0.uart_rx_name"));
  EXPECT_TRUE(text_.ends_with("#202\n")) << "the end of the dump, 1 ns after the last change";
  (void)core;
}

TEST_F(VcdWriterTest, RunningTaskIsTheTaskIdAndASwitchAtOneTimeIsOneChange) {
  process(1, "Core 0");
  const TrackInfo running = track(2, 1, TrackKind::kSlices, "Running task", TrackRole::kCoreRunning);
  const TrackInfo idle_only = track(3, 1, TrackKind::kSlices, "Never used");
  (void)idle_only;
  // Tasks as the model makes them: a process with the trace's id, its
  // Running track whose slice begins just before the core's.
  std::vector<TrackInfo> task_running;
  const std::vector<std::pair<std::uint32_t, std::string>> tasks{{0x20001000, "IDLE"}, {7, "sender"}, {9, "sender"}};
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto id = static_cast<TrackId>(4 + 2 * i);
    process(id, tasks[i].second, TrackRole::kTask, tasks[i].first);
    task_running.push_back(track(id + 1, id, TrackKind::kSlices, "Running", TrackRole::kTaskRunning));
  }
  const NameId running_name = names_.intern("Running");
  VcdWriter& w = writer();
  const auto switch_to = [&](std::uint64_t ts, std::size_t task) {
    w.simple_slice_begin(ts, task_running[task], running_name);
    w.simple_slice_begin(ts, running, names_.intern(tasks[task].second));
  };
  switch_to(10, 0);
  w.simple_slice_end(50, task_running[0]);
  w.simple_slice_end(50, running);
  switch_to(50, 1);
  w.simple_slice_end(70, task_running[1]);
  w.simple_slice_end(70, running);
  switch_to(70, 2);  // another task of the same name: its own id
  const Vcd vcd = finish();
  // One level change at 10 (dumpvars), none at the switches: the core is never idle.
  EXPECT_EQ(vcd.at("tband.Core_0.Running_task").changes, (Changes{{10, "1"}}));
  EXPECT_EQ(vcd.at("tband.Core_0.Running_task_id").changes,
            (Changes{{10, "b100000000000000001000000000000"}, {50, "b111"}, {70, "b1001"}}));
  EXPECT_FALSE(vcd.has("tband.Core_0.Running_task_name"));
  EXPECT_FALSE(vcd.has("tband.Core_0.Never_used"));  // a track with nothing on it costs no signal
  EXPECT_EQ(w.id_filter(TrackRole::kTask),
            "# tband: task names of the Running_task_id signals' ids\n"
            "00000007 sender\n7 sender\n00000009 sender\n9 sender\n20001000 IDLE\n536875008 IDLE\n");
  // Name codes only for the tasks' own Running slices, none for the task names.
  EXPECT_EQ(w.translate_filter(),
            "# tband: names of the *_name signals' codes (hex as GTKWave shows them, and decimal)\n"
            "00000001 Running\n1 Running\n");
}

TEST_F(VcdWriterTest, ActiveIsrIsTheInnermostHandlersIdAndZWhenNoneRuns) {
  process(1, "Core 0");
  const TrackInfo tick = track(2, 1, TrackKind::kSlices, "tick", TrackRole::kIsr, 3);
  const TrackInfo adc = track(3, 1, TrackKind::kSlices, "ISR 0", TrackRole::kIsr, 0);
  const TrackInfo marker = track(4, 1, TrackKind::kSlices, "marker");
  process(5, "Core 1");
  const TrackInfo other = track(6, 5, TrackKind::kSlices, "uart", TrackRole::kIsr, 3);
  VcdWriter& w = writer();
  w.simple_slice_begin(5, marker, names_.intern("marker"));
  w.simple_slice_begin(10, tick, names_.intern("tick"));
  w.simple_slice_begin(12, adc, names_.intern("ISR 0"));  // nested in tick
  w.simple_slice_end(14, adc);
  w.simple_slice_end(16, tick);
  w.simple_slice_begin(20, adc, names_.intern("ISR 0"));
  w.simple_slice_begin(22, tick, names_.intern("tick"));
  w.simple_slice_end(24, adc);  // the outer one ends first: tick stays active
  w.simple_slice_end(26, tick);
  w.simple_slice_begin(30, other, names_.intern("uart"));
  const Vcd vcd = finish();
  EXPECT_EQ(vcd.at("tband.Core_0.isr.active").type, "integer");
  EXPECT_EQ(vcd.at("tband.Core_0.isr.active").changes,
            (Changes{{5, "bz"}, {10, "b11"}, {12, "b0"}, {14, "b11"}, {16, "bz"}, {20, "b0"}, {22, "b11"}, {26, "bz"}}));
  EXPECT_EQ(vcd.at("tband.Core_0.isr.tick").changes, (Changes{{5, "0"}, {10, "1"}, {16, "0"}, {22, "1"}, {26, "0"}}));
  EXPECT_EQ(vcd.at("tband.Core_0.isr.ISR_0").changes, (Changes{{5, "0"}, {12, "1"}, {14, "0"}, {20, "1"}, {24, "0"}}));
  EXPECT_TRUE(vcd.has("tband.Core_0.marker"));  // not a handler: in the core's scope
  EXPECT_EQ(vcd.at("tband.Core_1.isr.active").changes, (Changes{{5, "bz"}, {30, "b11"}}));
  EXPECT_EQ(w.id_filter(TrackRole::kIsr),
            "# tband: handler names of the isr.active signals' ids\n"
            "00000000 ISR 0\n0 ISR 0\n00000003 tick / uart\n3 tick / uart\n");
}

TEST_F(VcdWriterTest, SaveFileShowsEverySignalGroupedWithItsFilter) {
  process(1, "Core 0");
  const TrackInfo isr = track(2, 1, TrackKind::kSlices, "tick", TrackRole::kIsr, 3);
  const TrackInfo running = track(3, 1, TrackKind::kSlices, "Running task", TrackRole::kCoreRunning);
  process(4, "idle", TrackRole::kTask, 1);
  const TrackInfo task_running = track(5, 4, TrackKind::kSlices, "Running", TrackRole::kTaskRunning);
  const TrackInfo state = track(6, 4, TrackKind::kSlices, "State");
  const TrackInfo fill = track(7, 0, TrackKind::kCounter, "fill");
  const TrackInfo temp = track(8, 0, TrackKind::kCounter, "temp");
  VcdWriter& w = writer();
  w.simple_slice_begin(1, task_running, names_.intern("Running"));
  w.simple_slice_begin(1, running, names_.intern("idle"));
  w.simple_slice_begin(1, state, names_.intern("Running on core 0"));
  w.simple_slice_begin(2, isr, names_.intern("tick"));
  w.counter(3, fill, 2);
  w.counter_double(3, temp, 2.5);
  const Vcd vcd = finish();
  const std::string save =
      w.save_file({"/d/t.vcd", "/d/t.vcd.filter", "/d/t.vcd.tasks.filter", "/d/t.vcd.isrs.filter", "/d/t.vcd.gtkw"});
  EXPECT_TRUE(save.starts_with("[*] tband: GTKWave save file for /d/t.vcd\n[dumpfile] \"/d/t.vcd\"\n"
                               "[savefile] \"/d/t.vcd.gtkw\"\n[timestart] 0\n"))
      << save;
  // Every signal once, in groups: cores, then global tracks, then tasks.
  std::vector<std::string> listed, groups;
  std::istringstream lines(save);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("tband.")) {
      listed.push_back(line);
      EXPECT_TRUE(vcd.has(line)) << line;
    } else if (line.starts_with("-")) {
      groups.push_back(line);
    }
  }
  EXPECT_EQ(listed.size(), vcd.signals.size());
  EXPECT_EQ(groups, (std::vector<std::string>{"-Core 0", "-Core 0", "-Global", "-Global", "-idle", "-idle"}));
  EXPECT_NE(save.find("@2024\n^2 /d/t.vcd.tasks.filter\ntband.Core_0.Running_task_id\n"), std::string::npos) << save;
  EXPECT_NE(save.find("@2024\n^3 /d/t.vcd.isrs.filter\ntband.Core_0.isr.active\n"), std::string::npos) << save;
  EXPECT_NE(save.find("@2024\n^1 /d/t.vcd.filter\ntband.idle.State_name\n"), std::string::npos) << save;
  EXPECT_NE(save.find("@28\ntband.Core_0.isr.tick\n"), std::string::npos) << save;
  EXPECT_NE(save.find("@24\ntband.fill\n"), std::string::npos) << save;
  EXPECT_NE(save.find("@40020\ntband.temp\n"), std::string::npos) << save;
}

TEST_F(VcdWriterTest, CountersAreIntegersUntilAFloatMakesThemReal) {
  const TrackInfo fill = track(1, 0, TrackKind::kCounter, "jobs fill");
  const TrackInfo temp = track(2, 0, TrackKind::kCounter, "temperature");
  const TrackInfo late = track(3, 0, TrackKind::kCounter, "late");
  VcdWriter& w = writer();
  w.counter(5, fill, 3);
  w.counter(6, late, 1);
  w.counter(7, fill, -2);
  w.counter(8, temp, 21);
  w.counter_double(9, temp, 21.5);
  w.counter(10, fill, -2);  // no change: nothing written
  const Vcd vcd = finish();
  const Signal& f = vcd.at("tband.jobs_fill");
  EXPECT_EQ(f.type, "integer");
  EXPECT_EQ(f.width, 64);
  EXPECT_EQ(f.changes, (Changes{{5, "b11"}, {7, "b" + std::string(63, '1') + "0"}}));
  const Signal& t = vcd.at("tband.temperature");
  EXPECT_EQ(t.type, "real");
  EXPECT_EQ(t.changes, (Changes{{8, "r21"}, {9, "r21.5"}}));
  // Not sampled yet at the first time: undefined there.
  EXPECT_EQ(vcd.at("tband.late").changes, (Changes{{5, "bx"}, {6, "b1"}}));
}

TEST_F(VcdWriterTest, InstantsAreEventsWithTheirNameCode) {
  const TrackInfo diag = track(1, 0, TrackKind::kSlices, "Diagnostics");
  VcdWriter& w = writer();
  w.simple_instant(40, diag, names_.intern("decode error"));
  w.simple_instant(45, diag, names_.intern("decode error"));
  w.simple_instant(45, diag, names_.intern("gap"));  // two at one time: one event, the last name
  const Vcd vcd = finish();
  const Signal& e = vcd.at("tband.Diagnostics");
  EXPECT_EQ(e.type, "event");
  EXPECT_EQ(e.changes, (Changes{{40, "1"}, {45, "1"}}));
  EXPECT_EQ(vcd.at("tband.Diagnostics_name").changes, (Changes{{40, "b1"}, {45, "b10"}}));
}

TEST_F(VcdWriterTest, TimeNeverGoesBackwards) {
  const TrackInfo m = track(1, 0, TrackKind::kSlices, "marker");
  const NameId name = names_.intern("marker");
  VcdWriter& w = writer();
  w.simple_slice_begin(1000, m, name);
  w.simple_slice_end(900, m);  // earlier than the begin: written at 1000
  w.simple_slice_begin(1100, m, name);
  const Vcd vcd = finish();
  EXPECT_EQ(w.clamped(), 1u);
  EXPECT_NE(vcd.header.find("1 value change(s) earlier"), std::string::npos);
  EXPECT_EQ(vcd.at("tband.marker").changes, (Changes{{1000, "0"}, {1100, "1"}}));
}

TEST_F(VcdWriterTest, ScopesUseFinalNamesMadeValidAndUnique) {
  process(1, "Task \"a b\"");
  const TrackInfo isr = track(2, 0, TrackKind::kSlices, "ISR 5");
  const TrackInfo state = track(3, 1, TrackKind::kSlices, "State");
  const TrackInfo twin = track(4, 1, TrackKind::kSlices, "State");
  VcdWriter& w = writer();
  w.simple_slice_begin(1, isr, names_.intern("ISR 5"));
  w.simple_slice_begin(2, state, names_.intern("Ready"));
  w.simple_slice_begin(3, twin, names_.intern("State"));
  TrackInfo renamed = isr;
  renamed.name = "adc.done[0]";  // a name that arrived after first use
  w.describe_track(renamed);
  w.simple_slice_end(4, renamed);
  const Vcd vcd = finish();
  EXPECT_EQ(vcd.at("tband.adc_done_0_").changes, (Changes{{1, "1"}, {4, "0"}}));
  // Every signal has its value at the first time ($dumpvars).
  EXPECT_EQ(vcd.at("tband.Task__a_b_.State").changes, (Changes{{1, "0"}, {2, "1"}}));
  EXPECT_EQ(vcd.at("tband.Task__a_b_.State_name").changes, (Changes{{1, "b0"}, {2, "b10"}}));
  EXPECT_EQ(vcd.at("tband.Task__a_b_.State_2").changes, (Changes{{1, "0"}, {3, "1"}}));
  // Identifiers are short: one character each for the first 94 signals.
  std::istringstream lines(text_);
  int vars = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("$var ", 0) == 0) {
      ++vars;
      std::istringstream words(line);
      std::string var, type, width, id;
      words >> var >> type >> width >> id;
      EXPECT_EQ(id.size(), 1u) << line;
    }
  }
  EXPECT_EQ(vars, 4);
}

TEST_F(VcdWriterTest, ManyCallsNeedNoMemoryPerCallAndLeaveNoSpoolFile) {
  const TrackInfo m = track(1, 0, TrackKind::kSlices, "m");
  const NameId name = names_.intern("m");
  VcdWriter& w = writer();
  for (std::uint64_t i = 0; i < 200000; ++i) {
    w.simple_slice_begin(i * 10, m, name);
    w.simple_slice_end(i * 10 + 5, m);
  }
  const Vcd vcd = finish();
  const Signal& s = vcd.at("tband.m");
  ASSERT_EQ(s.changes.size(), 400000u);
  EXPECT_EQ(s.changes[399999], (std::pair<std::uint64_t, std::string>{1999995, "0"}));
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir_)) left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"out.vcd"});  // the spool was unlinked at once
}

TEST_F(VcdWriterTest, LogicOnlyKeepsJustTheOneBitSignals) {
  VcdWriter& w = writer(true);
  const TrackInfo m = track(1, 0, TrackKind::kSlices, "m");
  const TrackInfo c = track(2, 0, TrackKind::kCounter, "c");
  w.simple_slice_begin(1, m, names_.intern("m"));
  w.simple_slice_begin(2, m, names_.intern("inner"));
  w.simple_instant(3, m, names_.intern("i"));
  w.counter(4, c, 500);
  w.simple_slice_end(5, m);
  const Vcd vcd = finish();
  ASSERT_EQ(vcd.signals.size(), 1u);
  EXPECT_EQ(vcd.at("tband.m").changes, (Changes{{1, "1"}}));
  EXPECT_EQ(text_.find("\nb"), std::string::npos) << text_;  // no vector value anywhere
  EXPECT_EQ(text_.find("\nr"), std::string::npos) << text_;
}

TEST(VcdWriterSpool, AMissingFolderIsAClearError) {
  NameTable names;
  std::FILE* f = std::tmpfile();
  BufferedOutput out{f, "x.vcd"};
  try {
    VcdWriter w{out, names, "/no/such/folder"};
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string{e.what()}.find("x.vcd: cannot create the VCD spool file in /no/such/folder"),
              std::string::npos)
        << e.what();
  }
  out.flush();
  std::fclose(f);
}

}  // namespace
}  // namespace tband::test
