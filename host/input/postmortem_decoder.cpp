// The "postmortem" input format: a RAM dump (or just the block) from a
// firmware built with the post-mortem backend. The block can only be read
// whole, so the decoder recovers it at the end of the input; the
// trace stream it produces is, for each core, a core_id event, the core's
// metadata, a metadata_overflow event if the metadata area lost any, and the
// ring's whole frames, oldest first. The dump is scanned as it arrives and
// only a candidate block's bytes are kept (postmortem::DumpScanner), so a RAM
// image of any size costs memory for its block only.
#include <algorithm>
#include <array>
#include <string>

#include "input/input_format.hpp"
#include "postmortem/dump_reader.hpp"
#include "tband_encode.hpp"

namespace tband {

namespace {

class PostmortemDecoder final : public ByteDecoder {
 public:
  void feed(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& /*out*/) override {
    scanner_.feed(in);
  }

  void finish(std::vector<std::uint8_t>& out) override {
    const postmortem::DumpResult result = scanner_.finish();
    if (!result) {
      throw InputFormatError(postmortem::describe(result.error()));  // "post-mortem dump, byte N: ..."
    }
    const postmortem::Dump& dump = result.value();
    std::array<std::uint8_t, enc::kMaxFramedLen> frame{};
    const auto append = [&](std::size_t len) { out.insert(out.end(), frame.begin(), frame.begin() + len); };
    note_ = "post-mortem block at byte " + std::to_string(dump.block_offset) + " of the dump (" +
            (dump.byte_order == postmortem::ByteOrder::kLittleEndian ? "little" : "big") + "-endian, layout v" +
            std::to_string(dump.version) + ")";
    for (const postmortem::CoreDump& core : dump.cores) {
      // Stamped 0 like the runtime's own core_id events: they only say whose
      // frames follow. Losses are totals, so stamping the report 0 loses nothing.
      append(enc::encode_core_id(frame.data(), 0, core.core_id));
      out.insert(out.end(), core.metadata.begin(), core.metadata.end());
      if (core.metadata_lost_evts > 0) {
        append(enc::encode_metadata_overflow(frame.data(), 0, core.core_id, core.metadata_lost_evts,
                                             core.metadata_lost_bytes));
      }
      out.insert(out.end(), core.events.begin(), core.events.end());
      note_ += "; core " + std::to_string(core.core_id) + ": " + std::to_string(core.event_frames) + " events" +
               (core.wrapped ? ", ring wrapped (older events overwritten)" : "") +
               (core.skipped_bytes > 0 ? ", " + std::to_string(core.skipped_bytes) + " bytes of cut frames skipped"
                                       : "");
    }
  }

  [[nodiscard]] std::string note() const override { return note_; }

 private:
  postmortem::DumpScanner scanner_;
  std::string note_;
};

}  // namespace

std::unique_ptr<ByteDecoder> make_postmortem_decoder() { return std::make_unique<PostmortemDecoder>(); }

// A dump holds the block, in the target's byte order, somewhere in it: the
// magic alone is not enough (a raw trace's marker name may hold "TBPM").
int sniff_postmortem(std::span<const std::uint8_t> head) { return postmortem::find_block_header(head) ? 95 : 0; }

}  // namespace tband
