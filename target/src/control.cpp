// The control channel: command frames from the host (tband_rx_feed()),
// checked and queued; carried out at the firmware's safe point
// (tband_rx_poll()), each acknowledged with a ctl_ack event on the up-link.
//
// Down-link frame: COBS(cmd, args..., crc_hi, crc_lo) 0x00, the CRC-16/
// CCITT-FALSE of cmd and args, big-endian. feed() decodes COBS byte by byte
// into a small fixed buffer, so a frame may arrive in any number of pieces;
// it only checks and queues (bounded time per byte, no heap): carrying a
// command out can take long (start streams every metadata buffer in one
// critical section) and calls the stream hook, which an RX interrupt must
// not. Nothing a frame says is acted on before its CRC matched.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_CONTROL == 1

#include <atomic>

#include "control.hpp"
#include "event_path.hpp"
// A C header: its casts are C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#include "tband/crc16.h"
#pragma GCC diagnostic pop
#include "tracing_state.hpp"

namespace rt = tband::rt;
namespace enc = tband::enc;
namespace ctl = tband::rt::ctl;

namespace {

constexpr std::size_t kRxBufSize = tband_configCONTROL_RX_BUF_SIZE;
constexpr unsigned kQueueLen = 4;  // a power of two

// Counters: feed() is their one writer (a load and a store, no read-modify-write).
struct Counter {
  std::atomic<std::uint32_t> value{0};
  void bump() noexcept { value.store(value.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  std::uint32_t get() const noexcept { return value.load(std::memory_order_relaxed); }
};

struct Receiver {
  std::uint8_t buf[kRxBufSize] = {};  // initialised: constant initialisation, no constructor at start-up
  std::size_t len = 0;
  std::uint8_t block_left = 0;  // data bytes left in the current COBS block
  bool zero_pending = false;    // the current block ends in a 0 (code below 0xFF)
  bool too_long = false;
  Counter accepted, bad_crc, malformed, overflow, busy;
};

struct Queued {
  std::uint8_t cmd = 0;
  std::uint8_t status = 0;  // kDone: carry it out; else acknowledge with this status
  std::uint8_t len = 0;     // of args
  std::uint8_t args[kRxBufSize - 2] = {};  // the arguments (at most kRxBufSize - 3) and room for a 0 terminator
};

// Single producer (feed), single consumer (poll).
struct Queue {
  Queued items[kQueueLen];
  std::atomic<unsigned> head{0};  // written by poll
  std::atomic<unsigned> tail{0};  // written by feed
};

Receiver g_rx;
Queue g_queue;

bool known(std::uint8_t cmd) noexcept { return cmd >= ctl::kStart && cmd <= ctl::kFilterClear; }

bool arguments_fit(std::uint8_t cmd, std::size_t len, const std::uint8_t* args) noexcept {
  switch (cmd) {
    case ctl::kFilterEvent:
      return len == 2 && args[1] <= 1;
    case ctl::kFilterGroup:
      return len >= 2 && args[0] <= 1;
    case ctl::kFilterObject:
      return len == 6 && args[1] <= 1;
    default:
      return len == 0;
  }
}

void enqueue(std::uint8_t cmd, std::uint8_t status, const std::uint8_t* args, std::size_t len) noexcept {
  const unsigned tail = g_queue.tail.load(std::memory_order_relaxed);
  if (tail - g_queue.head.load(std::memory_order_acquire) >= kQueueLen) {
    g_rx.busy.bump();
    return;
  }
  Queued& item = g_queue.items[tail % kQueueLen];
  item.cmd = cmd;
  item.status = status;
  item.len = static_cast<std::uint8_t>(len);
  rt::copy_bytes(item.args, args, len);
  g_queue.tail.store(tail + 1, std::memory_order_release);
  g_rx.accepted.bump();
}

// A whole frame (its 0x00 arrived): check, then queue.
void end_frame() noexcept {
  Receiver& rx = g_rx;
  if (rx.too_long) {
    rx.overflow.bump();
  } else if (rx.block_left != 0 || rx.len < 3) {
    rx.malformed.bump();
  } else {
    const std::size_t body = rx.len - 2;
    const auto crc = static_cast<std::uint16_t>((rx.buf[body] << 8) | rx.buf[body + 1]);
    if (tband_crc16(rx.buf, body) != crc) {
      rx.bad_crc.bump();
    } else {
      const std::uint8_t cmd = rx.buf[0];
      std::uint8_t status = ctl::kDone;
      std::size_t len = body - 1;
      if (!known(cmd)) {
        status = ctl::kUnknown;
      } else if (!arguments_fit(cmd, len, rx.buf + 1)) {
        status = ctl::kBadArguments;
      }
      if (status != ctl::kDone) {
        len = 0;
      }
      enqueue(cmd, status, rx.buf + 1, len);
    }
  }
  rx.len = 0;
  rx.block_left = 0;
  rx.zero_pending = false;
  rx.too_long = false;
}

void append(std::uint8_t byte) noexcept {
  Receiver& rx = g_rx;
  if (rx.len == kRxBufSize) {
    rx.too_long = true;  // counted once, when the frame ends
    return;
  }
  rx.buf[rx.len++] = byte;
}

// The ack: into the trace through the event path while tracing runs; while
// it does not, straight to the stream hook (streaming), so that a stop, or a
// query of a stopped target, is answered too.
void acknowledge(std::uint8_t cmd, std::uint32_t status, std::uint32_t value) noexcept {
  tband_portENTER_CRITICAL_FROM_ANY();
  const unsigned core = rt::current_core();
  std::uint64_t ts = tband_portTIMESTAMP();
  if constexpr (rt::compact_ts::kEnabled) {
    // Off, the ack goes straight to the link, no anchor (as a metadata hook's
    // timestamp); before the first start the host reads timestamps as they are.
    if (rt::tracing_enabled() || rt::compact_ts::g_announced) {
      ts = rt::ts_field(core, !rt::tracing_enabled(), ts);
    }
  }
  const auto encode = [&](std::uint8_t* out) { return enc::encode_ctl_ack(out, ts, cmd, status, value); };
  if (rt::tracing_enabled()) {
    rt::trace_event<enc::CtlAck::kMaxFramedLen>(core, ts, false, encode);
  } else {
#if tband_configUSE_BACKEND_STREAMING == 1
    // Through the stream path as every frame once a start announced link
    // integrity: its trailer (from then on the host checks every frame);
    // and with compact timestamps on several cores this core's announcement
    // first if it still owes one (if that is dropped, so is the ack: the
    // host asks again). Before, as it is: the host reads it so.
    std::uint8_t frame[enc::CtlAck::kMaxFramedLen];
    const std::size_t len = encode(frame);
    if (rt::backend::kLinkIntegrity && !rt::backend::link_announced()) {
      (void)tband_portBACKEND_STREAM_DATA(frame, len);
    } else {
      (void)rt::backend::stream_data(frame, len);
    }
#endif
  }
  tband_portEXIT_CRITICAL_FROM_ANY();
}

std::uint32_t rejected() noexcept {
  return g_rx.bad_crc.get() + g_rx.malformed.get() + g_rx.overflow.get() + g_rx.busy.get();
}

// 0 done, -1 refused (state), -2 failed: the backends' return codes.
std::uint32_t status_of(int result) noexcept {
  return result == 0 ? ctl::kDone : result == -1 ? ctl::kRefused : ctl::kFailed;
}

#if tband_configUSE_FILTERS == 1
// A filter command's status: 0 done, -1 refused (an id the filter cannot
// leave out, no such group, key or object id), -2 the object table is full.
std::uint32_t filter_status(int result) noexcept {
  return result == 0 ? ctl::kDone : result == -1 ? ctl::kRefused : ctl::kFailed;
}

// The name follows the traced byte; it is 0-terminated in place (the
// arguments are at most the buffer less 3 bytes, args has room for one more).
int set_group(Queued& item) noexcept {
  item.args[item.len] = 0;
  const int group = tband_filter_find_group(reinterpret_cast<const char*>(item.args + 1));
  return group < 0 ? -1 : tband_filter_set_group(static_cast<unsigned>(group), item.args[0] != 0);
}
#endif

void carry_out(Queued& item) noexcept {
  const std::uint8_t cmd = item.cmd;
  std::uint32_t status = ctl::kNotBuilt;
  std::uint32_t value = 0;
  switch (cmd) {
#if tband_configUSE_BACKEND_STREAMING == 1
    case ctl::kStart:
      status = status_of(tband_start_streaming());
      break;
    case ctl::kStop:
      status = status_of(tband_stop_streaming());
      break;
    case ctl::kRestart:
      status = status_of(tband_restart_streaming());
      break;
    case ctl::kMetadata:
      status = status_of(ctl::resend_stream_metadata());
      break;
#endif
#if tband_configUSE_BACKEND_SNAPSHOT == 1
    case ctl::kSnapshot:
      status = status_of(tband_trigger_snapshot());
      break;
#endif
    case ctl::kDropped:
      status = ctl::kDone;
      value = tband_get_dropped_evt_cnt();
      break;
    case ctl::kRejected:
      status = ctl::kDone;
      value = rejected();
      break;
#if tband_configUSE_FILTERS == 1
    case ctl::kFilterEvent:
      status = filter_status(tband_filter_set_event(item.args[0], item.args[1] != 0));
      break;
    case ctl::kFilterGroup:
      status = filter_status(set_group(item));
      break;
    case ctl::kFilterObject: {
      const std::uint32_t id = (std::uint32_t{item.args[2]} << 24) | (std::uint32_t{item.args[3]} << 16) |
                               (std::uint32_t{item.args[4]} << 8) | item.args[5];
      status = filter_status(tband_filter_set_object(item.args[0], id, item.args[1] != 0));
      break;
    }
    case ctl::kFilterClear:
      status = filter_status(tband_filter_set_all(true));
      break;
#endif
    default:
      break;
  }
  acknowledge(cmd, status, value);
}

}  // namespace

extern "C" void tband_rx_feed(const std::uint8_t* data, std::size_t len) {
  Receiver& rx = g_rx;
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint8_t byte = data[i];
    if (byte == 0) {
      if (rx.len == 0 && rx.block_left == 0 && !rx.zero_pending && !rx.too_long) {
        continue;  // delimiters between frames (a host may send some to resynchronise)
      }
      end_frame();
    } else if (rx.block_left == 0) {  // a COBS code byte
      if (rx.zero_pending) {
        append(0);
      }
      rx.block_left = static_cast<std::uint8_t>(byte - 1);
      rx.zero_pending = byte != 0xFF;
    } else {
      append(byte);
      --rx.block_left;
    }
  }
}

extern "C" unsigned tband_rx_poll(void) {
  unsigned done = 0;
  unsigned head = g_queue.head.load(std::memory_order_relaxed);
  while (head != g_queue.tail.load(std::memory_order_acquire)) {
    Queued& item = g_queue.items[head % kQueueLen];  // feed() leaves it alone until head moves on
    if (item.status == ctl::kDone) {
      carry_out(item);
    } else {
      acknowledge(item.cmd, item.status, 0);
    }
    g_queue.head.store(++head, std::memory_order_release);
    ++done;
  }
  return done;
}

extern "C" void tband_rx_get_counts(struct tband_rx_counts* counts) {
  if (counts == nullptr) {
    return;
  }
  counts->accepted = g_rx.accepted.get();
  counts->bad_crc = g_rx.bad_crc.get();
  counts->malformed = g_rx.malformed.get();
  counts->overflow = g_rx.overflow.get();
  counts->busy = g_rx.busy.get();
}

#endif
