// Writes the benchmark mix as a CTF 1.8 trace (TSDL metadata + one binary
// stream), so babeltrace2 can decode the same events as tband in the same
// benchmark run.
#pragma once

#include <cstdint>
#include <string>

namespace tband::tools {

/// Writes DIR/metadata and DIR/stream_0 holding `events` events of the mix.
void write_ctf_mix(const std::string& dir, std::uint64_t events);

}  // namespace tband::tools
