#include "cli/view_hookup.hpp"

#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"

namespace tband::cli {

ViewHookup::ViewHookup(const std::string& address, std::string mode)
    : mode_(std::move(mode)), server_(std::make_unique<view::ViewServer>(view::parse_view_address(address), slot_)) {}

void ViewHookup::attach(record::RecorderOptions& recorder) {
  recorder.observer = &view_;
  recorder.on_event = [this](std::string_view name, std::uint32_t core) { view_.event(name, core); };
  recorder.on_progress = [this](const record::RecordingProgress& p) {
    view::RecordingState s;
    s.mode = mode_;
    s.bytes = p.figures.bytes;
    s.seconds = p.seconds;
    s.events = p.figures.events;
    s.decode_errors = p.figures.decode_errors;
    s.dropped_events = p.figures.dropped_events;
    s.gaps = p.gaps;
    if (p.figures.link_checked) {  // frames lost on the link, once a source announced link integrity
      s.link_losses = p.figures.link_lost;
    }
    s.sources = p.figures.sources;
    s.sources_open = p.figures.sources_open;
    s.first_ts_ns = p.first_ts_ns;
    s.last_ts_ns = p.last_ts_ns;
    s.cores = p.cores;
    s.diagnostics = p.diagnostics;
    s.files = p.files;
    s.rotate_bytes = p.rotate_bytes;
    s.compress = p.compress;
    s.ended = p.ended;
    slot_.put(view_.snapshot_json(s));
  };
}

std::unique_ptr<ViewHookup> start_view(const std::string& address, std::string mode, std::string_view command,
                                       int& exit_code) {
  try {
    return std::make_unique<ViewHookup>(address, std::move(mode));
  } catch (const std::invalid_argument& e) {
    std::cerr << command << ": error: " << e.what() << "\n";
    exit_code = kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << command << ": error: " << e.what() << "\n";
    exit_code = kExitOutput;
  }
  return nullptr;
}

}  // namespace tband::cli
