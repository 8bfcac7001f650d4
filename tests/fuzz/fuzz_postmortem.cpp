// Fuzz target for the post-mortem dump reader: arbitrary bytes as a RAM dump.
// Invariants checked on every input (a violation traps):
//  - no crash, out-of-bounds access or undefined behaviour (ASan, UBSan);
//  - read_dump() answers a Dump or a DumpError with a one-line message, and
//    the post-mortem input format says the same (feeding the dump whole or in
//    chunks), throwing only InputFormatError;
//  - a recovered core's streams are whole frames: metadata and events each
//    end with a frame delimiter, and the events hold event_frames frames;
//  - the block found starts with its magic, and read_block() at that offset
//    gives the same cores.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "input/input_format.hpp"
#include "postmortem/dump_reader.hpp"

namespace {

namespace pm = tband::postmortem;

void require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

bool whole_frames(const std::vector<std::uint8_t>& bytes) { return bytes.empty() || bytes.back() == 0; }

std::size_t frame_count(const std::vector<std::uint8_t>& bytes) {
  std::size_t frames = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    frames += bytes[i] == 0 && i > 0 && bytes[i - 1] != 0 ? 1u : 0u;
  }
  return frames;
}

/// The input format's decoder over the dump in chunks; the error text or the stream.
std::pair<bool, std::vector<std::uint8_t>> through_format(std::span<const std::uint8_t> dump, std::size_t chunk) {
  auto decoder = tband::make_postmortem_decoder();
  std::vector<std::uint8_t> out;
  try {
    for (std::size_t at = 0; at < dump.size(); at += chunk) {
      decoder->feed(dump.subspan(at, std::min(chunk, dump.size() - at)), out);
    }
    decoder->finish(out);
  } catch (const tband::InputFormatError& e) {
    const std::string message = e.what();
    require(!message.empty() && message.find('\n') == std::string::npos);
    return {false, {}};
  }
  require(!decoder->note().empty());
  return {true, out};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> dump{data, size};
  (void)tband::sniff_postmortem(dump);
  const pm::DumpResult result = pm::read_dump(dump);
  const auto whole = through_format(dump, size == 0 ? 1 : size);
  const auto chunked = through_format(dump, size == 0 ? 1 : 1 + data[0] % 13);
  require(whole == chunked);
  require(whole.first == result.ok());
  if (!result.ok()) {
    const std::string message = pm::describe(result.error());
    require(message.find('\n') == std::string::npos);
    require(result.error().offset <= size);
    return 0;
  }
  const pm::Dump& found = result.value();
  require(found.block_offset + 4 <= size);
  require(!found.cores.empty());
  for (const pm::CoreDump& core : found.cores) {
    require(whole_frames(core.metadata) && whole_frames(core.events));
    require(frame_count(core.events) == core.event_frames);
    require(core.stream().size() == core.metadata.size() + core.events.size());
  }
  const pm::DumpResult again = pm::read_block(dump.subspan(found.block_offset));
  require(again.ok() && again.value().cores.size() == found.cores.size());
  for (std::size_t i = 0; i < found.cores.size(); ++i) {
    require(again.value().cores[i].events == found.cores[i].events);
    require(again.value().cores[i].metadata == found.cores[i].metadata);
  }
  return 0;
}
