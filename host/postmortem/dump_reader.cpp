#include "postmortem/dump_reader.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "tband/post_mortem_layout.h"

namespace tband::postmortem {

namespace {

constexpr std::uint32_t kMaxCores = 256;

// The magic as the bytes a little- or big-endian target leaves in memory.
constexpr std::array<std::uint8_t, 4> kMagicLittle = {0x54, 0x42, 0x50, 0x4D};  // "TBPM"
constexpr std::array<std::uint8_t, 4> kMagicBig = {0x4D, 0x50, 0x42, 0x54};     // "MPBT"

class BlockView {
 public:
  BlockView(std::span<const std::uint8_t> bytes, ByteOrder order) : bytes_(bytes), order_(order) {}

  /// The u32 at `offset`; the caller checked that it lies inside the dump.
  [[nodiscard]] std::uint32_t u32(std::size_t offset) const noexcept {
    const std::uint8_t* p = bytes_.data() + offset;
    if (order_ == ByteOrder::kLittleEndian) {
      return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
             static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
    }
    return static_cast<std::uint32_t>(p[3]) | static_cast<std::uint32_t>(p[2]) << 8 |
           static_cast<std::uint32_t>(p[1]) << 16 | static_cast<std::uint32_t>(p[0]) << 24;
  }
  [[nodiscard]] std::span<const std::uint8_t> bytes(std::size_t offset, std::size_t len) const {
    return bytes_.subspan(offset, len);
  }

 private:
  std::span<const std::uint8_t> bytes_;
  ByteOrder order_;
};

DumpError layout_error(std::size_t offset, std::string message) {
  return DumpError{DumpErrorKind::kBadLayout, offset, std::move(message)};
}

/// Appends the whole frames of `data` to `out`: from the start if it begins
/// at a frame, else from after the first delimiter; bytes after the last
/// delimiter are an unfinished frame. Returns the frames and skipped bytes.
std::pair<std::size_t, std::size_t> take_whole_frames(std::span<const std::uint8_t> data, bool starts_at_frame,
                                                      std::vector<std::uint8_t>& out) {
  std::size_t begin = 0;
  std::size_t skipped = 0;
  if (!starts_at_frame) {
    const auto first_zero = std::find(data.begin(), data.end(), 0);
    begin = first_zero == data.end() ? data.size() : static_cast<std::size_t>(first_zero - data.begin()) + 1;
    skipped += begin;
  }
  std::size_t frames = 0;
  std::size_t frame_start = begin;
  for (std::size_t i = begin; i < data.size(); ++i) {
    if (data[i] != 0) {
      continue;
    }
    if (i > frame_start) {  // runs of delimiters carry no frame
      out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(frame_start),
                 data.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      ++frames;
    }
    frame_start = i + 1;
  }
  skipped += data.size() - frame_start;
  return {frames, skipped};
}

/// A core's descriptor words.
struct CoreDescriptor {
  std::size_t at = 0;  // where the descriptor starts
  std::uint32_t ring_offset, head, tail_word, tail, metadata_offset, metadata_len;

  CoreDescriptor(const BlockView& block, std::uint32_t core)
      : at(TBAND_PM_HEADER_SIZE + std::size_t{core} * TBAND_PM_CORE_DESC_SIZE),
        ring_offset(block.u32(at + TBAND_PM_CORE_OFF_RING)),
        head(block.u32(at + TBAND_PM_CORE_OFF_HEAD)),
        tail_word(block.u32(at + TBAND_PM_CORE_OFF_TAIL)),
        tail(tail_word & TBAND_PM_TAIL_POS_MASK),
        metadata_offset(block.u32(at + TBAND_PM_CORE_OFF_METADATA)),
        metadata_len(block.u32(at + TBAND_PM_CORE_OFF_METADATA_LEN)) {}
};

/// Checks core `core`'s descriptor against the block; reads nothing but the descriptor.
std::optional<DumpError> check_core(const BlockView& block, std::uint32_t core, std::uint32_t block_size,
                                    std::uint32_t ring_size, std::uint32_t metadata_size) {
  const CoreDescriptor d(block, core);
  const auto [at, ring_offset, head, tail_word, tail, metadata_offset, metadata_len] = d;
  const std::string where = "core " + std::to_string(core) + ": ";

  if (std::uint64_t{ring_offset} + ring_size > block_size) {
    return layout_error(at, where + "ring at " + std::to_string(ring_offset) + " runs past the block's " +
                                std::to_string(block_size) + " bytes");
  }
  if (std::uint64_t{metadata_offset} + metadata_size > block_size) {
    return layout_error(at, where + "metadata area at " + std::to_string(metadata_offset) +
                                " runs past the block's " + std::to_string(block_size) + " bytes");
  }
  if (head >= ring_size || tail >= ring_size) {
    return layout_error(at, where + "write position " + std::to_string(head) + " or oldest position " +
                                std::to_string(tail) + " outside the " + std::to_string(ring_size) + "-byte ring");
  }
  if ((tail_word & TBAND_PM_TAIL_WRAPPED) == 0 && tail != 0) {
    return layout_error(at, where + "the ring never wrapped, yet its oldest byte is at " + std::to_string(tail));
  }
  if (metadata_len > metadata_size) {
    return layout_error(at, where + std::to_string(metadata_len) + " bytes of metadata in a " +
                                std::to_string(metadata_size) + "-byte area");
  }
  return std::nullopt;
}

/// Copies core `core`'s metadata and ring frames; check_core() passed.
void read_core(const BlockView& block, std::uint32_t core, std::uint32_t ring_size, CoreDump& out) {
  const CoreDescriptor d(block, core);
  const auto [desc, ring_offset, head, tail_word, tail, metadata_offset, metadata_len] = d;
  out.wrapped = (tail_word & TBAND_PM_TAIL_WRAPPED) != 0;
  out.core_id = core;
  out.metadata_lost_evts = block.u32(desc + TBAND_PM_CORE_OFF_META_LOST_EVTS);
  out.metadata_lost_bytes = block.u32(desc + TBAND_PM_CORE_OFF_META_LOST_BYTES);
  const auto [metadata_frames, metadata_skipped] =
      take_whole_frames(block.bytes(metadata_offset, metadata_len), true, out.metadata);
  (void)metadata_frames;
  out.skipped_bytes += metadata_skipped;

  // Valid bytes run from tail to head, circularly; tail == head on a wrapped ring is a full ring.
  std::vector<std::uint8_t> ring_data;
  const auto ring = block.bytes(ring_offset, ring_size);
  if (!out.wrapped) {
    ring_data.assign(ring.begin(), ring.begin() + head);
  } else {
    const std::size_t first_end = head > tail ? head : ring_size;
    ring_data.assign(ring.begin() + tail, ring.begin() + static_cast<std::ptrdiff_t>(first_end));
    if (head <= tail) {
      ring_data.insert(ring_data.end(), ring.begin(), ring.begin() + head);
    }
  }
  const bool starts_at_frame = (tail_word & TBAND_PM_TAIL_AT_FRAME) != 0;
  const auto [frames, skipped] = take_whole_frames(ring_data, starts_at_frame, out.events);
  out.event_frames = frames;
  out.skipped_bytes += skipped;
}

}  // namespace

std::vector<std::uint8_t> CoreDump::stream() const {
  std::vector<std::uint8_t> out = metadata;
  out.insert(out.end(), events.begin(), events.end());
  return out;
}

DumpResult read_block(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < TBAND_PM_HEADER_SIZE) {
    return DumpError{DumpErrorKind::kTruncated, 0,
                     "the dump ends after " + std::to_string(bytes.size()) + " bytes, inside the block header"};
  }
  const auto starts_with = [&](const std::array<std::uint8_t, 4>& magic) {
    return std::equal(magic.begin(), magic.end(), bytes.begin());
  };
  Dump dump;
  if (starts_with(kMagicLittle)) {
    dump.byte_order = ByteOrder::kLittleEndian;
  } else if (starts_with(kMagicBig)) {
    dump.byte_order = ByteOrder::kBigEndian;
  } else {
    return DumpError{DumpErrorKind::kNoBlock, 0, "no post-mortem block here (magic \"TBPM\" missing)"};
  }
  const BlockView block(bytes, dump.byte_order);
  dump.version = block.u32(TBAND_PM_OFF_VERSION);
  if (dump.version != TBAND_PM_VERSION) {
    return DumpError{DumpErrorKind::kUnsupportedVersion, TBAND_PM_OFF_VERSION,
                     "post-mortem block version " + std::to_string(dump.version) + "; this reader knows version " +
                         std::to_string(TBAND_PM_VERSION)};
  }
  const std::uint32_t core_count = block.u32(TBAND_PM_OFF_CORE_COUNT);
  const std::uint32_t header_size = block.u32(TBAND_PM_OFF_HEADER_SIZE);
  const std::uint32_t block_size = block.u32(TBAND_PM_OFF_BLOCK_SIZE);
  dump.ring_size = block.u32(TBAND_PM_OFF_RING_SIZE);
  dump.metadata_size = block.u32(TBAND_PM_OFF_METADATA_SIZE);
  if (core_count == 0 || core_count > kMaxCores) {
    return layout_error(TBAND_PM_OFF_CORE_COUNT, "core count " + std::to_string(core_count) + " (expected 1 to " +
                                                     std::to_string(kMaxCores) + ")");
  }
  const std::uint64_t descriptors_end = TBAND_PM_HEADER_SIZE + std::uint64_t{core_count} * TBAND_PM_CORE_DESC_SIZE;
  if (header_size < descriptors_end || header_size > block_size) {
    return layout_error(TBAND_PM_OFF_HEADER_SIZE, "header size " + std::to_string(header_size) + " does not fit " +
                                                      std::to_string(core_count) + " core descriptors and a " +
                                                      std::to_string(block_size) + "-byte block");
  }
  if (block_size > bytes.size()) {
    return DumpError{DumpErrorKind::kTruncated, TBAND_PM_OFF_BLOCK_SIZE,
                     "the block has " + std::to_string(block_size) + " bytes, but the dump ends after " +
                         std::to_string(bytes.size())};
  }
  if (dump.ring_size == 0) {
    return layout_error(TBAND_PM_OFF_RING_SIZE, "ring size 0");
  }
  // Every descriptor first, so a candidate that fails at its last core costs
  // no ring copies: read_dump() tries every magic in a dump, and a dump full
  // of such candidates would otherwise cost candidates x ring size.
  for (std::uint32_t core = 0; core < core_count; ++core) {
    if (auto error = check_core(block, core, block_size, dump.ring_size, dump.metadata_size)) {
      return *error;
    }
  }
  dump.cores.resize(core_count);
  for (std::uint32_t core = 0; core < core_count; ++core) {
    read_core(block, core, dump.ring_size, dump.cores[core]);
  }
  return dump;
}

DumpResult read_dump(std::span<const std::uint8_t> dump) {
  DumpScanner scanner;
  scanner.feed(dump);
  return scanner.finish();
}

void DumpScanner::feed(std::span<const std::uint8_t> bytes) {
  total_ += bytes.size();
  if (found_) {
    return;  // the rest of the dump is not needed
  }
  window_.insert(window_.end(), bytes.begin(), bytes.end());
  scan(false);
}

DumpResult DumpScanner::finish() {
  if (!found_) {
    scan(true);
  }
  if (found_) {
    return *found_;
  }
  if (first_error_) {
    return *first_error_;
  }
  return DumpError{DumpErrorKind::kNoBlock, 0,
                   "no post-mortem block (magic \"TBPM\") in the " + std::to_string(total_) + "-byte dump"};
}

// The first byte at or after `from` that can start a magic ("T" or "M"), or
// the window's end: memchr's speed over a RAM image of megabytes.
std::size_t DumpScanner::next_magic_start(std::size_t from) const noexcept {
  const std::uint8_t* const begin = window_.data();
  const std::size_t left = window_.size() - from;
  const auto* t = static_cast<const std::uint8_t*>(std::memchr(begin + from, kMagicLittle[0], left));
  const std::size_t t_at = t != nullptr ? static_cast<std::size_t>(t - begin) : window_.size();
  const auto* m = static_cast<const std::uint8_t*>(std::memchr(begin + from, kMagicBig[0], t_at - from));
  return m != nullptr ? static_cast<std::size_t>(m - begin) : t_at;
}

// Tries the candidates (magic bytes) in dump order; one that needs bytes
// not here yet stops the scan until they come (or the end). Every byte
// before the next candidate to try is let go.
void DumpScanner::scan(bool at_end) {
  std::size_t i = static_cast<std::size_t>(next_ - window_start_);
  while (i + 4 <= window_.size()) {
    i = next_magic_start(i);
    if (i + 4 > window_.size()) {
      break;
    }
    const std::span<const std::uint8_t> at = std::span<const std::uint8_t>(window_).subspan(i);
    const bool magic = std::equal(kMagicLittle.begin(), kMagicLittle.end(), at.begin()) ||
                       std::equal(kMagicBig.begin(), kMagicBig.end(), at.begin());
    if (!magic) {
      ++i;
      continue;
    }
    DumpResult result = read_block(at);
    const bool truncated = !result.ok() && result.error().kind == DumpErrorKind::kTruncated;
    if ((result.ok() || truncated) && at.size() >= TBAND_PM_HEADER_SIZE) {
      const ByteOrder order = at[0] == kMagicLittle[0] ? ByteOrder::kLittleEndian : ByteOrder::kBigEndian;
      if (const std::uint32_t block_size = BlockView(at, order).u32(TBAND_PM_OFF_BLOCK_SIZE);
          block_size > kMaxBlockSize) {
        result = layout_error(TBAND_PM_OFF_BLOCK_SIZE, "block size " + std::to_string(block_size) +
                                                           " bytes: more than this reader takes (" +
                                                           std::to_string(kMaxBlockSize) + ")");
      } else if (truncated && !at_end) {
        break;  // wait for the rest of this candidate's block
      }
    } else if (truncated && !at_end) {
      break;  // wait for the rest of its header
    }
    const std::uint64_t offset = window_start_ + i;
    if (result.ok()) {
      Dump found = result.value();
      found.block_offset = static_cast<std::size_t>(offset);
      found_ = std::move(found);
      window_.clear();
      window_.shrink_to_fit();
      return;
    }
    if (!first_error_) {
      first_error_ = result.error();
      first_error_->offset += static_cast<std::size_t>(offset);
    }
    ++i;
  }
  // Keep the candidate waiting for bytes, or the last three bytes (a magic's start).
  const std::size_t keep_from = std::min(i, window_.size() >= 3 ? window_.size() - 3 : std::size_t{0});
  next_ = window_start_ + i;
  window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(keep_from));
  window_start_ += keep_from;
}

bool block_header_plausible(std::span<const std::uint8_t> at) {
  static_assert(kHeaderCheckBytes == TBAND_PM_HEADER_SIZE);
  if (at.size() < kHeaderCheckBytes) {
    return false;
  }
  ByteOrder order = ByteOrder::kLittleEndian;
  if (std::equal(kMagicBig.begin(), kMagicBig.end(), at.begin())) {
    order = ByteOrder::kBigEndian;
  } else if (!std::equal(kMagicLittle.begin(), kMagicLittle.end(), at.begin())) {
    return false;
  }
  const BlockView header(at, order);
  const std::uint32_t core_count = header.u32(TBAND_PM_OFF_CORE_COUNT);
  const std::uint32_t header_size = header.u32(TBAND_PM_OFF_HEADER_SIZE);
  const std::uint32_t block_size = header.u32(TBAND_PM_OFF_BLOCK_SIZE);
  const std::uint64_t descriptors_end = TBAND_PM_HEADER_SIZE + std::uint64_t{core_count} * TBAND_PM_CORE_DESC_SIZE;
  return header.u32(TBAND_PM_OFF_VERSION) == TBAND_PM_VERSION && core_count >= 1 && core_count <= kMaxCores &&
         header_size >= descriptors_end && header_size <= block_size && header.u32(TBAND_PM_OFF_RING_SIZE) != 0;
}

std::optional<std::size_t> find_block_header(std::span<const std::uint8_t> bytes) {
  for (std::size_t i = 0; i + kHeaderCheckBytes <= bytes.size(); i += 4) {  // the block is 4-byte aligned
    if (block_header_plausible(bytes.subspan(i))) {
      return i;
    }
  }
  return std::nullopt;
}

std::string describe(const DumpError& error) {
  return "post-mortem dump, byte " + std::to_string(error.offset) + ": " + error.message;
}

}  // namespace tband::postmortem
