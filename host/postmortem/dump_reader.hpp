// Recovers the events a firmware's post-mortem backend left in RAM: raw dump
// bytes in (the post-mortem block alone, or a whole RAM image that contains
// it), per-core byte streams of whole COBS frames out, ready for StreamDecoder.
//
// The block's layout is target/include/tband/post_mortem_layout.h. The reader
// finds the block by its magic, takes the target's byte order from it,
// checks every size and offset against the dump, and keeps only whole frames:
// the rest of a frame whose start was overwritten, and a frame the firmware
// was writing when the dump was taken, are skipped and counted.
// Bad input comes back as a DumpError with a message; it never throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace tband::postmortem {

enum class ByteOrder : std::uint8_t { kLittleEndian, kBigEndian };

struct CoreDump {
  std::uint32_t core_id = 0;
  std::vector<std::uint8_t> metadata;  // the core's metadata frames (names, kinds), whole
  std::vector<std::uint8_t> events;    // the ring's whole frames, oldest first
  std::size_t event_frames = 0;        // frames in `events`
  std::size_t skipped_bytes = 0;       // bytes of partly overwritten or unfinished frames left out
  bool wrapped = false;                // the ring has been full, so older events were overwritten
  std::uint32_t metadata_lost_evts = 0;   // metadata events that did not fit the metadata area
  std::uint32_t metadata_lost_bytes = 0;

  /// Metadata, then events: one stream for a decoder.
  [[nodiscard]] std::vector<std::uint8_t> stream() const;
};

struct Dump {
  std::size_t block_offset = 0;  // where in the dump the block starts
  ByteOrder byte_order = ByteOrder::kLittleEndian;
  std::uint32_t version = 0;
  std::uint32_t ring_size = 0;
  std::uint32_t metadata_size = 0;
  std::vector<CoreDump> cores;
};

enum class DumpErrorKind : std::uint8_t {
  kNoBlock,             // no post-mortem magic anywhere in the dump
  kUnsupportedVersion,  // a block of a layout version this reader does not know
  kTruncated,           // the block runs past the end of the dump
  kBadLayout,           // a size, offset or position that cannot be right
};

struct DumpError {
  DumpErrorKind kind;
  std::size_t offset = 0;  // where in the dump the problem is
  std::string message;     // one line, says what is wrong
};

/// Either the recovered dump or why there is none.
class DumpResult {
 public:
  DumpResult(Dump dump) : result_(std::move(dump)) {}            // NOLINT(google-explicit-constructor)
  DumpResult(DumpError error) : result_(std::move(error)) {}     // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const noexcept { return result_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const Dump& value() const noexcept { return *std::get_if<0>(&result_); }
  [[nodiscard]] const DumpError& error() const noexcept { return *std::get_if<1>(&result_); }

 private:
  std::variant<Dump, DumpError> result_;
};

/// Searches the dump for a post-mortem block (at any offset) and recovers it.
/// With several candidates, the first valid one wins.
[[nodiscard]] DumpResult read_dump(std::span<const std::uint8_t> dump);

/// read_dump() for a dump that arrives in pieces (a file, a pipe): holds
/// only the bytes a candidate block still needs, never the whole dump, so a
/// RAM image of any size (or an endless device) costs at most one block
/// (kMaxBlockSize) of memory. Same answer as read_dump() over the same bytes.
class DumpScanner {
 public:
  /// Blocks claiming more are taken for garbage (a post-mortem block is a
  /// RAM area of a microcontroller: kilobytes to megabytes).
  static constexpr std::uint32_t kMaxBlockSize = std::uint32_t{1} << 30;

  void feed(std::span<const std::uint8_t> bytes);
  /// The first valid block, or why there is none.
  [[nodiscard]] DumpResult finish();
  /// Memory held for bytes of the dump (for tests of the bound).
  [[nodiscard]] std::size_t held_bytes() const noexcept { return window_.capacity(); }

 private:
  void scan(bool at_end);
  [[nodiscard]] std::size_t next_magic_start(std::size_t from) const noexcept;

  std::vector<std::uint8_t> window_;  // the dump's bytes from window_start_ on
  std::uint64_t window_start_ = 0;
  std::uint64_t next_ = 0;   // the first dump offset not yet tried as a candidate
  std::uint64_t total_ = 0;  // bytes fed
  std::optional<Dump> found_;
  std::optional<DumpError> first_error_;
};

/// Recovers the block that starts at the first byte of `block`.
[[nodiscard]] DumpResult read_block(std::span<const std::uint8_t> block);

[[nodiscard]] std::string describe(const DumpError& error);

/// How many bytes block_header_plausible() looks at.
inline constexpr std::size_t kHeaderCheckBytes = 32;

/// Whether `at` starts with a post-mortem block header: the magic, and then a
/// known version, a core count, header and block sizes that fit together. A
/// trace string that happens to hold "TBPM" is not one. Needs kHeaderCheckBytes.
[[nodiscard]] bool block_header_plausible(std::span<const std::uint8_t> at);

/// The offset of the first 4-byte aligned (relative to `bytes`) plausible
/// block header in `bytes`, if any.
[[nodiscard]] std::optional<std::size_t> find_block_header(std::span<const std::uint8_t> bytes);

}  // namespace tband::postmortem
