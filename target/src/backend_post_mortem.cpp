// Post-mortem backend: the block, its rings, start and stop.
#include "tband.h"

#if tband_configENABLE == 1 && tband_configUSE_BACKEND_POST_MORTEM == 1

#include <atomic>

#include "backend.hpp"
#include "tracing_state.hpp"

namespace rt = tband::rt;

namespace tband::rt::backend {

namespace {

// tband_configBACKEND_POST_MORTEM_SECTION names a linker section that startup
// code does not clear (e.g. ".noinit"), so the block survives a reset.
#ifdef tband_configBACKEND_POST_MORTEM_SECTION
__attribute__((section(tband_configBACKEND_POST_MORTEM_SECTION)))
#endif
PmBlock g_block;

// Orders the writes a dump may see: the compiler must not move ring bytes
// across the head and tail updates. A core writes only its own ring.
inline void write_barrier() noexcept { std::atomic_signal_fence(std::memory_order_seq_cst); }

std::uint32_t offset_in_block(const void* p) noexcept {
  const auto* start = reinterpret_cast<const std::uint8_t*>(&g_block);
  return static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(p) - start);
}

}  // namespace

void pm_ring_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept {
  PmCoreDesc& desc = per_core(g_block.cores, core);
  std::uint8_t* ring = per_core(g_block.areas, core).ring;
  const std::uint32_t head = desc.head;
  const bool wrapped = (desc.tail & TBAND_PM_TAIL_WRAPPED) != 0;
  const std::size_t end = head + len;  // len < kRingSize, so end < 2 * kRingSize

  if (!wrapped && end < kRingSize) {  // free space: only head moves
    copy_bytes(ring + head, frame, len);
    write_barrier();
    desc.head = static_cast<std::uint32_t>(end);
    return;
  }

  // The frame overwrites the oldest bytes (or exactly fills the ring). First
  // move tail past them; whether a frame starts there is known from the old
  // byte just before it: a delimiter.
  const std::size_t new_head = end >= kRingSize ? end - kRingSize : end;
  std::uint32_t tail = TBAND_PM_TAIL_WRAPPED | TBAND_PM_TAIL_AT_FRAME;  // exactly full from 0
  if (wrapped || end > kRingSize) {
    const std::size_t before_tail = (new_head == 0 ? kRingSize : new_head) - 1;
    tail = TBAND_PM_TAIL_WRAPPED | static_cast<std::uint32_t>(new_head) |
           (ring[before_tail] == 0 ? TBAND_PM_TAIL_AT_FRAME : 0u);
  }
  desc.tail = tail;
  write_barrier();
  const std::size_t first = end > kRingSize ? kRingSize - head : len;
  copy_bytes(ring + head, frame, first);
  copy_bytes(ring, frame + first, len - first);
  write_barrier();
  desc.head = static_cast<std::uint32_t>(new_head);
}

void metadata_changed(unsigned core, const MetadataBuffer& meta) noexcept {
  PmCoreDesc& desc = per_core(g_block.cores, core);
  write_barrier();
  desc.metadata_len = static_cast<std::uint32_t>(meta.used);
  desc.metadata_lost_evts = meta.lost_evts;
  desc.metadata_lost_bytes = meta.lost_bytes;
}

}  // namespace tband::rt::backend

#if tband_configUSE_METADATA_BUF == 1
namespace tband::rt {
std::uint8_t* metadata_storage(unsigned core) noexcept { return per_core(backend::g_block.areas, core).metadata; }
}  // namespace tband::rt
#endif

namespace {

// Writes the header and empties the rings; the magic goes last, so a block is
// valid only once everything else is in place. Called with tracing finished.
void init_block() noexcept {
  using namespace tband::rt::backend;
  PmHeader& header = g_block.header;
  header.magic = 0;
  write_barrier();
  header.version = TBAND_PM_VERSION;
  header.header_size = static_cast<std::uint32_t>(offsetof(PmBlock, areas));
  header.core_count = rt::kCores;
  header.ring_size = static_cast<std::uint32_t>(kRingSize);
  header.metadata_size = static_cast<std::uint32_t>(kPmMetadataSize);
  header.block_size = static_cast<std::uint32_t>(sizeof(PmBlock));
  header.reserved = 0;
  for (unsigned core = 0; core < rt::kCores; ++core) {
    PmCoreDesc& desc = g_block.cores[core];
    desc.ring_offset = offset_in_block(g_block.areas[core].ring);
    desc.head = 0;
    desc.tail = TBAND_PM_TAIL_AT_FRAME;
    desc.metadata_offset = offset_in_block(g_block.areas[core].metadata);
    desc.metadata_len = 0;
    desc.metadata_lost_evts = 0;
    desc.metadata_lost_bytes = 0;
    desc.reserved = 0;
    if constexpr (rt::kUseMetadataBuf) {
      rt::LockGuard<rt::Spinlock> meta_guard(rt::per_core(rt::g_metadata, core).lock);  // its core may be appending
      metadata_changed(core, rt::per_core(rt::g_metadata, core));
    }
  }
  write_barrier();
  header.magic = TBAND_PM_MAGIC;
}

}  // namespace

extern "C" int tband_start_post_mortem(void) {
  return rt::start_tracing([] {
    init_block();
    return 0;
  });
}

extern "C" int tband_stop_post_mortem(void) { return rt::stop_tracing(); }

extern "C" const volatile std::uint8_t* tband_get_post_mortem_buf(void) {
  return reinterpret_cast<const volatile std::uint8_t*>(&tband::rt::backend::g_block);
}

extern "C" std::size_t tband_get_post_mortem_buf_size(void) { return sizeof(tband::rt::backend::PmBlock); }

#endif
