// Runs the firmware written for the reference tracer (reference_firmware.c)
// on the stand-in FreeRTOS V10 kernel and the host port, in the configuration
// it was built with, and decodes what it traced: every call of the reference's
// API gives the events its documentation describes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "FreeRTOS.h"
#include "reference_firmware.h"
#include "task.h"
#include "tband.h"
#include "tband_port.h"
#include "timers.h"
#include "trace_capture.hpp"

namespace tband::test {
namespace {

// Event texts without timestamps and without the periodic dropped_evt_cnt.
[[maybe_unused]] std::vector<std::string> untimed(const std::vector<DecodedEvent>& events) {
  static const std::regex kTs{" ts=[0-9]+"};
  std::vector<std::string> out;
  for (const DecodedEvent& e : events) {
    if (!e.dropped_cnt) {
      out.push_back(std::regex_replace(e.text, kTs, ""));
    }
  }
  return out;
}

[[maybe_unused]] std::vector<std::string> starting_with(const std::vector<std::string>& texts, const std::vector<std::string>& prefixes) {
  std::vector<std::string> out;
  for (const std::string& t : texts) {
    for (const std::string& p : prefixes) {
      if (t.rfind(p + " ", 0) == 0) {
        out.push_back(t);
        break;
      }
    }
  }
  return out;
}

[[maybe_unused]] bool contains(const std::vector<std::string>& texts, const std::string& text) {
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

// What the firmware does, as the reference's documentation has it: set-up,
// trace started, scheduler started, the sensor's interrupt, one round of
// the sampling task, trace stopped. Returns the trace as the host would get it.
std::vector<std::uint8_t> run_firmware(const TraceCapture& capture) {
  tband_host_set_clock(TBAND_HOST_CLOCK_COUNTER);
  fw_setup();
  EXPECT_EQ(fw_start_trace(), 0);
  vTaskStartScheduler();
  standin_timer_task_wait();  // the timer task runs first and waits for a command
  fw_scheduler_started();
  EXPECT_STREQ(standin_task_name(standin_running(0)), "sampler");
  standin_isr_enter();
  fw_sensor_isr();
  standin_isr_exit();
  fw_sampler_step();
  EXPECT_EQ(fw_stop_trace(), 0);

  std::vector<std::uint8_t> trace;
  std::size_t len = 0;
  if constexpr (tband_configUSE_BACKEND_SNAPSHOT == 1) {  // the metadata buffer, then the snapshot
    const std::uint8_t* metadata = fw_metadata(&len);
    trace.assign(metadata, metadata + len);
    const std::uint8_t* snapshot = fw_trace(&len);
    trace.insert(trace.end(), snapshot, snapshot + len);
  } else if constexpr (tband_configUSE_BACKEND_EXTERNAL == 1) {
    const std::uint8_t* kept = fw_trace(&len);
    trace.assign(kept, kept + len);
  } else {
    trace = capture.bytes(0);
  }
  return trace;
}

#if tband_configENABLE == 1

TEST(ReferenceFirmware, EveryCallIsTraced) {
  TraceCapture capture;
  const std::vector<std::uint8_t> trace = run_firmware(capture);
  const std::vector<DecodedEvent> events = decode_stream(trace);
  const std::vector<std::string> texts = untimed(events);
  if constexpr (tband_configUSE_BACKEND_EXTERNAL == 1) {
    EXPECT_TRUE(capture.bytes(0).empty()) << "the host port's own external hook must not be used";
  }

  // Names, from the metadata buffer or the live trace.
  for (const char* name : {R"(ts_resolution_ns ns_per_ts=1)", R"(isr_name isr_id=5 name="sensor_irq")",
                           R"(evtmarker_name evtmarker_id=0 name="sensor")",
                           R"(evtmarker_name evtmarker_id=1 name="dsp")", R"(valmarker_name valmarker_id=2 name="fifo")",
                           R"(evtmarker_name evtmarker_id=10 name="read_sensor")",
                           R"(evtmarker_name evtmarker_id=11 name="filter")"}) {
    EXPECT_TRUE(contains(texts, name)) << name;
  }

  // The base hooks and the function markers, in the order they ran.
  EXPECT_EQ(starting_with(texts, {"isr_enter", "isr_exit", "evtmarker", "evtmarker_begin", "evtmarker_end",
                                  "valmarker"}),
            (std::vector<std::string>{
                "isr_enter isr_id=5",
                R"(evtmarker evtmarker_id=0 msg="rdy")",
                "isr_exit isr_id=5",
                R"(evtmarker_begin evtmarker_id=0 msg="acq")",
                R"(evtmarker evtmarker_id=10 msg="")",
                "evtmarker_end evtmarker_id=0",
                R"(evtmarker_begin evtmarker_id=1 msg="")",
                R"(evtmarker_begin evtmarker_id=1 msg="fft")",
                R"(evtmarker_begin evtmarker_id=11 msg="")",
                "evtmarker_end evtmarker_id=11",
                "evtmarker_end evtmarker_id=1",
                "evtmarker_end evtmarker_id=1",
                "valmarker valmarker_id=2 val=1",
            }));

  // Each resource named by its own naming function, of the kind it was created as.
  std::map<std::string, std::string> names_by_id;
  std::map<std::string, std::string> kinds_by_id;
  static const std::regex kName{R"(queue_name queue_id=(\d+) name="(\w+)\")"};
  static const std::regex kKind{R"(queue_kind queue_id=(\d+) kind=(\w+))"};
  for (const std::string& t : texts) {
    std::smatch m;
    if (std::regex_match(t, m, kName)) {
      names_by_id[m[1]] = m[2];
    } else if (std::regex_match(t, m, kKind)) {
      kinds_by_id[m[1]] = m[2];
    }
  }
  std::map<std::string, std::string> kind_by_name;
  for (const auto& [id, name] : names_by_id) {
    kind_by_name[name] = kinds_by_id[id];
  }
  EXPECT_EQ(kind_by_name, (std::map<std::string, std::string>{{"samples", "FRQK_QUEUE"},
                                                              {"data_ready", "FRQK_BINARY_SEMPHR"},
                                                              {"slots", "FRQK_COUNTING_SEMPHR"},
                                                              {"bus", "FRQK_MUTEX"},
                                                              {"config", "FRQK_RECURSIVE_MUTEX"},
                                                              {"TmrQ", "FRQK_QUEUE"}}));  // the kernel's own

  // The tasks, the idle and timer tasks (tband_freertos_scheduler_started()),
  // and the task-local markers of the running task.
  for (const char* name : {R"(task_name task_id=1 name="sampler")", R"(task_name task_id=2 name="logger")",
                           R"(task_name task_id=3 name="IDLE")", R"(task_name task_id=4 name="Tmr Svc")",
                           "task_is_idle_task task_id=3 core_id=0", "task_is_timer_task task_id=4",
                           "task_switched_in task_id=1", R"(task_evtmarker_name evtmarker_id=1 task_id=1 name="step")",
                           R"(task_valmarker_name valmarker_id=2 task_id=1 name="round")"}) {
    EXPECT_TRUE(contains(texts, name)) << name;
  }
  EXPECT_EQ(starting_with(texts, {"task_evtmarker", "task_evtmarker_begin", "task_evtmarker_end", "task_valmarker"}),
            (std::vector<std::string>{
                R"(task_evtmarker_begin evtmarker_id=1 msg="")",
                "task_valmarker valmarker_id=2 val=1",
                R"(task_evtmarker evtmarker_id=1 msg="done")",
                "task_evtmarker_end evtmarker_id=1",
            }));

  if constexpr (tband_configUSE_BACKEND_EXTERNAL == 1) {
    // Traced from boot: task creation as the reference writes it.
    const std::vector<std::string> creation = starting_with(texts, {"task_created", "task_priority_set", "task_name"});
    EXPECT_EQ(std::vector<std::string>(creation.begin(), creation.begin() + 6),
              (std::vector<std::string>{"task_created task_id=1", "task_priority_set task_id=1 priority=2",
                                        R"(task_name task_id=1 name="sampler")", "task_created task_id=2",
                                        "task_priority_set task_id=2 priority=1",
                                        R"(task_name task_id=2 name="logger")"}));
    // tband_submit_to_backend() was told which events are metadata.
    const auto metadata = static_cast<std::size_t>(
        std::count_if(events.begin(), events.end(), [](const DecodedEvent& e) { return !e.ts; }));
    EXPECT_EQ(fw_metadata_frames(), metadata);
  }
}

#else

TEST(ReferenceFirmware, TracingOffTracesNothing) {
  TraceCapture capture;
  EXPECT_TRUE(run_firmware(capture).empty());
  // The firmware and the kernel ran all the same (the sampler ran its round).
  EXPECT_STREQ(standin_task_name(standin_running(0)), "sampler");
}

#endif

}  // namespace
}  // namespace tband::test
