#include "cli/ctl_command.hpp"

#include <array>
#include <chrono>
#include <iostream>
#include <thread>

#include <poll.h>

#include <CLI/CLI.hpp>

#include "app/conversion.hpp"
#include "cli/record_command.hpp"
#include "ctl/protocol.hpp"
#include "record/source.hpp"

namespace tband::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kCtlFooter = R"(
Commands (one argument each; quote one with arguments):
  start      start streaming (sends every name first)     stop       stop streaming
  restart    start streaming without the names            metadata   send every name again (while streaming)
  snapshot   trigger a snapshot (snapshot backend)        dropped    the target's dropped-event count
  rejected   command frames the target rejected
  'filter -isr 3', 'filter +isr 3'   leave out / trace again ISR 3 (keys: isr, evtmarker, valmarker, task, queue)
  'filter -event NAME'               leave out an event (its name or id); +event traces it again
  'filter -group NAME'               leave out a group (base, freertos, key:isr_id, ...); +group again
  'filter clear'                     every event traced again (object filters stay)

Examples:
  tband ctl tcp:localhost:9090 stop
  tband ctl serial:/dev/ttyUSB0,baud=921600 metadata dropped
  tband ctl tcp:localhost:9090 'filter -isr 3'

The source must carry bytes both ways (tcp:, serial:) and be free: a QEMU chardev or RTT
server that `tband record` is connected to takes no second client (use record --send then).
Each command prints "COMMAND: STATUS[, VALUE]". See target/README.md, "Control channel".

Exit codes: 0 every command done, 1 the target refused or failed one, 2 bad usage (command,
source), 3 the source could not be opened or went away, 5 a command was not acknowledged
within --timeout.)";

int milliseconds_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

// Opens the source, waiting for it up to `timeout`. Throws record::SourceError.
void open_source(record::Source& source, std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    const record::OpenStatus status = source.open();
    if (status == record::OpenStatus::kOpen) {
      return;
    }
    if (milliseconds_left(deadline) == 0) {
      throw record::SourceError(source.spec().text + ": could not connect within " +
                                std::to_string(timeout.count()) + " ms (" + source.last_problem() + ")");
    }
    if (status == record::OpenStatus::kPending) {
      pollfd fd{source.poll_fd(), source.poll_events(), 0};
      (void)::poll(&fd, 1, std::min(milliseconds_left(deadline), 200));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(milliseconds_left(deadline), 200)));
    }
  }
}

// Reads the up-link until the acknowledgement of `code`; nullopt on timeout.
// Throws record::SourceError when the source ends.
std::optional<ctl::Ack> await_ack(record::Source& source, ctl::AckReader& reader, std::uint8_t code,
                                  std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  std::array<std::uint8_t, 4096> buffer{};
  for (;;) {
    const record::ReadResult r = source.read(buffer);
    if (r.state == record::ReadResult::kEnded) {
      throw record::SourceError(source.spec().text + ": " + r.reason + " before the acknowledgement");
    }
    if (r.state == record::ReadResult::kData) {
      for (const ctl::Ack& ack : reader.feed({buffer.data(), r.bytes})) {
        if (ack.cmd == code) {
          return ack;
        }
      }
      continue;
    }
    const int left = milliseconds_left(deadline);
    if (left == 0) {
      return std::nullopt;
    }
    pollfd fd{source.poll_fd(), POLLIN, 0};
    (void)::poll(&fd, 1, left);
  }
}

}  // namespace

void CtlCommand::add_to(CLI::App& app) {
  cmd_ = app.add_subcommand("ctl", "Send commands to a running target over its control channel and wait for each");
  cmd_->footer(kCtlFooter);
  cmd_->add_option("source", source_, "The target's link: tcp:HOST:PORT or serial:DEVICE[,baud=N]")
      ->required()
      ->type_name("SOURCE");
  cmd_->add_option("commands", commands_, "The commands, in order (see below)")->required()->type_name("COMMAND");
  cmd_->add_option("--timeout", timeout_, "How long to wait for each acknowledgement")
      ->type_name("TIME")
      ->capture_default_str();
  cmd_->add_option("--connect-timeout", connect_timeout_, "How long to keep trying to reach the source")
      ->type_name("TIME")
      ->capture_default_str();
}

std::optional<int> CtlCommand::run(const GlobalOptions&) {
  if (cmd_ == nullptr || !cmd_->parsed()) {
    return std::nullopt;
  }
  std::vector<ctl::Command> commands;
  std::unique_ptr<record::Source> source;
  std::chrono::milliseconds timeout{};
  std::chrono::milliseconds connect_timeout{};
  try {
    for (const std::string& text : commands_) {
      commands.push_back(ctl::parse_command(text));
    }
    timeout = parse_duration("--timeout", timeout_);
    connect_timeout = parse_duration("--connect-timeout", connect_timeout_);
    const record::SourceSpec spec = record::parse_source_spec(source_);
    source = record::make_source(spec);
    if (!source->writable()) {
      throw UsageError(spec.text + ": commands go to the target over tcp: or serial: sources only");
    }
  } catch (const ctl::CommandError& e) {
    std::cerr << "tband ctl: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const record::SourceSpecError& e) {
    std::cerr << "tband ctl: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "tband ctl: error: " << e.what() << "\n";
    return kExitUsage;
  }

  int code = kExitOk;
  try {
    open_source(*source, connect_timeout);
    ctl::AckReader reader;
    for (const ctl::Command& command : commands) {
      source->send(ctl::encode_frame(command));
      const std::optional<ctl::Ack> ack = await_ack(*source, reader, command.code, timeout);
      if (!ack) {
        std::cerr << "tband ctl: error: " << command.name << ": no acknowledgement within " << timeout.count()
                  << " ms (is the firmware built with tband_configUSE_CONTROL and calling tband_rx_poll()?)\n";
        return kExitNoAck;
      }
      std::cout << command.name << ": " << ctl::status_text(ack->status);
      if (ack->status == ctl::kDone && (command.name == "dropped" || command.name == "rejected")) {
        std::cout << ", " << ack->value;
      }
      std::cout << std::endl;
      if (ack->status != ctl::kDone) {
        code = kExitWarnings;
      }
    }
  } catch (const record::SourceError& e) {
    std::cerr << "tband ctl: error: " << e.what() << "\n";
    return kExitInput;
  }
  return code;
}

}  // namespace tband::cli
