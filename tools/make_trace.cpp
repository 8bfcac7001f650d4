// tband_make_trace: writes example traces with the generated target encoder.
//   tband_make_trace mix N OUT          the benchmark mix, N events, after its names
//   tband_make_trace ctf-mix N DIR      the same N events as a CTF trace (for babeltrace2)
//   tband_make_trace baremetal OUT      markers, value markers, nested ISRs
//   tband_make_trace freertos OUT       tasks, queues, a mutex, task-local markers
//   tband_make_trace dualcore PREFIX    PREFIX0.bin and PREFIX1.bin, one file per core
//   tband_make_trace user-mix N OUT     the benchmark mix with user events of the lab group
//   tband_make_trace lab OUT [ID|none]  lab events of every display rule, after schema_id (with ID in
//                                       hex instead of the lab schema's, or none)
//   tband_make_trace lab-spans OUT      lab spans that do not nest, and an end without a begin
//   tband_make_trace lab-names OUT      a lab channel named after its level track was made
// The encoder is tband's schema composed with the lab group (tests/user_events/schema/lab.yaml).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "mix_encoder.hpp"
#include "user_mix_encoder.hpp"
#include "ctf_writer.hpp"
#include "trace_file.hpp"

namespace {

namespace enc = tband::enc;
using tband::tools::TraceFile;

void write_mix(const std::string& path, std::uint64_t events) {
  TraceFile f{path};
  tband::bench::add_mix_metadata([&](auto&& encode) { f.add(encode); });
  tband::bench::BenchmarkMix mix;
  for (std::uint64_t i = 0; i < events; ++i) {
    const tband::bench::MixStep s = mix.next();
    f.add([&](std::uint8_t* b) { return tband::bench::encode_mix_step(s, b); });
  }
}

// The firmware of the seed's marker examples: a sensor ISR, acquisition and
// DSP spans (nested), a buffer level, a tick interrupt. 40 ns per tick.
void write_baremetal(const std::string& path) {
  TraceFile f{path};
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 40); });
  f.add([](std::uint8_t* b) { return enc::encode_isr_name(b, 1, "sensor_rdy"); });
  f.add([](std::uint8_t* b) { return enc::encode_isr_name(b, 2, "systick"); });
  f.add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 0, "sensor"); });
  f.add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 1, "dsp"); });
  f.add([](std::uint8_t* b) { return enc::encode_valmarker_name(b, 0, "buf"); });
  std::uint64_t t = 100;
  for (int round = 0; round < 3; ++round) {
    f.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, t, 1); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker(b, t + 2, 0, "rdy"); });
    f.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, t + 3, 2); });  // nested: systick
    f.add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, t + 5, 2); });
    f.add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, t + 8, 1); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, t + 10, 0, "acq"); });
    f.add([&](std::uint8_t* b) { return enc::encode_valmarker(b, t + 12, 0, 64 * (round + 1)); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, t + 20, 0); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, t + 21, 1, ""); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, t + 22, 1, "fft"); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, t + 30, 1); });
    f.add([&](std::uint8_t* b) { return enc::encode_valmarker(b, t + 31, 0, -8); });
    f.add([&](std::uint8_t* b) { return enc::encode_evtmarker_end(b, t + 35, 1); });
    t += 100;
  }
}

// Two tasks and the idle task on one core: "sender" (priority 2) fills a
// queue and takes a mutex, "receiver" (priority 1) drains the queue and
// delays. 10 ns per tick.
void write_freertos(const std::string& path) {
  TraceFile f{path};
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); });
  f.add([](std::uint8_t* b) { return enc::encode_task_name(b, 1, "IDLE"); });
  f.add([](std::uint8_t* b) { return enc::encode_task_is_idle_task(b, 1, 0); });
  f.add([](std::uint8_t* b) { return enc::encode_task_name(b, 2, "sender"); });
  f.add([](std::uint8_t* b) { return enc::encode_task_name(b, 3, "receiver"); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_name(b, 10, "jobs"); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 10, enc::FrQueueKind::FRQK_QUEUE); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_name(b, 11, "bus_lock"); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_kind(b, 11, enc::FrQueueKind::FRQK_MUTEX); });
  f.add([](std::uint8_t* b) { return enc::encode_task_evtmarker_name(b, 5, 2, "produce"); });
  f.add([](std::uint8_t* b) { return enc::encode_task_valmarker_name(b, 6, 3, "backlog"); });
  f.add([](std::uint8_t* b) { return enc::encode_task_created(b, 10, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_task_created(b, 11, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_priority_set(b, 12, 2, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_created(b, 13, 3); });
  f.add([](std::uint8_t* b) { return enc::encode_task_priority_set(b, 14, 3, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_created(b, 15, 10); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 15, 10, 0); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_created(b, 16, 11); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_cur_length(b, 16, 11, 1); });
  // sender runs: takes the mutex, sends twice, gives the mutex, delays.
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 100, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_evtmarker_begin(b, 101, 5, "batch"); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 102, 11, 0); });  // mutex taken
  f.add([](std::uint8_t* b) { return enc::encode_queue_send(b, 110, 10, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_send(b, 120, 10, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_send(b, 125, 11, 1); });  // mutex given
  f.add([](std::uint8_t* b) { return enc::encode_task_evtmarker_end(b, 126, 5); });
  f.add([](std::uint8_t* b) { return enc::encode_task_to_rdy_state(b, 127, 3); });
  f.add([](std::uint8_t* b) { return enc::encode_curtask_delay(b, 128, 50); });
  // receiver runs: receives both, blocks on the empty queue.
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 130, 3); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 140, 10, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_task_valmarker(b, 141, 6, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_queue_receive(b, 150, 10, 0); });
  f.add([](std::uint8_t* b) { return enc::encode_task_valmarker(b, 151, 6, 0); });
  f.add([](std::uint8_t* b) { return enc::encode_curtask_block_on_queue_receive(b, 155, 10, 100); });
  // idle, then the sender again after its delay (priority boosted meanwhile).
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 160, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_task_priority_inherit(b, 170, 2, 3); });
  f.add([](std::uint8_t* b) { return enc::encode_task_to_rdy_state(b, 178, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 180, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_priority_disinherit(b, 185, 2, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_task_suspended(b, 190, 3); });
  f.add([](std::uint8_t* b) { return enc::encode_task_deleted(b, 195, 2); });  // deletes itself
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 200, 1); });
}

// Two cores, one file each; a marker span on core 0 and ISRs on both.
void write_dualcore(const std::string& prefix) {
  for (std::uint32_t core = 0; core < 2; ++core) {
    TraceFile f{prefix + std::to_string(core) + ".bin"};
    if (core == 0) {
      f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
      f.add([](std::uint8_t* b) { return enc::encode_evtmarker_name(b, 3, "frame"); });
    }
    f.add([&](std::uint8_t* b) { return enc::encode_isr_name(b, 1, core == 0 ? "uart0" : "uart1"); });
    f.add([&](std::uint8_t* b) { return enc::encode_core_id(b, 1, core); });
    for (std::uint64_t i = 0; i < 4; ++i) {
      const std::uint64_t t = 10 + 20 * i + core * 5;
      f.add([&](std::uint8_t* b) { return enc::encode_isr_enter(b, t, 1); });
      f.add([&](std::uint8_t* b) { return enc::encode_isr_exit(b, t + 3, 1); });
    }
    if (core == 0) {
      f.add([](std::uint8_t* b) { return enc::encode_evtmarker_begin(b, 90, 3, "render"); });
      f.add([](std::uint8_t* b) { return enc::encode_evtmarker_end(b, 95, 3); });
    }
  }
}

void write_user_mix(const std::string& path, std::uint64_t events) {
  TraceFile f{path};
  f.add([](std::uint8_t* b) { return enc::encode_schema_id(b, enc::kSchemaTraceId, enc::kUserGroupNames); });
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  tband::bench::BenchmarkMix mix;
  for (std::uint64_t i = 0; i < events; ++i) {
    const tband::bench::MixStep s = mix.next();
    f.add([&](std::uint8_t* b) { return tband::bench::encode_user_mix_step(s, b); });
  }
}

// Two FreeRTOS tasks on one core and every kind of display rule of the lab
// group: nested job spans, motor speed counters (f32), a level counter under
// the core (s32), motor states under the running task, and events without
// rules (instants on "Other events"). 10 ns per tick.
void write_lab(const std::string& path, const std::string& schema_id) {
  TraceFile f{path};
  if (schema_id != "none") {
    const std::uint64_t id = schema_id.empty() ? enc::kSchemaTraceId : std::strtoull(schema_id.c_str(), nullptr, 16);
    f.add([&](std::uint8_t* b) { return enc::encode_schema_id(b, id, enc::kUserGroupNames); });
  }
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 10); });
  f.add([](std::uint8_t* b) { return enc::encode_task_name(b, 1, "ctrl"); });
  f.add([](std::uint8_t* b) { return enc::encode_task_name(b, 2, "io"); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_channel_name(b, 3, "left"); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_config(b, 2.5f, true); });
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 100, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_begin(b, 110, 1, enc::LabMode::LAB_ON); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_speed(b, 115, 1, 1500.5f); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_state(b, 118, 1, enc::LabMode::LAB_ON, "start"); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_begin(b, 120, 2, enc::LabMode::LAB_OFF); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_level(b, 125, 3, -40); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_speed(b, 130, 2, 900.25f); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_end(b, 140, 2, 0); });
  f.add([](std::uint8_t* b) { return enc::encode_task_switched_in(b, 150, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_state(b, 155, 2, enc::LabMode::LAB_MAX, ""); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_level(b, 160, 3, 12); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_speed(b, 165, 1, 1480.0f); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_end(b, 170, 1, -5); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_note(b, 175, enc::LabMode::LAB_OFF, enc::FrQueueKind::FRQK_MUTEX, "plain"); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_integers(b, 176, 255, 65535, 4294967295u, -128, -32768, INT32_MIN, true); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_wide(b, 177, UINT64_MAX, INT64_MIN, -0.5f, 1e300); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_optional(b, 178, 4); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_tick(b, 179); });
}

// Spans that do not nest on one track (job 1 ends while job 2, begun inside
// it, is open) and an end with no begin (job 9).
void write_lab_spans(const std::string& path) {
  TraceFile f{path};
  f.add([](std::uint8_t* b) { return enc::encode_schema_id(b, enc::kSchemaTraceId, enc::kUserGroupNames); });
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_begin(b, 10, 1, enc::LabMode::LAB_ON); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_begin(b, 20, 2, enc::LabMode::LAB_ON); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_end(b, 30, 1, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_end(b, 40, 2, 2); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_job_end(b, 50, 9, 9); });
}

// A name that arrives late: channel 5's level, then lab_channel_name (a name
// rule) names channel 5, then another level; channel 6 is never named.
void write_lab_names(const std::string& path) {
  TraceFile f{path};
  f.add([](std::uint8_t* b) { return enc::encode_schema_id(b, enc::kSchemaTraceId, enc::kUserGroupNames); });
  f.add([](std::uint8_t* b) { return enc::encode_ts_resolution_ns(b, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_level(b, 60, 5, 7); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_channel_name(b, 5, "right"); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_level(b, 65, 6, 1); });
  f.add([](std::uint8_t* b) { return enc::encode_lab_level(b, 70, 5, 8); });
}

int usage() {
  std::fputs(
      "usage: tband_make_trace mix N OUT | ctf-mix N DIR | baremetal OUT | freertos OUT | dualcore PREFIX\n"
      "       | user-mix N OUT | lab OUT [ID|none] | lab-spans OUT | lab-names OUT\n",
      stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    return usage();
  }
  const std::string what = argv[1];
  try {
    if ((what == "mix" || what == "ctf-mix" || what == "user-mix") && argc == 4) {
      const std::uint64_t n = std::strtoull(argv[2], nullptr, 10);
      if (what == "mix") {
        write_mix(argv[3], n);
      } else if (what == "user-mix") {
        write_user_mix(argv[3], n);
      } else {
        tband::tools::write_ctf_mix(argv[3], n);
      }
    } else if (what == "baremetal" && argc == 3) {
      write_baremetal(argv[2]);
    } else if (what == "freertos" && argc == 3) {
      write_freertos(argv[2]);
    } else if (what == "dualcore" && argc == 3) {
      write_dualcore(argv[2]);
    } else if (what == "lab" && (argc == 3 || argc == 4)) {
      write_lab(argv[2], argc == 4 ? argv[3] : "");
    } else if (what == "lab-spans" && argc == 3) {
      write_lab_spans(argv[2]);
    } else if (what == "lab-names" && argc == 3) {
      write_lab_names(argv[2]);
    } else {
      return usage();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tband_make_trace: %s\n", e.what());
    return 1;
  }
  return 0;
}
