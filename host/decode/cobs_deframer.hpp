// Splits a byte stream into COBS frames as it arrives. Input may come in
// chunks of any size and a frame may straddle chunks. A bad frame is reported
// and skipped; deframing resumes after the next 0x00 delimiter. Empty frames
// in a row (a zero-filled RAM dump, an idle line) are reported once, as one
// run: error value = how many, location = the bytes they cover.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "decode/decode_error.hpp"

namespace tband {

/// Where a frame sits in the stream.
struct FrameLocation {
  std::uint64_t offset = 0;  // stream offset of the frame's first encoded byte
  std::uint64_t length = 0;  // encoded length, delimiter included when present
  std::uint64_t index = 0;   // 0 for the first frame of the stream
};

/// One frame, or the framing error that replaced it.
struct RawFrame {
  std::span<const std::uint8_t> data;  // decoded content; valid during the callback only
  FrameLocation location;
  const DecodeError* error = nullptr;  // set when the frame could not be deframed
};

class CobsDeframer {
 public:
  /// Frames whose decoded content would exceed this are reported and skipped,
  /// so garbage without delimiters cannot make memory grow.
  static constexpr std::size_t kDefaultMaxFrameLen = 64 * 1024;

  explicit CobsDeframer(std::size_t max_frame_len = kDefaultMaxFrameLen)
      // Not zeroed: only the bytes of the open frame are ever read, and zeroing
      // 64 KiB per deframer was most of a short decode (round-trip tests, fuzz runs).
      : max_frame_len_(max_frame_len), frame_(new std::uint8_t[max_frame_len]) {}

  /// Feeds the next chunk; calls sink(const RawFrame&) for every frame completed in it.
  template <class Sink>
  void feed(std::span<const std::uint8_t> chunk, Sink&& sink) {
    const std::uint8_t* p = chunk.data();
    const std::uint8_t* const end = p + chunk.size();
    while (p < end) {
      if (skipping_) {
        const auto* zero = static_cast<const std::uint8_t*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
        if (zero == nullptr) {
          pos_ += static_cast<std::uint64_t>(end - p);
          return;
        }
        pos_ += static_cast<std::uint64_t>(zero - p);
        p = zero + 1;
        emit_error(sink);
        continue;
      }
      if (code_ == 0 && len_ == 0) {
        // At a frame start. Most frames are one block followed by the
        // delimiter: hand those out straight from the chunk, without a copy.
        p = one_block_frames(p, end, sink);
        if (p == end) {
          return;
        }
        // p starts a frame of several blocks, or one not complete in this chunk.
      }
      if (block_left_ == 0) {
        if (*p == 0 && code_ == 0) {
          // Delimiters in a row: one step for the whole run of empty frames.
          p = skip_empty_frames(p, end);
          continue;
        }
        const std::uint8_t byte = *p++;
        if (byte == 0) {
          end_frame(sink);
          continue;
        }
        // A code byte. The block before it, unless it was a full 0xFF block,
        // stood for a zero in the content.
        if (code_ != 0 && code_ != 0xFF && !append_zero()) {
          ++pos_;
          continue;
        }
        code_ = byte;
        block_left_ = static_cast<std::uint32_t>(byte - 1u);
        ++pos_;
        continue;
      }
      // Data bytes of the current block: all must be non-zero.
      const auto available = static_cast<std::size_t>(end - p);
      const std::size_t want = std::min<std::size_t>(block_left_, available);
      const auto* zero = static_cast<const std::uint8_t*>(std::memchr(p, 0, want));
      const std::size_t take = zero != nullptr ? static_cast<std::size_t>(zero - p) : want;
      if (!append(p, take)) {
        continue;  // now skipping; p and pos_ stay at the first byte not taken
      }
      p += take;
      pos_ += take;
      block_left_ -= static_cast<std::uint32_t>(take);
      if (zero != nullptr) {
        // The delimiter came before the block was complete.
        error_ = DecodeError{DecodeErrorKind::kBadCobs};
        error_.offset = static_cast<std::uint32_t>(len_);
        error_.value = code_;
        ++p;
        emit_error(sink);
      }
    }
  }

  /// Ends the stream: a frame still open is reported as truncated.
  template <class Sink>
  void finish(Sink&& sink) {
    flush_empty_run(sink);
    if (pos_ == frame_start_) {
      return;
    }
    if (!skipping_) {
      error_ = DecodeError{DecodeErrorKind::kTruncatedFrame};
      error_.offset = static_cast<std::uint32_t>(len_);
      error_.value = pos_ - frame_start_;
    }
    const RawFrame frame{{}, {frame_start_, pos_ - frame_start_, frame_index_}, &error_};
    sink(frame);
    reset_frame(pos_);
  }

  /// Bytes consumed so far.
  [[nodiscard]] std::uint64_t position() const noexcept { return pos_; }

 private:
  // The next 0x00 in [p, end), or nullptr. Frames are short: one 16-byte
  // compare finds most delimiters (SSE2 is part of x86-64).
  static const std::uint8_t* find_zero(const std::uint8_t* p, const std::uint8_t* end) noexcept {
#if defined(__SSE2__)
    if (end - p >= 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128())));
      if (mask != 0) {
        return p + std::countr_zero(mask);
      }
      p += 16;
    }
#endif
    return static_cast<const std::uint8_t*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
  }

  // Called at a frame start: hands out the one-block frames from p on (code
  // byte, code - 1 non-zero bytes, delimiter), straight from the chunk, and
  // returns where the first other frame starts (or end). A one-block frame is
  // one whose code byte equals its distance to the next zero.
  template <class Sink>
  const std::uint8_t* one_block_frames(const std::uint8_t* p, const std::uint8_t* end, Sink& sink) {
    std::uint64_t start = frame_start_;  // locals: the sink's stores cannot alias them
    std::uint64_t index = frame_index_;
    const std::size_t max_code = max_frame_len_ < 0xFDu ? max_frame_len_ + 1u : 0xFEu;
    while (p != end) {
      const std::uint8_t* zero = find_zero(p, end);
      if (zero == nullptr) {
        break;
      }
      const auto code = static_cast<std::size_t>(zero - p);
      if (code != *p || code < 2 || code > max_code) {
        break;  // an empty frame, several blocks, a 0xFF block or too long: the general path
      }
      if (empty_run_count_ != 0) [[unlikely]] {
        flush_empty_run(sink);  // the run ends where this frame starts (start == frame_start_)
      }
      const RawFrame frame{{p + 1, code - 1u}, {start, code + 1u, index}, nullptr};
      sink(frame);
      p = zero + 1;
      start += code + 1u;
      ++index;
    }
    pos_ = start;
    frame_start_ = start;
    frame_index_ = index;
    return p;
  }

  bool append(const std::uint8_t* src, std::size_t n) noexcept {
    if (n > max_frame_len_ - len_) {
      start_skipping_too_long();
      return false;
    }
    std::memcpy(frame_.get() + len_, src, n);
    len_ += n;
    return true;
  }
  bool append_zero() noexcept {
    if (len_ == max_frame_len_) {
      start_skipping_too_long();
      return false;
    }
    frame_[len_++] = 0;
    return true;
  }
  void start_skipping_too_long() noexcept {
    error_ = DecodeError{DecodeErrorKind::kFrameTooLong};
    error_.value = max_frame_len_;
    skipping_ = true;
  }

  // Called with pos_ at a delimiter that ends a complete block.
  template <class Sink>
  void end_frame(Sink& sink) {
    if (len_ == 0) {
      // A frame holding only "01": joins the run of empty frames.
      note_empty_frame();
      reset_frame(pos_ + 1);
      return;
    }
    flush_empty_run(sink);
    const RawFrame frame{{frame_.get(), len_}, {frame_start_, pos_ + 1 - frame_start_, frame_index_}, nullptr};
    sink(frame);
    reset_frame(pos_ + 1);
  }

  // Called with pos_ at the delimiter that ends a bad frame.
  template <class Sink>
  void emit_error(Sink& sink) {
    flush_empty_run(sink);
    const RawFrame frame{{}, {frame_start_, pos_ + 1 - frame_start_, frame_index_}, &error_};
    sink(frame);
    reset_frame(pos_ + 1);
  }

  // Called at a frame start with *p == 0: every delimiter from p on is an
  // empty frame of its own. Returns the first byte after them.
  const std::uint8_t* skip_empty_frames(const std::uint8_t* p, const std::uint8_t* end) noexcept {
    const std::uint8_t* q = p;
    while (q != end && *q == 0) {
      ++q;
    }
    const auto n = static_cast<std::uint64_t>(q - p);
    note_empty_frame();
    empty_run_count_ += n - 1;
    pos_ = frame_start_ + n;
    frame_start_ = pos_;
    frame_index_ += n;
    return q;
  }
  void note_empty_frame() noexcept {
    if (empty_run_count_ == 0) {
      empty_run_start_ = frame_start_;
      empty_run_index_ = frame_index_;
    }
    ++empty_run_count_;
  }
  // Reports the run of empty frames that ends at frame_start_, if any.
  template <class Sink>
  void flush_empty_run(Sink& sink) {
    if (empty_run_count_ == 0) {
      return;
    }
    empty_error_ = DecodeError{DecodeErrorKind::kEmptyFrame};
    empty_error_.value = empty_run_count_;
    const RawFrame frame{{}, {empty_run_start_, frame_start_ - empty_run_start_, empty_run_index_}, &empty_error_};
    empty_run_count_ = 0;
    sink(frame);
  }

  void reset_frame(std::uint64_t next_start) noexcept {
    pos_ = next_start;
    frame_start_ = next_start;
    ++frame_index_;
    len_ = 0;
    block_left_ = 0;
    code_ = 0;
    skipping_ = false;
  }

  std::size_t max_frame_len_;
  std::unique_ptr<std::uint8_t[]> frame_;  // decoded content of the open frame
  std::size_t len_ = 0;
  std::uint64_t pos_ = 0;          // stream offset of the next byte
  std::uint64_t frame_start_ = 0;  // stream offset of the open frame
  std::uint64_t frame_index_ = 0;
  std::uint32_t block_left_ = 0;  // data bytes the current block still expects; 0: a code byte is next
  std::uint8_t code_ = 0;         // code byte of the current block; 0 before the first block
  bool skipping_ = false;         // the open frame is bad: discard up to its delimiter
  DecodeError error_{DecodeErrorKind::kBadCobs};
  // Empty frames seen in a row and not yet reported: reported as one when
  // something else comes (or the stream ends).
  std::uint64_t empty_run_count_ = 0;
  std::uint64_t empty_run_start_ = 0;
  std::uint64_t empty_run_index_ = 0;
  DecodeError empty_error_{DecodeErrorKind::kEmptyFrame};
};

}  // namespace tband
