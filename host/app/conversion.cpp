#include "app/conversion.hpp"

#include <memory>

#include "common/buffered_output.hpp"
#include "import/decode_pipeline.hpp"
#include "import/event_stream.hpp"
#include "import/interpret_item.hpp"
#include "import/threadx_buffer.hpp"
#include "import/threadx_import.hpp"
#include "json/json_writer.hpp"
#include "perfetto/perfetto_writer.hpp"
#include "vcd/vcd_writer.hpp"

namespace tband {

void check_inputs(const std::vector<InputSpec>& inputs, std::uint32_t core_count) {
  if (inputs.empty()) {
    throw UsageError("no input given");
  }
  if (core_count == 0) {
    throw UsageError("--core-count must be at least 1");
  }
  std::vector<const InputSpec*> by_core(core_count, nullptr);
  std::size_t stdin_count = 0;
  for (const InputSpec& in : inputs) {
    stdin_count += in.is_stdin() ? 1u : 0u;
    const std::uint32_t c = in.core.value_or(0);
    if (c >= core_count) {
      throw UsageError(in.display_name() + "@" + std::to_string(c) + ": core " + std::to_string(c) +
                       " is not below --core-count " + std::to_string(core_count));
    }
    if (by_core[c] != nullptr) {
      throw UsageError(by_core[c]->display_name() + " and " + in.display_name() + " are both core " +
                       std::to_string(c) + " (give each file its core as file@N)");
    }
    by_core[c] = &in;
  }
  if (stdin_count > 1) {
    throw UsageError("stdin ('-') can be given only once");
  }
}

namespace {

// The interpreter's part of a batch from the decoding thread, which did the
// SchemaSet's part (classify_item()).
void interpret_batch(TraceInterpreter& interpreter, const DecodedBatch& batch,
                     const std::vector<std::string>& input_names, ItemCounts& counts) {
  for (const BatchEntry& entry : batch.entries()) {
    const EventOrigin origin{entry.core, &input_names[entry.input], &entry.at, entry.has_ts, entry.ts};
    interpret_classified(
        interpreter, entry.kind, entry.result, [&]() -> const DynamicEvent& { return batch.dynamic(entry.extra); },
        [&]() -> const std::string& { return batch.description(entry.extra); }, origin, counts);
  }
}

bool use_pipeline(const ConversionOptions& options) {
  // Auto is one thread. Two pay only where handing every decoded event to
  // the other core costs less than the overlap gains, and tband cannot tell
  // that from here (a virtual machine often shows no cache topology). On the
  // 2-core machines measured, two threads were never faster, even when idle
  // (bench/RESULTS.md, "Conversion on two threads" and "Auto: one thread"):
  // since one thread got faster they are 1.4x slower, at 2.6 times the CPU
  // time. --threads 2 stays for machines where they do pay.
  return options.threads == ConversionThreads::kTwo;
}

void convert_tband(const ConversionOptions& options, std::vector<std::unique_ptr<EventStream>>& streams,
                   const std::vector<std::string>& input_names, std::optional<std::uint64_t> total_bytes,
                   Timeline& timeline, ConversionResult& result);

// A ThreadX trace buffer: read whole, imported by import/threadx_import.
void convert_threadx(const ConversionOptions& options, InputReader& reader, Timeline& timeline,
                     ConversionResult& result) {
  if (options.inputs.size() != 1) {
    throw UsageError("a ThreadX trace buffer (" + reader.spec().display_name() +
                     ") is converted on its own: give it as the only input");
  }
  std::vector<std::uint8_t> bytes;
  for (auto chunk = reader.next(); !chunk.empty(); chunk = reader.next()) {
    if (bytes.size() + chunk.size() > InputReader::kMaxDetectionBuffer) {
      throw InputError(reader.spec().display_name() + ": a ThreadX trace buffer larger than " +
                       std::to_string(InputReader::kMaxDetectionBuffer >> 20) + " MiB");
    }
    bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  }
  result.input_bytes = reader.raw_bytes_read();
  threadx::ImportResult imported;
  try {
    imported = threadx::import_buffer(bytes, reader.spec().display_name(),
                                      {options.threadx_clock_hz, options.interpreter.observer}, timeline,
                                      result.diagnostics);
  } catch (const threadx::BufferError& e) {
    throw InputError(reader.spec().display_name() + ": " + e.what());
  }
  result.events = imported.events;
  result.first_ts_ns = imported.first_ts_ns;
  result.last_ts_ns = imported.last_ts_ns;
  result.notes.push_back(reader.spec().display_name() + ": format threadx");
  for (std::string& note : imported.notes) {
    result.notes.push_back(std::move(note));
  }
}

}  // namespace

ConversionResult convert(const ConversionOptions& options) {
  check_inputs(options.inputs, options.interpreter.core_count);
  ConversionResult result;

  std::vector<std::unique_ptr<EventStream>> streams;
  std::vector<std::string> input_names;
  std::optional<std::uint64_t> total_bytes = 0;
  std::unique_ptr<InputReader> threadx_reader;  // a ThreadX trace buffer (the only input, or an error)
  for (const InputSpec& spec : options.inputs) {
    auto reader = std::make_unique<InputReader>(spec, options.format);
    if (reader->format_name() == "threadx") {
      threadx_reader = std::move(reader);
      continue;
    }
    if (reader->raw_size() && total_bytes) {
      *total_bytes += *reader->raw_size();
    } else {
      total_bytes.reset();
    }
    input_names.push_back(spec.display_name());
    streams.push_back(
        std::make_unique<EventStream>(std::move(reader), static_cast<std::uint32_t>(streams.size()), options.schemas));
  }

  NameTable names;
  Timeline timeline{names};
  std::optional<BufferedOutput> perfetto_out;
  std::optional<PerfettoWriter> perfetto;
  std::optional<BufferedOutput> json_out;
  std::optional<JsonWriter> json;
  if (options.perfetto.file != nullptr) {
    perfetto_out.emplace(options.perfetto.file, options.perfetto.name);
    perfetto.emplace(*perfetto_out, names);
    timeline.add_sink(*perfetto);
  }
  if (options.json.file != nullptr) {
    json_out.emplace(options.json.file, options.json.name);
    json.emplace(*json_out, names);
    timeline.add_sink(*json);
  }
  std::optional<BufferedOutput> vcd_out;
  std::optional<VcdWriter> vcd;
  if (options.vcd.file != nullptr) {
    vcd_out.emplace(options.vcd.file, options.vcd.name);
    vcd.emplace(*vcd_out, names, options.vcd_spool_dir, options.vcd_logic_only);
    timeline.add_sink(*vcd);
  }

  // Each format has its own way to give the tick length; the other's option
  // would do nothing, and a user who gave it expects it to.
  if (threadx_reader && options.interpreter.assumed_ns_per_ts != 0) {
    result.unused_options.push_back({UnusedTickOption::Option::kTsResolution, threadx_reader->spec().display_name()});
  }
  if (!threadx_reader && options.threadx_clock_hz && !input_names.empty()) {
    result.unused_options.push_back({UnusedTickOption::Option::kThreadxClock, input_names.front()});
  }
  if (threadx_reader) {
    convert_threadx(options, *threadx_reader, timeline, result);
  } else {
    convert_tband(options, streams, input_names, total_bytes, timeline, result);
  }
  result.tracks = timeline.track_count();
  result.interned_names = names.size();
  if (json) {
    json->finish();
  }
  if (vcd) {
    vcd->finish();
    result.vcd_translate_filter = vcd->translate_filter();
    result.vcd_task_filter = vcd->id_filter(TrackRole::kTask);
    result.vcd_isr_filter = vcd->id_filter(TrackRole::kIsr);
    if (!options.vcd_save_paths.vcd.empty()) {
      result.vcd_save_file = vcd->save_file(options.vcd_save_paths);
    }
    result.vcd_clamped = vcd->clamped();
  }
  for (auto* out : {perfetto_out ? &*perfetto_out : nullptr, json_out ? &*json_out : nullptr,
                    vcd_out ? &*vcd_out : nullptr}) {
    if (out != nullptr) {
      out->flush();
      if (out->failed()) {
        throw std::runtime_error(out->name() + ": write failed");
      }
    }
  }
  result.perfetto_bytes = perfetto_out ? perfetto_out->bytes_written() : 0;
  result.json_bytes = json_out ? json_out->bytes_written() : 0;
  result.vcd_bytes = vcd_out ? vcd_out->bytes_written() : 0;
  return result;
}

namespace {

// tband's own traces: decoded, merged streams -> the interpreter.
void convert_tband(const ConversionOptions& options, std::vector<std::unique_ptr<EventStream>>& streams,
                   const std::vector<std::string>& input_names, std::optional<std::uint64_t> total_bytes,
                   Timeline& timeline, ConversionResult& result) {
  TraceInterpreter interpreter{timeline, result.diagnostics, options.interpreter};
  ItemCounts counts;
  const auto report_progress = [&] {
    std::uint64_t read = 0;
    for (const auto& s : streams) {
      read += s->reader().raw_bytes_read();
    }
    options.progress(read, total_bytes);
  };
  if (use_pipeline(options)) {
    // Decoding in a thread of its own, interpreting and encoding here.
    DecodePipeline pipeline{streams, input_names, options.schemas,
                            options.progress ? std::function<void()>{report_progress} : nullptr};
    while (const DecodedBatch* batch = pipeline.next()) {
      interpret_batch(interpreter, *batch, input_names, counts);
    }
  } else {
    std::uint64_t items = 0;
    const bool show_progress = static_cast<bool>(options.progress);
    merge_streams(streams, [&](const StreamItem& item, const EventStream& stream) {
      const EventOrigin origin{item.core, &input_names[stream.index()], item.at, item.has_ts, item.ts};
      interpret_item(interpreter, item, origin, options.schemas, counts);
      if (show_progress && (++items & 0xFFFF) == 0) {
        report_progress();
      }
    });
  }
  for (const auto& s : streams) {
    if (const std::string& cut = s->reader().truncation(); !cut.empty()) {
      // A compressed input cut short: a truncated end, as a raw capture cut mid-frame is.
      const EventOrigin origin{TraceInterpreter::kMaxCores, &input_names[s->index()], nullptr, false, 0};
      interpreter.on_decode_error(DecodeError{DecodeErrorKind::kTruncatedFrame}, cut, origin);
    }
  }
  finish_interpretation(interpreter, options.schemas);
  result.decode_errors = counts.decode_errors;
  result.unknown_frames = counts.unknown_frames;
  result.events = interpreter.events();
  result.first_ts_ns = interpreter.first_ts_ns();
  result.last_ts_ns = interpreter.last_ts_ns();
  result.dropped_events = interpreter.dropped_events();
  for (const auto& s : streams) {
    result.input_bytes += s->reader().raw_bytes_read();
    std::string note = s->reader().spec().display_name() + ": format " + std::string{s->reader().format_name()};
    if (const std::string extra = s->reader().decoder_note(); !extra.empty()) {
      note += ", " + extra;
    }
    result.notes.push_back(std::move(note));
  }
  if (result.events == 0 && result.decode_errors != 0) {
    throw InputError("no valid events in the input: all " + std::to_string(result.decode_errors) +
                     " frame(s) failed to decode (is it a tband trace? is --format right?)");
  }
}

}  // namespace

}  // namespace tband
