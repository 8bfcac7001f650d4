// The control channel's command bytes and acknowledgement codes, shared by
// control.cpp and the backends that carry a command out. The wire format is
// documented in target/README.md ("Control channel"); the host's copy is
// host/ctl/protocol.hpp.
#pragma once

#include <cstdint>

namespace tband::rt::ctl {

enum Command : std::uint8_t {
  kStart = 0x01,     // tband_start_streaming(): metadata, then events
  kStop = 0x02,      // tband_stop_streaming()
  kMetadata = 0x03,  // send every core's metadata again, while streaming
  kSnapshot = 0x04,  // tband_trigger_snapshot() (snapshot backend)
  kDropped = 0x05,   // value: tband_get_dropped_evt_cnt()
  kRejected = 0x06,  // value: frames the channel rejected so far
  kRestart = 0x07,   // tband_restart_streaming(): events, no metadata
  kFilterEvent = 0x08,   // args: event id, traced (0/1)
  kFilterGroup = 0x09,   // args: traced (0/1), the group's name (1+ bytes, no 0 terminator)
  kFilterObject = 0x0A,  // args: filter key, traced (0/1), object id (u32, big-endian)
  kFilterClear = 0x0B,   // every event id traced again (object filters stay)
};

enum Status : std::uint32_t {
  kDone = 0,
  kRefused = 1,      // not in this state: already on, not on
  kFailed = 2,       // the link dropped what the command sends
  kNotBuilt = 3,     // the backend of this build has no such thing
  kUnknown = 4,      // no such command
  kBadArguments = 5, // a known command with arguments of the wrong length
};

/// Streaming backend: every core's metadata again, as start sends it
/// (backend_streaming.cpp). 0 done, -1 not streaming, -2 dropped by the link.
int resend_stream_metadata() noexcept;

}  // namespace tband::rt::ctl
