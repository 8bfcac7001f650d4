#include "input/input_format.hpp"

#include <array>

namespace tband {

namespace {

// Every frame ends with 0x00, and text formats never contain one.
int sniff_bin(std::span<const std::uint8_t> head) {
  for (const std::uint8_t b : head) {
    if (b == 0) {
      return 90;
    }
  }
  for (const std::uint8_t b : head) {
    if (b >= 0x7F || (b < 0x20 && b != '\n' && b != '\r' && b != '\t')) {
      return 60;  // binary, though without a frame end so far
    }
  }
  return 0;
}

}  // namespace

// The id "TXTB" as a 32-bit word at the very start, in either byte order.
int sniff_threadx(std::span<const std::uint8_t> head) {
  if (head.size() < 4) {
    return 0;
  }
  const bool big = head[0] == 0x54 && head[1] == 0x58 && head[2] == 0x54 && head[3] == 0x42;
  const bool little = head[0] == 0x42 && head[1] == 0x54 && head[2] == 0x58 && head[3] == 0x54;
  return big || little ? 100 : 0;
}

namespace {

const std::array kFormats{
    InputFormat{"bin", "raw trace bytes (COBS frames), as the firmware sent them", sniff_bin, nullptr},
    InputFormat{"hex", "hex text, two digits per byte; any whitespace between them is ignored", sniff_hex,
                make_hex_decoder},
    InputFormat{"base64", "a firmware log: lines that are entirely base64 are trace data, other lines are skipped",
                sniff_base64_lines, make_base64_lines_decoder},
    InputFormat{"postmortem",
                "a RAM dump holding the post-mortem backend's block (found by its magic); each core's newest events",
                sniff_postmortem, make_postmortem_decoder},
    InputFormat{"threadx",
                "a ThreadX event trace buffer (TX_ENABLE_EVENT_TRACE, TraceX's .trx) dumped from RAM, either byte "
                "order (host/THREADX.md)",
                sniff_threadx, nullptr},
};

}  // namespace

std::span<const InputFormat> input_formats() { return kFormats; }

const InputFormat* find_input_format(std::string_view name) {
  for (const InputFormat& f : kFormats) {
    if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

const InputFormat& sniff_input_format(std::span<const std::uint8_t> head) {
  const InputFormat* best = nullptr;
  int best_score = 0;
  for (const InputFormat& f : kFormats) {
    const int score = f.sniff(head);
    if (score > best_score) {
      best = &f;
      best_score = score;
    }
  }
  if (best == nullptr) {
    throw InputFormatError(
        "cannot tell the input format: not COBS frames (bin), hex text (hex), base64 lines (base64) or a dump "
        "with a post-mortem block (postmortem) or a ThreadX trace buffer (threadx); pass --format with the right one");
  }
  return *best;
}

bool looks_like_cobs_frames(std::span<const std::uint8_t> head) {
  std::size_t good = 0;      // bytes of well-formed, non-empty frames
  std::size_t complete = 0;  // bytes of all frames that end in head
  std::size_t start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] != 0) {
      continue;
    }
    // head[start, i) encodes one frame: well-formed when its code bytes chain to i exactly.
    std::size_t code_at = start;
    while (code_at < i) {
      code_at += head[code_at];
    }
    if (i > start && code_at == i) {
      good += i + 1 - start;
    }
    complete += i + 1 - start;
    start = i + 1;
  }
  return complete != 0 && good * 2 >= complete;
}

}  // namespace tband
