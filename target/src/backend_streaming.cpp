// Streaming backend: start, restart, stop.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_BACKEND_STREAMING == 1

#include "event_path.hpp"
#include "tracing_state.hpp"
// A C header: its casts are C's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "tband/crc16.h"
#pragma GCC diagnostic pop

namespace rt = tband::rt;
namespace enc = tband::enc;

namespace tband::rt::backend {

#if tband_configLINK_INTEGRITY == 1
namespace {

// The next sequence number of each core, and the core whose numbers the
// frames take: the calling core's, except while a start replays another
// core's metadata after a core_id naming it (the host follows core_id).
// Before the start's first core_id they are the starting core's too: the
// host counts them as the core its stream last named, which in the starting
// core's own stream (a per-core file, FILE@core) is that core.
std::uint16_t g_link_seq[kCores];
unsigned g_link_core = kNoLinkCore;
// One frame with its trailer, per core (used inside the core's critical section,
// or by the start, which no other core streams during).
constexpr std::size_t kLinkTrailerLen = 4;  // seq, CRC: u16 little-endian each
constexpr std::size_t kMaxLinkFrameLen = enc::kMaxFramedLen + kLinkTrailerLen + 2;
std::uint8_t g_link_frame[kCores][kMaxLinkFrameLen];

// Copies one COBS frame (ending with its 0x00, n bytes, at most
// enc::kMaxFramedLen) into out with seq and the CRC appended to its decoded
// content, re-encoded; returns the new length. The CRC covers the decoded
// content and seq, computed on the way through the code blocks.
std::size_t add_trailer(std::uint8_t* out, const std::uint8_t* frame, std::size_t n, std::uint16_t seq) noexcept {
  std::uint16_t crc = TBAND_CRC16_INIT;
  std::size_t last = 0;  // the last block's code byte
  for (std::size_t pos = 0; pos + 1 < n;) {
    const std::uint8_t code = frame[pos];
    for (std::size_t i = 1; i < code; ++i) {
      crc = tband_crc16_update(crc, frame[pos + i]);
    }
    last = pos;
    pos += code;
    if (pos + 1 < n && code != 0xFF) {
      crc = tband_crc16_update(crc, 0);  // the zero a block shorter than 254 bytes stands for
    }
  }
  copy_bytes(out, frame, n - 1);
  std::size_t len = n - 1;
  std::size_t code_at = last;
  std::uint8_t code = frame[last];
  std::uint8_t trailer[kLinkTrailerLen] = {static_cast<std::uint8_t>(seq), static_cast<std::uint8_t>(seq >> 8)};
  crc = tband_crc16_update(tband_crc16_update(crc, trailer[0]), trailer[1]);
  trailer[2] = static_cast<std::uint8_t>(crc);
  trailer[3] = static_cast<std::uint8_t>(crc >> 8);
  for (const std::uint8_t byte : trailer) {  // COBS-encoded onto the last block
    if (code == 0xFF || byte == 0) {  // a full block (no zero after it), or a zero: a new block
      out[code_at] = code;
      code_at = len++;
      code = 1;
      if (byte == 0) {
        continue;
      }
    }
    out[len++] = byte;
    ++code;
  }
  out[code_at] = code;
  out[len++] = 0;
  return len;
}

// A core's own link_integrity frame (seq_bits 16, crc_bits 16: varints of
// one byte each), sent before its first frame after a start that another core
// made: a stream per core then gets the announcement too.
constexpr std::uint8_t kAnnounceFrame[] = {4, enc::LinkIntegrity::kId, 16, 16, 0};
static_assert(enc::LinkIntegrity::kId != 0);
bool g_link_announce[kCores];
bool g_link_announced = false;  // a start sent link_integrity (set under the state lock)

// One frame (n bytes with its 0x00) with its trailer to the stream hook. A
// link_integrity frame carries the core's next number and uses none up (the
// host takes it up from there); a dropped frame uses none either.
bool link_frame(unsigned caller, unsigned core, const std::uint8_t* frame, std::size_t n) noexcept {
  const bool announce = n > 2 && frame[0] > 1 && frame[1] == enc::LinkIntegrity::kId;
  std::uint16_t& seq = per_core(g_link_seq, core);
  std::uint8_t* out = per_core(g_link_frame, caller);
  const std::size_t out_len = add_trailer(out, frame, n, seq);
  if (tband_portBACKEND_STREAM_DATA(out, out_len)) {
    return true;
  }
  if (!announce) {
    ++seq;
  }
  return false;
}

}  // namespace

bool link_stream(const std::uint8_t* data, std::size_t len) noexcept {
  const unsigned caller = current_core();
  unsigned core = caller;
  if (g_link_core != kNoLinkCore) {
    core = g_link_core;
  } else if (per_core(g_link_announce, caller)) {
    if (link_frame(caller, caller, kAnnounceFrame, sizeof kAnnounceFrame)) {
      return true;
    }
    per_core(g_link_announce, caller) = false;
  }
  const std::uint8_t* const end = data + len;
  for (const std::uint8_t* frame = data; frame != end;) {
    const std::uint8_t* next = frame;
    while (next != end && *next++ != 0) {
    }
    if (link_frame(caller, core, frame, static_cast<std::size_t>(next - frame))) {
      return true;
    }
    frame = next;
  }
  return false;
}

void link_started(unsigned caller) noexcept {
  for (unsigned core = 0; core < kCores; ++core) {
    g_link_announce[core] = core != caller;
  }
  g_link_announced = true;
}

bool link_announced() noexcept { return g_link_announced; }

void link_announce_again(unsigned core) noexcept { per_core(g_link_announce, core) = true; }

void set_link_core(unsigned core) noexcept { g_link_core = core; }
#endif

bool flush_staged_frames(bool count_drops) noexcept {
  const std::size_t used = g_staging.used;
  const std::uint32_t reports = g_staging.reports;
  g_staging.used = 0;
  g_staging.reports = 0;
  if (used == 0 || !stream_data(g_staging.data, used)) {
    return false;
  }
  if (count_drops) {
    // Hook calls among the dropped frames: one 0x00 ends each frame (bounded
    // by the buffer's size; only after a drop).
    std::uint32_t frames = 0;
    for (std::size_t i = 0; i < used; ++i) {
      frames += g_staging.data[i] == 0 ? 1u : 0u;
    }
    record_drops(0, frames - reports);
  }
  return true;
}

#if tband_configCOMPACT_TIMESTAMPS == 1 && tband_portNUMBER_OF_CORES > 1
// compact_timestamps (tag_bits 2, delta_bits 19: varints of one byte each),
// sent by a core on its own stream when a start on another core asked it to
// (compact_ts.hpp), with a trailer when integrity is on.
bool compact_announcement_dropped() noexcept {
  static_assert(compact_ts::kTagBits < 0x80 && compact_ts::kDeltaBits < 0x80 && enc::CompactTimestamps::kId != 0);
  static constexpr std::uint8_t kFrame[] = {4, enc::CompactTimestamps::kId, compact_ts::kTagBits,
                                            compact_ts::kDeltaBits, 0};
  bool dropped = false;
  if constexpr (kLinkIntegrity) {
    dropped = link_stream(kFrame, sizeof kFrame);
  } else {
    dropped = tband_portBACKEND_STREAM_DATA(kFrame, sizeof kFrame);
  }
  if (!dropped) {
    per_core(compact_ts::g_state, current_core()).announce = false;
  }
  return dropped;
}
#endif

}  // namespace tband::rt::backend

namespace {

using enc::FieldWidth;
inline constexpr std::uint32_t kTsResolutionSpec = enc::field_spec(FieldWidth::kU64) | enc::TsResolutionNs::kId;
inline constexpr std::uint32_t kCoreIdSpec = enc::field_spec(FieldWidth::kU64, FieldWidth::kU32) | enc::CoreId::kId;
inline constexpr std::uint32_t kLinkSeqBits = 16;
inline constexpr std::uint32_t kLinkCrcBits = 16;

bool failed(rt::Delivery delivery) noexcept { return delivery != rt::Delivery::kDelivered; }

// tband_configBACKEND_STREAM_START_RETRIES: start hands the hook what it said
// it dropped again (the same bytes), up to that many times, and never what it
// took, so the host gets every frame once. With 0 retries every helper below
// is the plain call, inlined: the default costs no byte.
inline constexpr unsigned kStartRetries = tband_configBACKEND_STREAM_START_RETRIES;

// Out of line, one copy each: a loop inlined at every call site would cost
// bytes, and a lambda's captures stack.
__attribute__((noinline)) bool stream_retried(const std::uint8_t* data, std::size_t len) noexcept {
  bool dropped = rt::backend::stream_data(data, len);
  for (unsigned left = kStartRetries; dropped && left > 0; --left) {
    tband_portBACKEND_STREAM_START_RETRY_WAIT();
    dropped = rt::backend::stream_data(data, len);
  }
  return dropped;
}

// Unstaged a report is one hook call: a drop re-encodes the same fields into
// the same bytes. Staged it only fills the staging buffer, which
// start_batch_dropped() hands over.
__attribute__((noinline)) rt::Delivery send_report_retried(std::uint32_t second, std::uint32_t spec,
                                                           std::uint64_t first) noexcept {
  rt::Delivery delivery = rt::send_report(second, spec, first);
  for (unsigned left = kStartRetries; failed(delivery) && left > 0; --left) {
    tband_portBACKEND_STREAM_START_RETRY_WAIT();
    delivery = rt::send_report(second, spec, first);
  }
  return delivery;
}

// One of start's reports, as send_report().
__attribute__((always_inline)) inline rt::Delivery send_start_report(std::uint32_t second, std::uint32_t spec,
                                                                    std::uint64_t first) noexcept {
  if constexpr (kStartRetries == 0) {
    return rt::send_report(second, spec, first);
  } else {
    return send_report_retried(second, spec, first);
  }
}

// Staged: start's reports so far, as one hook call. With retries they are
// taken out of the buffer first and stay in it for a resend.
__attribute__((always_inline)) inline bool start_batch_dropped() noexcept {
  if constexpr (kStartRetries == 0 || !rt::backend::kStaged) {
    return rt::backend::flush_staging(false);
  } else {
    rt::backend::StagingBuffer& staging = rt::backend::g_staging;
    const std::size_t used = staging.used;
    staging.used = 0;
    staging.reports = 0;
    return used > 0 && stream_retried(staging.data, used);
  }
}

// A core's metadata buffer: one hook call. With retries, one call per frame
// (each ends with its one 0x00, COBS): a link that cannot take the whole
// buffer at once can take it frame by frame, and a drop costs one frame.
__attribute__((always_inline)) inline bool metadata_dropped(const std::uint8_t* data, std::size_t used) noexcept {
  if constexpr (kStartRetries == 0) {
    return used > 0 && rt::backend::stream_data(data, used);
  } else {
    const std::uint8_t* const end = data + used;
    for (const std::uint8_t* frame = data; frame != end;) {
      const std::uint8_t* next = frame;
      while (next != end && *next++ != 0) {
      }
      if (stream_retried(frame, static_cast<std::size_t>(next - frame))) {
        return true;
      }
      frame = next;
    }
    return false;
  }
}

// A core_id event naming `core`, stamped with 0 as the reference tracer does.
// Staged, it goes out with what was staged before it, ahead of the metadata
// buffer that follows (streamed as it is); what start sends is no hook call,
// so a drop is not counted.
__attribute__((noinline)) rt::Delivery send_core_id(unsigned core) noexcept {
  const rt::Delivery delivery = send_start_report(core, kCoreIdSpec, 0);
  if (delivery == rt::Delivery::kDelivered && start_batch_dropped()) {
    return rt::Delivery::kDropped;
  }
  return delivery;
}

// While start (or a resend) replays a core's metadata, its frames take that
// core's sequence numbers (the host follows core_id); after, and on every
// early return, the calling core's again. A resend runs while the other
// cores trace: another core's numbers and reports are that core's, written
// under its backend lock, so the resend holds it meanwhile (lock order:
// state lock, then backend locks, as the finished checks), and as its own
// stream then misses those numbers it announces integrity again before its
// next frame, from where the host counts. At a start (tracing off, every
// backend finished) no other core writes.
class ReplayingCore {
 public:
  explicit ReplayingCore(unsigned core) noexcept
      : core_(core), held_(rt::kMultiCore && rt::tracing_enabled() && core != rt::current_core()) {
    if (held_) {
      rt::per_core(rt::g_backend_locks, core_).lock();
    }
    rt::backend::set_link_core(core_);
  }
  ~ReplayingCore() {
    rt::backend::set_link_core(rt::backend::kNoLinkCore);
    if (held_) {
      rt::backend::link_announce_again(core_);
      rt::per_core(rt::g_backend_locks, core_).unlock();
    }
  }
  ReplayingCore(const ReplayingCore&) = delete;
  ReplayingCore& operator=(const ReplayingCore&) = delete;

 private:
  unsigned core_;
  bool held_;
};

// ts_resolution_ns says what a tick is; the host reads an event before it
// at 1 ns per tick. A core that gathers the system metadata only after the
// start streams it behind its first report, which is timestamped, and other
// cores' events may be merged before that. So every start sends it first,
// ahead of every core's first event, whoever gathers it and when.
//
// Then every core's metadata buffer, each after a core_id event naming its
// core and followed by a metadata_overflow event if it lost any (the core
// does not report the same totals again before its first event); then a
// core_id event for the calling core, whose events follow. True if anything
// was dropped (after the retries).
bool send_metadata() noexcept {
  if constexpr (!rt::kUseMetadataBuf) {
    return false;
  } else {
    if (failed(send_start_report(0, kTsResolutionSpec, tband_portTIMESTAMP_RESOLUTION_NS))) {
      return true;
    }
    for (unsigned core = 0; core < rt::kCores; ++core) {
      const rt::MetadataView meta = rt::metadata_view(core);
      if (meta.used == 0 && meta.lost_evts == 0) {
        continue;
      }
      const ReplayingCore replaying(core);
      if (failed(send_core_id(core)) || metadata_dropped(meta.data, meta.used)) {
        return true;
      }
      if (meta.lost_evts > 0) {
        rt::set_metadata_overflow_fields(rt::current_core(), core, meta.lost_evts, meta.lost_bytes);
        // Stamped as a metadata hook's reports are (compact_ts.hpp: an
        // absolute one is no anchor); another core's without its State.
        const std::uint64_t now = tband_portTIMESTAMP();
        const std::uint64_t ts = rt::compact_ts::kEnabled && core != rt::current_core()
                                     ? rt::compact_ts::foreign_field(now)
                                     : rt::ts_field(core, true, now);
        if (failed(send_start_report(core, rt::kMetadataOverflowSpec, ts))) {
          return true;
        }
        rt::metadata_loss_sent_at_start(core, meta.lost_evts);
      }
    }
    return failed(send_core_id(rt::current_core()));
  }
}

// Compact timestamps (compact_ts.hpp): every core's next timestamp is
// absolute, and compact_timestamps says so, ahead of everything timestamped
// (the metadata's reports); with several cores every other core says so on
// its own stream (ask_others()). False when nothing was dropped; nothing
// without them.
inline constexpr std::uint32_t kCompactTagBits = rt::compact_ts::kTagBits;
inline constexpr std::uint32_t kCompactDeltaBits = rt::compact_ts::kDeltaBits;
bool compact_start_dropped() noexcept {
  if constexpr (!rt::compact_ts::kEnabled) {
    return false;
  } else {
    if constexpr (rt::kMultiCore) {
      // The other cores' hooks may be stamping (a resend runs while they
      // trace; while tracing is off they stamp too): each drops its own
      // anchor when it takes the request.
      const unsigned caller = rt::current_core();
      rt::compact_ts::invalidate(caller);
      rt::compact_ts::ask_others(caller);
    } else {
      rt::compact_ts::reset();
    }
    rt::compact_ts::g_announced = true;
    return failed(send_start_report(kCompactDeltaBits, enc::CompactTimestamps::kSpec, kCompactTagBits));
  }
}

// Integrity on: link_integrity first, then the metadata, numbered as the
// starting core's but for each core's replayed metadata (ReplayingCore);
// every other core announces integrity again before its first frame
// (link_stream()).
bool send_start_frames() noexcept {
  if constexpr (!rt::backend::kLinkIntegrity) {
    return compact_start_dropped() || send_metadata();
  } else {
    rt::backend::link_started(rt::current_core());
    return failed(send_start_report(kLinkCrcBits, enc::LinkIntegrity::kSpec, kLinkSeqBits)) ||
           compact_start_dropped() || send_metadata();
  }
}

}  // namespace

extern "C" int tband_start_streaming(void) {
  return rt::start_tracing([] { return send_start_frames() ? -2 : 0; });
}

extern "C" int tband_restart_streaming(void) {
  return rt::start_tracing([] {
    if constexpr (rt::compact_ts::kEnabled && !rt::kMultiCore) {
      // What the hooks stamped while tracing was off never reached the host
      // (several cores: each took that back itself, compact_ts::not_sent()).
      rt::compact_ts::reset();
    }
    return 0;
  });
}

extern "C" int tband_stop_streaming(void) {
  return rt::with_state_lock([] {
    if (!rt::disable_tracing()) {
      return -1;
    }
    (void)rt::backend::flush_staging();  // no core writes any more (one core, in its critical section)
    return 0;
  });
}

#if tband_configUSE_CONTROL == 1
#include "control.hpp"

// The control channel's "metadata" command: what start sends, while
// streaming runs, so that a host that attached later gets every name. In the
// state lock's critical section no event of the calling core comes in
// between; another core's are held off while its metadata is replayed
// (ReplayingCore), and each other core announces again on its own stream.
int tband::rt::ctl::resend_stream_metadata() noexcept {
  return rt::with_state_lock([] {
    if (!rt::tracing_enabled()) {
      return -1;
    }
    if (rt::backend::flush_staging()) {
      return -2;
    }
    return compact_start_dropped() || send_metadata() ? -2 : 0;
  });
}
#endif

extern "C" int tband_flush_streaming(void) {
  tband_portENTER_CRITICAL_FROM_ANY();
  const bool dropped = rt::backend::flush_staging();
  tband_portEXIT_CRITICAL_FROM_ANY();
  return dropped ? -1 : 0;
}

#endif
