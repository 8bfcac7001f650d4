#include "input/decompressor.hpp"

#include <new>

#ifndef TBAND_NO_DECOMPRESSION
#include <zlib.h>
#include <zstd.h>
#endif

namespace tband {

Compression sniff_compression(std::span<const std::uint8_t> head) noexcept {
  if (head.size() >= 4 && head[1] == 0xB5 && head[2] == 0x2F && head[3] == 0xFD && head[0] == 0x28) {
    return Compression::kZstd;  // a zstd frame: 0xFD2FB528 little-endian
  }
  if (head.size() >= 4 && (head[0] & 0xF0) == 0x50 && head[1] == 0x2A && head[2] == 0x4D && head[3] == 0x18) {
    return Compression::kZstd;  // a zstd skippable frame: 0x184D2A50..5F
  }
  if (head.size() >= 3 && head[0] == 0x1F && head[1] == 0x8B && head[2] == 8) {
    return Compression::kGzip;  // a gzip member, deflate
  }
  return Compression::kNone;
}

std::string_view compression_name(Compression c) noexcept {
  switch (c) {
    case Compression::kZstd: return "zstd";
    case Compression::kGzip: return "gzip";
    case Compression::kNone: break;
  }
  return "none";
}

#ifndef TBAND_NO_DECOMPRESSION
namespace {

std::string cut_short(std::string_view what, std::uint64_t start, std::uint64_t end) {
  return "compressed input cut short: the " + std::string{what} + " that starts at byte " + std::to_string(start) +
         " is incomplete (the input ends at byte " + std::to_string(end) +
         "); everything before it was read, and of it what could be decoded";
}

class ZstdDecompressor final : public StreamDecompressor {
 public:
  ZstdDecompressor() : ctx_(ZSTD_createDCtx()) {
    if (ctx_ == nullptr) {
      throw std::bad_alloc();
    }
  }
  ~ZstdDecompressor() override { ZSTD_freeDCtx(ctx_); }
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  std::size_t take(std::span<std::uint8_t> out) override {
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    while (o.pos < o.size) {
      if (!in_frame_ && in_pos_ < in_.size()) {
        in_frame_ = true;
        frame_start_ = consumed_;
      }
      ZSTD_inBuffer i{in_.data(), in_.size(), in_pos_};
      const std::size_t out_before = o.pos;
      const std::size_t r = ZSTD_decompressStream(ctx_, &o, &i);
      const bool used_input = i.pos != in_pos_;
      consumed_ += i.pos - in_pos_;
      in_pos_ = i.pos;
      if (ZSTD_isError(r) != 0) {
        throw DecompressError("not valid zstd data in the frame that starts at byte " + std::to_string(frame_start_) +
                              ": " + ZSTD_getErrorName(r));
      }
      if (r == 0) {
        in_frame_ = false;  // a frame ended (its checksum, if any, verified)
      }
      // Output room left with all input used: zstd has handed out all it can.
      if ((in_pos_ == in_.size() && o.pos < o.size) || (!used_input && o.pos == out_before)) {
        break;
      }
    }
    return o.pos;
  }

  std::string finish() override { return in_frame_ ? cut_short("zstd frame", frame_start_, consumed_) : ""; }

 private:
  ZSTD_DCtx* ctx_;
  bool in_frame_ = false;
  std::uint64_t frame_start_ = 0;
};

class GzipDecompressor final : public StreamDecompressor {
 public:
  GzipDecompressor() {
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) {  // 16: gzip wrapper only
      throw std::bad_alloc();
    }
  }
  ~GzipDecompressor() override { inflateEnd(&zs_); }
  GzipDecompressor(const GzipDecompressor&) = delete;
  GzipDecompressor& operator=(const GzipDecompressor&) = delete;

  std::size_t take(std::span<std::uint8_t> out) override {
    zs_.next_out = out.data();
    zs_.avail_out = static_cast<uInt>(out.size());
    while (zs_.avail_out > 0) {
      if (!in_member_) {
        if (members_ != 0) {
          // Zero bytes after a member are padding (a block device, a tape, a
          // flash page), which gzip(1) skips too; anything else starts a member.
          while (in_pos_ < in_.size() && in_[in_pos_] == 0) {
            ++in_pos_;
            ++consumed_;
            ++padding_;
          }
        }
        if (in_pos_ == in_.size()) {
          break;
        }
        if (members_ != 0 && inflateReset(&zs_) != Z_OK) {
          throw DecompressError("gzip: cannot restart the decoder");
        }
        in_member_ = true;
        member_start_ = consumed_;
      }
      const std::size_t avail = in_.size() - in_pos_;
      zs_.next_in = const_cast<Bytef*>(in_.data() + in_pos_);  // zlib's API is not const; it only reads
      zs_.avail_in = static_cast<uInt>(avail);
      const int r = inflate(&zs_, Z_NO_FLUSH);
      const std::size_t used = avail - zs_.avail_in;
      in_pos_ += used;
      consumed_ += used;
      if (r == Z_STREAM_END) {
        in_member_ = false;  // a member ended, its CRC and length checked; another may follow
        ++members_;
        continue;
      }
      if (r == Z_BUF_ERROR) {
        break;  // no progress possible: the input is used up
      }
      if (r != Z_OK) {
        throw DecompressError("not valid gzip data in the member that starts at byte " +
                              std::to_string(member_start_) + ": " +
                              (zs_.msg != nullptr ? zs_.msg : "error " + std::to_string(r)));
      }
      if (zs_.avail_out > 0) {
        break;  // all input used, all output handed out
      }
    }
    return out.size() - zs_.avail_out;
  }

  std::string finish() override { return in_member_ ? cut_short("gzip member", member_start_, consumed_) : ""; }
  std::string note() const override {
    return padding_ == 0 ? "" : std::to_string(padding_) + " zero byte(s) of padding after gzip data skipped";
  }

 private:
  z_stream zs_{};
  bool in_member_ = false;
  std::uint64_t members_ = 0;
  std::uint64_t member_start_ = 0;
  std::uint64_t padding_ = 0;
};

}  // namespace

std::unique_ptr<StreamDecompressor> StreamDecompressor::make(Compression c) {
  switch (c) {
    case Compression::kZstd: return std::make_unique<ZstdDecompressor>();
    case Compression::kGzip: return std::make_unique<GzipDecompressor>();
    case Compression::kNone: break;
  }
  throw std::invalid_argument("StreamDecompressor::make: no compression");
}
#else
// Built without libzstd and zlib (the WebAssembly converter, TBAND_WASM):
// a compressed input is recognised and refused.
std::unique_ptr<StreamDecompressor> StreamDecompressor::make(Compression c) {
  if (c == Compression::kNone) {
    throw std::invalid_argument("StreamDecompressor::make: no compression");
  }
  throw DecompressError("compressed input (" + std::string{compression_name(c)} +
                        "): this build cannot decompress it, decompress it first");
}
#endif

}  // namespace tband
