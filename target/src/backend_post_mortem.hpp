// Post-mortem backend, event path: frames go into the core's ring inside the
// post-mortem block (layout: tband/post_mortem_layout.h). The ring always
// holds the newest frames; a frame is encoded on the stack first and then
// copied, so the ring never holds a half-encoded frame.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend_session.hpp"
#include "metadata_buffer.hpp"
#include "tband/post_mortem_layout.h"

namespace tband::rt::backend {

inline constexpr std::size_t kRingSize = tband_configBACKEND_POST_MORTEM_BUF_SIZE;
inline constexpr std::size_t kPmMetadataSize = kUseMetadataBuf ? tband_configMETADATA_BUF_SIZE : 0;

static_assert(kRingSize > enc::kMaxFramedLen,
              "tband: tband_configBACKEND_POST_MORTEM_BUF_SIZE must be larger than the longest event frame "
              "(tband::enc::kMaxFramedLen, which grows with tband_configMAX_STR_LEN)");
static_assert(kRingSize <= TBAND_PM_TAIL_POS_MASK, "tband: tband_configBACKEND_POST_MORTEM_BUF_SIZE is too large");

struct PmHeader {
  std::uint32_t magic;
  std::uint32_t version;
  std::uint32_t header_size;
  std::uint32_t core_count;
  std::uint32_t ring_size;
  std::uint32_t metadata_size;
  std::uint32_t block_size;
  std::uint32_t reserved;
};

struct PmCoreDesc {
  std::uint32_t ring_offset;
  std::uint32_t head;
  std::uint32_t tail;
  std::uint32_t metadata_offset;
  std::uint32_t metadata_len;
  std::uint32_t metadata_lost_evts;
  std::uint32_t metadata_lost_bytes;
  std::uint32_t reserved;
};

struct PmCoreArea {
  std::uint8_t metadata[kPmMetadataSize > 0 ? kPmMetadataSize : 1];
  std::uint8_t ring[kRingSize];
};

struct PmBlock {
  PmHeader header;
  PmCoreDesc cores[kCores];
  PmCoreArea areas[kCores];
};

static_assert(sizeof(PmHeader) == TBAND_PM_HEADER_SIZE);
static_assert(sizeof(PmCoreDesc) == TBAND_PM_CORE_DESC_SIZE);
static_assert(offsetof(PmBlock, cores) == TBAND_PM_HEADER_SIZE);
static_assert(offsetof(PmHeader, ring_size) == TBAND_PM_OFF_RING_SIZE);
static_assert(offsetof(PmCoreDesc, tail) == TBAND_PM_CORE_OFF_TAIL);
static_assert(offsetof(PmCoreDesc, metadata_lost_bytes) == TBAND_PM_CORE_OFF_META_LOST_BYTES);

/// Copies one whole frame into the core's ring (see the layout header for the order of writes).
void pm_ring_append(unsigned core, const std::uint8_t* frame, std::size_t len) noexcept;

inline constexpr bool kEncodesInPlace = false;
inline constexpr bool kCanDrop = false;  // the ring always takes the newest frame
inline bool accepting() noexcept { return tracing_enabled(); }

class Writer {
 public:
  explicit Writer(unsigned core) noexcept : core_(core) {}

  Delivery deliver(const std::uint8_t* frame, std::size_t len, bool) noexcept {
    pm_ring_append(core_, frame, len);
    return Delivery::kDelivered;
  }
  Delivery deliver_report(const std::uint8_t* frame, std::size_t len) noexcept {
    return deliver(frame, len, false);
  }

 private:
  unsigned core_;
};

inline void stop_because_full() noexcept {}

/// Mirrors the metadata buffer's fill level and losses into the core descriptor.
void metadata_changed(unsigned core, const MetadataBuffer& meta) noexcept;

}  // namespace tband::rt::backend
